// The public shapes of the local ledger: what a test or the local stack hands in (genesis) and gets back.

export interface LedgerAssetSpec {
  code: string;
  issuer: string;
}

/** The native asset is the string `'native'`; every other asset is a code and its issuer. */
export type LedgerAsset = 'native' | LedgerAssetSpec;

export interface LedgerGenesis {
  accounts: Array<{
    publicKey: string;
    /** Decimal XLM, e.g. '100000'. */
    nativeBalance: string;
    trustlines?: Array<{ asset: LedgerAssetSpec; balance: string; limit?: string }>;
    /** Multi-signature set-ups (SetOptions is not supported, so genesis is the only way to get one). */
    masterWeight?: number;
    thresholds?: { low: number; med: number; high: number };
    /** Extra ed25519 signers (G… keys). */
    signers?: Array<{ key: string; weight: number }>;
  }>;
  /** Constant-product liquidity pools (0.30% fee) for path payments. */
  pools?: Array<{ assetA: LedgerAsset; assetB: LedgerAsset; reserveA: string; reserveB: string }>;
}

/** How the answer to a POST /transactions misbehaves; `count` (default 1) submissions are affected. */
export type SubmissionAnswerFault = ({ mode: 'late'; delayMs: number } | { mode: 'drop' }) & {
  count?: number;
};

/** Refuse a resubmission (or, with `anySubmission`, any submission) as a busy node would; `count` default 1. */
export interface RejectResubmissionFault {
  code: 'tx_insufficient_fee' | 'tx_too_late';
  count?: number;
  anySubmission?: boolean;
}

/**
 * Misbehaviour on demand, per ledger instance, all off by default. `set` merges: a member present replaces
 * the current one, `null` removes it, an absent one stays. Counts left are what `current()` shows.
 */
export interface LedgerFaults {
  submissionAnswer?: SubmissionAnswerFault | null;
  rejectResubmission?: RejectResubmissionFault | null;
  /** Ledgers closed while set become visible to reads (history, ledgers, Latest-Ledger) this much later. */
  ingestDelayMs?: number | null;
  /** The same for GET /accounts/{id} (and paths); default: ingestDelayMs. */
  accountsIngestDelayMs?: number | null;
  /** Every request but /_admin/… answers 503. */
  unavailable?: boolean | null;
}

export interface LedgerFaultControl {
  set(faults: LedgerFaults): void;
  /** Every fault off, and every closed ledger visible at once. */
  clear(): void;
  current(): LedgerFaults;
}

export interface LocalLedger {
  url: string;
  networkPassphrase: string;
  /** 0: every accepted transaction closes a ledger of its own at once. */
  closeIntervalMs: number;
  /** `${url}/friendbot` when the friendbot is on. */
  friendbotUrl: string | undefined;
  stop(): Promise<void>;
  /** Closes the next ledger now with whatever is pending (an empty ledger when nothing is). */
  closeLedgerNow(): Promise<void>;
  /** The ledger clock = real time + this offset (may be negative). Close times never go back. */
  setClockOffsetMs(ms: number): void;
  faults: LedgerFaultControl;
  /** Test hook: the next POST /transactions is applied but its HTTP response is dropped (socket destroyed), as after a timeout. */
  dropNextSubmissionResponse(): void;
}

export interface LocalLedgerOptions {
  /** 0 = random. */
  port?: number;
  networkPassphrase: string;
  genesis: LedgerGenesis;
  /** Stroops per operation; default 100. */
  baseFee?: number;
  /** Decimal XLM per reserve unit; default '0.5'. */
  baseReserve?: string;
  /** 0 or absent: each accepted transaction closes its own ledger at once. > 0: a ledger closes every N ms. */
  closeIntervalMs?: number;
  /**
   * Operations one ledger takes at most, as stellar-core's ledger limit (a fee bump counts its inner
   * operations and one more); what the pool holds beyond it waits for the next close, in arrival order.
   * Default 1,000, the public network's.
   */
  maxTxSetOperations?: number;
  /** The ledger clock's initial offset from real time, in ms (genesis closes on it too). */
  clockOffsetMs?: number;
  /** GET|POST /friendbot funds new accounts; default on, except on the public network's passphrase. */
  friendbot?: boolean;
}
