// What Horizon's history database would hold: every transaction that entered a ledger (successful or not),
// its operations and, for successful ones, their effects; plus Horizon's cursor paging over them.
import type { xdr } from '@stellar/stellar-sdk';
import type { EffectSpec } from './operations.ts';
import type { OpOutcome, TxOutcome } from './results-xdr.ts';
import type { DecodedEnvelope } from './validation.ts';

export interface TransactionRecord {
  /** The hash it was submitted under (the fee bump's, for a fee bump). */
  hash: string;
  innerHash?: string;
  /** Horizon's paging token: the total order id of (ledger, transaction index 1, operation 0). */
  id: bigint;
  ledger: number;
  closeTime: number;
  envelope: DecodedEnvelope;
  outcome: TxOutcome;
  successful: boolean;
  resultXdr: string;
  resultMetaXdr: string;
  feeAccount: string;
  participants: Set<string>;
  operations: OperationRecord[];
}

export interface OperationRecord {
  id: bigint;
  transaction: TransactionRecord;
  op: xdr.Operation;
  source: string;
  outcome: OpOutcome;
  participants: Set<string>;
  effects: EffectRecord[];
}

export interface EffectRecord {
  operation: OperationRecord;
  /** 1-based position among its operation's effects. */
  order: number;
  spec: EffectSpec;
}

/** stellar's TOID: ledger sequence, transaction index and operation index packed into one int64. */
export function toid(ledger: number, transactionIndex: number, operationIndex: number): bigint {
  return (BigInt(ledger) << 32n) | (BigInt(transactionIndex) << 12n) | BigInt(operationIndex);
}

export class History {
  readonly transactions: TransactionRecord[] = [];
  readonly operations: OperationRecord[] = [];
  readonly effects: EffectRecord[] = [];
  private readonly byHash = new Map<string, TransactionRecord>();

  add(record: TransactionRecord): void {
    this.transactions.push(record);
    this.byHash.set(record.hash, record);
    // Horizon finds a fee bump by its inner hash too.
    if (record.innerHash) this.byHash.set(record.innerHash, record);
    for (const op of record.operations) {
      this.operations.push(op);
      this.effects.push(...op.effects);
    }
  }

  transaction(hash: string): TransactionRecord | undefined {
    return this.byHash.get(hash.toLowerCase());
  }

  operation(id: bigint): OperationRecord | undefined {
    return this.operations.find((op) => op.id === id);
  }
}

/** A position in a collection: the record's id, then (for effects) its order within the operation. */
export type Cursor = readonly [bigint, number];

export interface PageQuery {
  cursor: string;
  order: 'asc' | 'desc';
  limit: number;
}

const MAX = 2n ** 63n - 1n;

/** Parses `cursor`, `order` and `limit` as Horizon does; a string is the reason for a 400. */
export function parsePageQuery(params: URLSearchParams): PageQuery | { invalid: string; reason: string } {
  const order = params.get('order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') return { invalid: 'order', reason: 'order must be asc or desc' };
  const limitText = params.get('limit') ?? '10';
  const limit = /^\d+$/.test(limitText) ? Number(limitText) : Number.NaN;
  if (!(limit >= 1 && limit <= 200)) {
    return { invalid: 'limit', reason: 'limit must be an integer between 1 and 200' };
  }
  const cursor = params.get('cursor') ?? '';
  if (cursor !== '' && cursor !== 'now' && !/^\d+(-\d+)?$/.test(cursor)) {
    return { invalid: 'cursor', reason: 'cursor must be a paging token' };
  }
  return { cursor, order, limit };
}

function parseCursor(text: string, order: 'asc' | 'desc'): Cursor {
  if (text === '') return order === 'asc' ? [-1n, 0] : [MAX, Number.MAX_SAFE_INTEGER];
  if (text === 'now') return [MAX, Number.MAX_SAFE_INTEGER];
  const [id, position] = text.split('-');
  return [BigInt(id ?? '0'), Number(position ?? '0')];
}

function compare(a: Cursor, b: Cursor): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] - b[1];
}

/** The records strictly after (asc) or before (desc) the cursor, in that order, at most `limit`. */
export function selectPage<T>(records: readonly T[], cursorOf: (record: T) => Cursor, query: PageQuery): T[] {
  const cursor = parseCursor(query.cursor, query.order);
  const sorted = [...records].sort((a, b) => compare(cursorOf(a), cursorOf(b)));
  if (query.order === 'desc') sorted.reverse();
  const after = sorted.filter((record) => {
    const position = compare(cursorOf(record), cursor);
    return query.order === 'asc' ? position > 0 : position < 0;
  });
  return after.slice(0, query.limit);
}
