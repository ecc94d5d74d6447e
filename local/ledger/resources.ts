// Horizon's JSON for each resource, spelled the way Horizon spells it (HAL `_links`, amounts as 7-place
// decimals, int64s as strings, times as RFC 3339 seconds) so the SDK's call builders parse it unchanged.
import { encodeMuxedAccountToAddress, type xdr } from '@stellar/stellar-sdk';
import { formatAmount } from './amounts.ts';
import { assetFields, fromXdrAsset } from './assets.ts';
import type { EffectRecord, OperationRecord, PageQuery, TransactionRecord } from './history.ts';
import { accountIdOf, poolFields, publicKeyId, sharedPool, trustedAsset } from './operations.ts';
import { type FoundPath, poolIdOf } from './pools.ts';
import type { Account, LedgerHeader, Pool } from './state.ts';
import type { LedgerAsset } from './types.ts';
import type { StateView } from './view.ts';

export const PROTOCOL_VERSION = 23;
export const HORIZON_VERSION = 'local-ledger';

export function isoTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

const link = (href: string, templated = false) => (templated ? { href, templated } : { href });

/** The history collections Horizon links from an account or a ledger. */
const historyLinks = (self: string) => ({
  transactions: link(`${self}/transactions{?cursor,limit,order}`, true),
  operations: link(`${self}/operations{?cursor,limit,order}`, true),
  payments: link(`${self}/payments{?cursor,limit,order}`, true),
  effects: link(`${self}/effects{?cursor,limit,order}`, true),
});
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

export function accountResource(base: string, account: Account): Record<string, unknown> {
  const self = `${base}/accounts/${account.id}`;
  const lines = [...account.trustlines.values()].map((line) => ({
    balance: formatAmount(line.balance),
    limit: formatAmount(line.limit),
    buying_liabilities: '0.0000000',
    selling_liabilities: '0.0000000',
    last_modified_ledger: line.lastModifiedLedger,
    is_authorized: true,
    is_authorized_to_maintain_liabilities: true,
    is_clawback_enabled: false,
    ...assetFields(line.asset),
  }));
  const shares = [...account.poolShares].map(([id, line]) => ({
    balance: formatAmount(line.balance),
    limit: formatAmount(line.limit),
    last_modified_ledger: line.lastModifiedLedger,
    is_authorized: true,
    is_authorized_to_maintain_liabilities: true,
    is_clawback_enabled: false,
    asset_type: 'liquidity_pool_shares',
    liquidity_pool_id: id,
  }));
  return {
    _links: {
      self: link(self),
      ...historyLinks(self),
      offers: link(`${self}/offers{?cursor,limit,order}`, true),
      trades: link(`${self}/trades{?cursor,limit,order}`, true),
      data: link(`${self}/data/{key}`, true),
    },
    id: account.id,
    account_id: account.id,
    sequence: account.seqNum.toString(),
    sequence_ledger: account.seqLedger,
    sequence_time: String(account.seqTime),
    subentry_count: account.subentries,
    last_modified_ledger: account.lastModifiedLedger,
    last_modified_time: isoTime(account.lastModifiedTime),
    thresholds: {
      low_threshold: account.thresholds.low,
      med_threshold: account.thresholds.med,
      high_threshold: account.thresholds.high,
    },
    flags: {
      auth_required: false,
      auth_revocable: false,
      auth_immutable: false,
      auth_clawback_enabled: false,
    },
    // Horizon lists trustlines first and the native balance last.
    balances: [
      ...lines,
      ...shares,
      {
        balance: formatAmount(account.balance),
        buying_liabilities: '0.0000000',
        selling_liabilities: '0.0000000',
        asset_type: 'native',
      },
    ],
    signers: [
      ...account.signers.map((signer) => ({
        weight: signer.weight,
        key: signer.key,
        type: 'ed25519_public_key',
      })),
      { weight: account.masterWeight, key: account.id, type: 'ed25519_public_key' },
    ],
    data: {},
    num_sponsoring: 0,
    num_sponsored: 0,
    paging_token: account.id,
  };
}

function memoFields(memo: xdr.Memo): Record<string, string> {
  switch (memo.type) {
    case 'memoText':
      return { memo_type: 'text', memo: memo.text.toString(), memo_bytes: base64(memo.text.bytes) };
    case 'memoId':
      return { memo_type: 'id', memo: memo.id.toString() };
    case 'memoHash':
      return { memo_type: 'hash', memo: base64(memo.hash.toBytes()) };
    case 'memoReturn':
      return { memo_type: 'return', memo: base64(memo.retHash.toBytes()) };
    default:
      return { memo_type: 'none' };
  }
}

const signatureList = (signatures: xdr.DecoratedSignature[]) =>
  signatures.map((s) => base64(s.signature.toBytes()));

/** A transaction as Horizon serves it; looked up by a fee bump's inner hash, it carries that hash and signatures. */
export function transactionResource(
  base: string,
  record: TransactionRecord,
  lookedUpBy = record.hash,
): Record<string, unknown> {
  const { tx, feeBump } = record.envelope;
  const byInner = record.innerHash !== undefined && lookedUpBy.toLowerCase() === record.innerHash;
  const hash = byInner ? tx.hash : record.hash;
  const self = `${base}/transactions/${hash}`;
  const pagingToken = record.id.toString();
  const bounds = tx.timeBounds;
  return {
    _links: {
      self: link(self),
      account: link(`${base}/accounts/${tx.source}`),
      ledger: link(`${base}/ledgers/${record.ledger}`),
      operations: link(`${self}/operations{?cursor,limit,order}`, true),
      effects: link(`${self}/effects{?cursor,limit,order}`, true),
      precedes: link(`${base}/transactions?order=asc&cursor=${pagingToken}`),
      succeeds: link(`${base}/transactions?order=desc&cursor=${pagingToken}`),
      transaction: link(self),
    },
    id: hash,
    paging_token: pagingToken,
    successful: record.successful,
    hash,
    ledger: record.ledger,
    created_at: isoTime(record.closeTime),
    source_account: tx.source,
    source_account_sequence: tx.seqNum.toString(),
    fee_account: record.feeAccount,
    fee_charged: record.outcome.feeCharged.toString(),
    max_fee: (feeBump ? feeBump.fee : tx.fee).toString(),
    operation_count: tx.operations.length,
    envelope_xdr: record.envelope.envelopeXdr,
    result_xdr: record.resultXdr,
    result_meta_xdr: record.resultMetaXdr,
    fee_meta_xdr: '',
    ...memoFields(tx.memo),
    signatures: signatureList(feeBump && !byInner ? feeBump.signatures : tx.signatures),
    ...(bounds
      ? {
          valid_after: isoTime(Number(bounds.minTime)),
          ...(bounds.maxTime === 0n ? {} : { valid_before: isoTime(Number(bounds.maxTime)) }),
          preconditions: {
            timebounds: {
              min_time: bounds.minTime.toString(),
              ...(bounds.maxTime === 0n ? {} : { max_time: bounds.maxTime.toString() }),
            },
          },
        }
      : {}),
    ...(feeBump
      ? {
          fee_bump_transaction: { hash: feeBump.hash, signatures: signatureList(feeBump.signatures) },
          inner_transaction: {
            hash: tx.hash,
            signatures: signatureList(tx.signatures),
            max_fee: tx.fee.toString(),
          },
        }
      : {}),
  };
}

const OPERATION_TYPES: Record<string, [string, number]> = {
  createAccount: ['create_account', 0],
  payment: ['payment', 1],
  changeTrust: ['change_trust', 6],
  pathPaymentStrictSend: ['path_payment_strict_send', 13],
  liquidityPoolDeposit: ['liquidity_pool_deposit', 22],
};

const pathFields = (path: LedgerAsset[]) => path.map((asset) => assetFields(asset));

/** Horizon's `to_muxed`/`to_muxed_id` when a destination is a muxed (M…) account; `to` stays its G… base. */
function muxedFields(account: xdr.MuxedAccount, prefix: string): Record<string, string> {
  if (account.type !== 'keyTypeMuxedEd25519') return {};
  return {
    [`${prefix}_muxed`]: encodeMuxedAccountToAddress(account),
    [`${prefix}_muxed_id`]: account.med25519.id.toString(),
  };
}

function operationFields(record: OperationRecord): Record<string, unknown> {
  const body = record.op.body;
  switch (body.type) {
    case 'createAccount': {
      return {
        starting_balance: formatAmount(body.createAccountOp.startingBalance),
        funder: record.source,
        account: publicKeyId(body.createAccountOp.destination),
      };
    }
    case 'payment':
      return {
        ...assetFields(fromXdrAsset(body.paymentOp.asset)),
        from: record.source,
        to: accountIdOf(body.paymentOp.destination),
        ...muxedFields(body.paymentOp.destination, 'to'),
        amount: formatAmount(body.paymentOp.amount),
      };
    case 'pathPaymentStrictSend': {
      const p = body.pathPaymentStrictSendOp;
      return {
        ...assetFields(fromXdrAsset(p.destAsset)),
        from: record.source,
        to: accountIdOf(p.destination),
        ...muxedFields(p.destination, 'to'),
        amount: formatAmount(record.outcome.strictSend?.amount ?? 0n),
        path: pathFields(p.path.map(fromXdrAsset)),
        source_amount: formatAmount(p.sendAmount),
        destination_min: formatAmount(p.destMin),
        ...assetFields(fromXdrAsset(p.sendAsset), 'source_'),
      };
    }
    case 'changeTrust': {
      const pool = sharedPool(body.changeTrustOp.line);
      if (pool) {
        return {
          asset_type: 'liquidity_pool_shares',
          liquidity_pool_id: poolIdOf(pool.assetA, pool.assetB),
          limit: formatAmount(body.changeTrustOp.limit),
          trustor: record.source,
        };
      }
      const asset = trustedAsset(body.changeTrustOp.line);
      return {
        ...(asset ? assetFields(asset) : {}),
        limit: formatAmount(body.changeTrustOp.limit),
        trustee: asset?.issuer,
        trustor: record.source,
      };
    }
    case 'liquidityPoolDeposit': {
      const p = body.liquidityPoolDepositOp;
      const price = ({ n, d }: xdr.Price) => ({ n, d });
      return {
        liquidity_pool_id: Buffer.from(p.liquidityPoolId.value).toString('hex'),
        reserves_max: [formatAmount(p.maxAmountA), formatAmount(p.maxAmountB)],
        min_price_r: price(p.minPrice),
        max_price_r: price(p.maxPrice),
      };
    }
    default:
      return {};
  }
}

export function operationResource(base: string, record: OperationRecord): Record<string, unknown> {
  const [type, typeI] = OPERATION_TYPES[record.op.body.type] ?? [record.op.body.type, -1];
  const id = record.id.toString();
  return {
    _links: {
      self: link(`${base}/operations/${id}`),
      transaction: link(`${base}/transactions/${record.transaction.hash}`),
      effects: link(`${base}/operations/${id}/effects`),
      succeeds: link(`${base}/effects?order=desc&cursor=${id}`),
      precedes: link(`${base}/effects?order=asc&cursor=${id}`),
    },
    id,
    paging_token: id,
    transaction_successful: record.transaction.successful,
    source_account: record.source,
    type,
    type_i: typeI,
    created_at: isoTime(record.transaction.closeTime),
    transaction_hash: record.transaction.hash,
    ...operationFields(record),
  };
}

const EFFECT_TYPES: Record<string, number> = {
  account_created: 0,
  account_credited: 2,
  account_debited: 3,
  signer_created: 10,
  trustline_created: 20,
  trustline_removed: 21,
  trustline_updated: 22,
  liquidity_pool_deposited: 90,
  liquidity_pool_trade: 92,
};

export function effectPagingToken(effect: EffectRecord): string {
  return `${effect.operation.id}-${effect.order}`;
}

export function effectResource(base: string, effect: EffectRecord): Record<string, unknown> {
  const pagingToken = effectPagingToken(effect);
  return {
    _links: {
      operation: link(`${base}/operations/${effect.operation.id}`),
      succeeds: link(`${base}/effects?order=desc&cursor=${pagingToken}`),
      precedes: link(`${base}/effects?order=asc&cursor=${pagingToken}`),
    },
    id: `${effect.operation.id.toString().padStart(19, '0')}-${String(effect.order).padStart(10, '0')}`,
    paging_token: pagingToken,
    account: effect.spec.account,
    type: effect.spec.type,
    type_i: EFFECT_TYPES[effect.spec.type] ?? -1,
    created_at: isoTime(effect.operation.transaction.closeTime),
    ...effect.spec.fields,
  };
}

export function ledgerResource(
  base: string,
  header: LedgerHeader,
  state: StateView,
): Record<string, unknown> {
  const self = `${base}/ledgers/${header.sequence}`;
  return {
    _links: {
      self: link(self),
      ...historyLinks(self),
    },
    id: header.hash,
    paging_token: (BigInt(header.sequence) << 32n).toString(),
    hash: header.hash,
    ...(header.sequence > 1 ? { prev_hash: header.prevHash } : {}),
    sequence: header.sequence,
    successful_transaction_count: header.successfulTransactionCount,
    failed_transaction_count: header.failedTransactionCount,
    operation_count: header.operationCount,
    tx_set_operation_count: header.txSetOperationCount,
    closed_at: isoTime(header.closeTime),
    total_coins: formatAmount(state.totalCoins),
    fee_pool: formatAmount(header.feePool),
    base_fee_in_stroops: Number(state.baseFee),
    base_reserve_in_stroops: Number(state.baseReserve),
    max_tx_set_size: 1000,
    protocol_version: PROTOCOL_VERSION,
    header_xdr: '',
  };
}

/** `coreLatest`: the newest closed ledger, which an ingesting Horizon may not show yet. */
export function rootResource(
  base: string,
  state: StateView,
  networkPassphrase: string,
  coreLatest = state.latest.sequence,
): Record<string, unknown> {
  const latest = state.latest;
  return {
    _links: {
      account: link(`${base}/accounts/{account_id}`, true),
      accounts: link(`${base}/accounts{?signer,sponsor,asset,liquidity_pool,cursor,limit,order}`, true),
      effects: link(`${base}/effects{?cursor,limit,order}`, true),
      fee_stats: link(`${base}/fee_stats`),
      ledger: link(`${base}/ledgers/{sequence}`, true),
      ledgers: link(`${base}/ledgers{?cursor,limit,order}`, true),
      operation: link(`${base}/operations/{id}`, true),
      operations: link(`${base}/operations{?cursor,limit,order,include_failed}`, true),
      payments: link(`${base}/payments{?cursor,limit,order,include_failed}`, true),
      self: link(`${base}/`),
      strict_send_paths: link(
        `${base}/paths/strict-send{?source_asset_type,source_asset_code,source_asset_issuer,source_amount,destination_assets,destination_account}`,
        true,
      ),
      transaction: link(`${base}/transactions/{hash}`, true),
      transactions: link(`${base}/transactions{?cursor,limit,order}`, true),
    },
    horizon_version: HORIZON_VERSION,
    core_version: HORIZON_VERSION,
    ingest_latest_ledger: latest.sequence,
    history_latest_ledger: latest.sequence,
    history_latest_ledger_closed_at: isoTime(latest.closeTime),
    history_elder_ledger: 1,
    core_latest_ledger: coreLatest,
    network_passphrase: networkPassphrase,
    current_protocol_version: PROTOCOL_VERSION,
    supported_protocol_version: PROTOCOL_VERSION,
    core_supported_protocol_version: PROTOCOL_VERSION,
  };
}

function distribution(values: bigint[]): Record<string, string> {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const at = (p: number) => String(sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0n);
  const counts = new Map<bigint, number>();
  for (const value of sorted) counts.set(value, (counts.get(value) ?? 0) + 1);
  let mode = sorted[0] ?? 0n;
  for (const [value, count] of counts) if (count > (counts.get(mode) ?? 0)) mode = value;
  const result: Record<string, string> = { max: at(100), min: at(0), mode: String(mode) };
  for (const p of [10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99]) result[`p${p}`] = at(p);
  return result;
}

/** Per-operation fee statistics over the recent transactions (the base fee alone while there are none). */
export function feeStatsResource(
  state: StateView,
  recent: readonly TransactionRecord[],
): Record<string, unknown> {
  const perOp = (fee: bigint, record: TransactionRecord) =>
    fee / BigInt(record.envelope.tx.operations.length + (record.envelope.feeBump ? 1 : 0));
  const charged = recent.map((r) => perOp(r.outcome.feeCharged, r));
  const bids = recent.map((r) => perOp(r.envelope.feeBump?.fee ?? r.envelope.tx.fee, r));
  return {
    last_ledger: String(state.latest.sequence),
    last_ledger_base_fee: String(state.baseFee),
    ledger_capacity_usage: '0.00',
    fee_charged: distribution(charged.length ? charged : [state.baseFee]),
    max_fee: distribution(bids.length ? bids : [state.baseFee]),
  };
}

export function pathResource(source: LedgerAsset, amount: bigint, found: FoundPath): Record<string, unknown> {
  return {
    ...assetFields(source, 'source_'),
    source_amount: formatAmount(amount),
    ...assetFields(found.destination, 'destination_'),
    destination_amount: formatAmount(found.destinationAmount),
    path: pathFields(found.path),
  };
}

/** A HAL collection page with Horizon's self/next/prev links. */
export function pageResource(
  base: string,
  path: string,
  query: PageQuery,
  records: Array<Record<string, unknown>>,
  extraParams: Record<string, string> = {},
): Record<string, unknown> {
  const href = (cursor: string, order: string) =>
    `${base}${path}?${new URLSearchParams({ ...extraParams, cursor, limit: String(query.limit), order })}`;
  const first = records[0]?.paging_token;
  const last = records.at(-1)?.paging_token;
  return {
    _links: {
      self: link(href(query.cursor, query.order)),
      next: link(href(typeof last === 'string' ? last : query.cursor, query.order)),
      prev: link(
        href(typeof first === 'string' ? first : query.cursor, query.order === 'asc' ? 'desc' : 'asc'),
      ),
    },
    _embedded: { records },
  };
}

/** GET /liquidity_pools/{id}: the pool's pair, reserves and shares. */
export function liquidityPoolResource(base: string, pool: Pool): Record<string, unknown> {
  const self = `${base}/liquidity_pools/${pool.id}`;
  return {
    _links: {
      self: link(self),
      transactions: link(`${self}/transactions{?cursor,limit,order}`, true),
      operations: link(`${self}/operations{?cursor,limit,order}`, true),
    },
    paging_token: pool.id,
    ...poolFields(pool),
  };
}
