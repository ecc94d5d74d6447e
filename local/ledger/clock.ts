// The ledger's own clock: real time plus a settable offset. Close times, time-bound checks and the HTTP
// `Date` header all read it, so a test can put the gateway's clock (the process clock) ahead of or behind
// the network's without touching the process clock.

export class LedgerClock {
  offsetMs: number;

  constructor(offsetMs = 0) {
    this.offsetMs = checkOffset(offsetMs);
  }

  set(offsetMs: number): void {
    this.offsetMs = checkOffset(offsetMs);
  }

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  /** Unix seconds, as close times and time bounds count. */
  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  /** Unix seconds on this clock at the real instant `realMs` (a scheduled close). */
  secondsAt(realMs: number): number {
    return Math.floor((realMs + this.offsetMs) / 1000);
  }
}

function checkOffset(offsetMs: number): number {
  if (!Number.isSafeInteger(offsetMs))
    throw new RangeError(`clock offset must be whole milliseconds, not ${offsetMs}`);
  return offsetMs;
}
