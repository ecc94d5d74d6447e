// What a statement line says beyond the ledger's figures: a description, the viewing wallet's own
// reference, and the record it belongs to. Records only enrich: a line is the ledger's, and one whose
// transaction names no record of the caller's (an outside payer, sandbox funding) is described from
// the ledger alone. A record is taken only if it is the line's: its ledger transaction (or refund) is
// the line's transaction and it touches the wallet, so a memo an outsider copied names nothing.
//
// Descriptions go by record type and the line's side; a new record type needs one entry in `byType`
// (without one, its lines read as the ledger's).

import { type TransactionRecord, transactionRecordsOf } from '../payments/transactions.ts';
import type { Tenant } from '../tenant.ts';
import { findWalletRecords } from '../wallets/lookups.ts';
import type { StatementLineRecord } from './repo.ts';

export interface LineEnrichment {
  description: string;
  reference: string | null;
  transactionRecordId: string | null;
  transactionType: string | null;
}

/** `G…ABCD`: enough of an address to recognise it. */
export const shortAddress = (address: string) => `${address.slice(0, 1)}…${address.slice(-4)}`;

const METHODS: Record<string, string> = { MOMO: 'mobile money', BANK: 'bank', CASH: 'cash' };

interface Context {
  line: StatementLineRecord;
  record: TransactionRecord;
  /** A wallet's name (the caller's own wallets), else null. */
  walletName: (walletId: string | null) => string | null;
}

const personOf = (record: TransactionRecord) =>
  [record.beneficiaryFirstName, record.beneficiaryLastName].filter(Boolean).join(' ');

/** Who a payment went to: the own wallet's name, the beneficiary, or the address. */
const payeeOf = ({ record, walletName }: Context, walletId: string | null, address: string | null) =>
  walletName(walletId) ?? (personOf(record) || shortAddress(address ?? ''));

const corridorOf = (record: TransactionRecord) =>
  record.ramp
    ? ` (${record.ramp.destinationCountryIso} ${METHODS[record.ramp.method] ?? record.ramp.method})`
    : '';

const byType: Record<string, (context: Context) => string> = {
  p2p: (c) =>
    c.line.direction === 'debit'
      ? `P2P to ${payeeOf(c, c.record.destinationWalletId, c.record.destinationStellarAddress)}`
      : `P2P from ${payeeOf(c, c.record.walletId, c.record.walletPublicKey)}`,
  swap: ({ record }) => `Swap ${record.sendingAsset.code} → ${record.receivingAsset.code}`,
  p2p_multi: (c) => {
    const leg = c.record.legs?.[c.line.operationIndex - 1];
    return c.line.direction === 'debit'
      ? `Transfer to ${payeeOf(c, leg?.destinationWalletId ?? null, leg?.destinationStellarAddress ?? null)}`
      : `Transfer from ${payeeOf(c, leg?.walletId ?? null, leg?.walletPublicKey ?? null)}`;
  },
  offramp: ({ line, record }) =>
    line.direction === 'debit'
      ? `Payout to ${personOf(record)}${corridorOf(record)}`
      : `Refund of payout to ${personOf(record)}${corridorOf(record)}`,
  onramp: ({ record }) => `Collection from ${personOf(record)}${corridorOf(record)}`,
};

/** A line no record of the caller's explains: what the ledger says of it. */
function ledgerDescription(tenant: Tenant, line: StatementLineRecord): string {
  if (line.operationType === 'create_account') return 'Account opened';
  const issuer = line.asset.split(':')[1];
  if (tenant.environment === 'sandbox' && line.direction === 'credit' && line.counterparty === issuer)
    return 'Sandbox funding';
  const other = line.counterparty ? shortAddress(line.counterparty) : 'the ledger';
  return line.direction === 'credit' ? `Received from ${other}` : `Sent to ${other}`;
}

/**
 * The sender's own reference is fromRef, the recipient's toRef; a refund returns to the sender, who
 * sees the reference they paid with.
 */
function referenceOf(line: StatementLineRecord, record: TransactionRecord): string | null {
  const asSender = line.direction === 'debit' || record.refundTxHash === line.stellarTxHash;
  return (asSender ? record.fromRef : record.toRef) ?? null;
}

/** The enrichment of each line, in order: two batched reads at most (records, then wallet names). */
export async function describeLines(
  tenant: Tenant,
  walletId: string,
  lines: StatementLineRecord[],
): Promise<LineEnrichment[]> {
  const ids = [...new Set(lines.flatMap((line) => line.memoRecordId ?? []))];
  const records = new Map(
    (ids.length ? await transactionRecordsOf(tenant, ids) : []).map((r) => [r.transactionRecordId, r]),
  );
  const recordOf = (line: StatementLineRecord) => {
    const record = line.memoRecordId ? records.get(line.memoRecordId) : undefined;
    const ours =
      record &&
      (record.stellarTxHash === line.stellarTxHash || record.refundTxHash === line.stellarTxHash) &&
      record.walletIds.includes(walletId);
    return ours ? record : undefined;
  };
  const named = new Set<string>();
  for (const line of lines) {
    const record = recordOf(line);
    for (const id of [
      record?.walletId,
      record?.destinationWalletId,
      ...(record?.legs ?? []).flatMap((l) => [l.walletId, l.destinationWalletId]),
    ])
      if (id) named.add(id);
  }
  const wallets = new Map(
    (named.size ? await findWalletRecords(tenant, [...named]) : []).map((w) => [w.walletId, w.walletName]),
  );
  const walletName = (id: string | null) => (id ? (wallets.get(id) ?? null) : null);
  return lines.map((line) => {
    const record = recordOf(line);
    const describe = record && byType[record.transactionType];
    return {
      description: describe ? describe({ line, record, walletName }) : ledgerDescription(tenant, line),
      reference: record ? referenceOf(line, record) : null,
      transactionRecordId: record?.transactionRecordId ?? null,
      transactionType: record?.transactionType ?? null,
    };
  });
}
