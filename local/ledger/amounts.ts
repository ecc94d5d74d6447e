// Integer stroop arithmetic. Every amount inside the ledger is a bigint of stroops; decimals exist only at the
// edges (genesis, query strings, JSON), where Horizon prints exactly seven places.

export const STROOPS_PER_UNIT = 10_000_000n;
export const INT64_MAX = 2n ** 63n - 1n;

const DECIMAL = /^(\d+)(?:\.(\d{1,7}))?$/;

/** '12.5' → 125000000n. Throws on anything that is not a non-negative decimal with at most 7 places. */
export function toStroops(decimal: string): bigint {
  const match = DECIMAL.exec(decimal.trim());
  if (!match) throw new RangeError(`not an amount with at most 7 decimal places: ${JSON.stringify(decimal)}`);
  const stroops = BigInt(match[1] ?? '0') * STROOPS_PER_UNIT + BigInt((match[2] ?? '').padEnd(7, '0'));
  if (stroops > INT64_MAX) throw new RangeError(`amount out of int64 range: ${decimal}`);
  return stroops;
}

/** 125000000n → '12.5000000', as Horizon prints amounts. */
export function formatAmount(stroops: bigint): string {
  const sign = stroops < 0n ? '-' : '';
  const abs = stroops < 0n ? -stroops : stroops;
  return `${sign}${abs / STROOPS_PER_UNIT}.${(abs % STROOPS_PER_UNIT).toString().padStart(7, '0')}`;
}
