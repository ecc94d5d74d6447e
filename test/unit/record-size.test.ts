// A payment's record as DynamoDB counts it (lib/db/item-size.ts): each of its writes (the API's put, the
// pending index's copy, every move) is charged per started KB of the item, so a P2P, swap or multi-transfer
// record at its largest (a 28-byte memo, 56-character keys and issuers) must stay under 2 KB: two units a
// write, not three. Settled records carry three history entries where a payment's table writes one
// (initiated → completed | failed, lifecycle/payment.ts); failed ones carry that one, with the ledger's
// code and reason. The item holds less than the record (lib/payments/stored-record.ts) and reads back as it.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { fromItem, itemOf } from '../../lib/db/entity.ts';
import { attributeSizes, itemSize } from '../../lib/db/item-size.ts';
import { intentIdOf } from '../../lib/payments/record-ids.ts';
import { type TransactionRecord, transactionEntity } from '../../lib/payments/repo.ts';

const uuid = (n: number) => `${String(n).padStart(8, '0')}-4b1d-4c8e-9f20-7a3b4c5d6e7f`;
/** A Stellar account or issuer: 56 characters. */
const account = (c: string) => `G${c.repeat(55)}`;
const USDC = { code: 'USDC', issuer: account('A') };
const EURC = { code: 'EURC', issuer: account('B') };
const t0 = Date.UTC(2026, 11, 2, 17, 0, 0, 123);

/** Settled, with three history entries (two more than a payment's table writes). */
function settled(members: Partial<TransactionRecord>): TransactionRecord {
  const id = uuid(1);
  return {
    transactionRecordId: id,
    environment: 'sandbox',
    associationId: uuid(2),
    status: 'completed',
    state: 'completed',
    version: 3,
    history: [
      { t: t0 + 1000, s: 'initiated', e: 'ledger_refused', l: 1_234_567, f: 100, c: 'LEDGER_TX_BAD_SEQ' },
      { t: t0 + 2000, s: 'initiated', e: 'ledger_refused', l: 1_234_570, f: 100 },
      { t: t0 + 3000, s: 'completed', e: 'ledger_landed', l: 1_234_575, f: 100 },
    ],
    transactionType: 'p2p',
    operation: 'payP2pOwn',
    requestFingerprint: 'f'.repeat(64),
    idempotencyKey: uuid(3),
    requestId: uuid(4),
    intentId: intentIdOf(id),
    sendAmount: '1234.5678901',
    originalSendAmount: '1234.5678901',
    receiveAmount: '1234.5678901',
    exchangeRate: '1',
    fee: '0',
    sendingAsset: USDC,
    receivingAsset: USDC,
    slippage: null,
    minReceiveAmount: null,
    walletId: uuid(5),
    walletPublicKey: account('C'),
    destinationWalletId: uuid(6),
    destinationStellarAddress: account('D'),
    beneficiaryId: null,
    beneficiaryFirstName: null,
    beneficiaryLastName: null,
    paymentDestinationId: null,
    fromRef: null,
    toRef: null,
    memo: 'm'.repeat(28),
    notify: null,
    legs: null,
    walletIds: [uuid(5), uuid(6)],
    stellarTxHash: 'a'.repeat(64),
    errorCode: null,
    failureReason: null,
    createdAt: new Date(t0).toISOString(),
    updatedAt: new Date(t0 + 3000).toISOString(),
    completedAt: new Date(t0 + 3000).toISOString(),
    ...members,
  };
}

const beneficiary = {
  destinationWalletId: null,
  walletIds: [uuid(5)],
  beneficiaryId: uuid(7),
  beneficiaryFirstName: 'Nomvula',
  beneficiaryLastName: 'Dlamini-Zuma',
  paymentDestinationId: uuid(8),
};

const swap = {
  transactionType: 'swap',
  operation: 'paySwapOwn',
  receivingAsset: EURC,
  receiveAmount: '1140.3716543',
  exchangeRate: '0.9237165',
  slippage: '0.01',
  minReceiveAmount: '1129.0012345',
} as const;

const leg = (legIndex: number, source = 10) => ({
  legIndex,
  walletId: uuid(source),
  walletPublicKey: account('E'),
  destinationWalletId: uuid(20 + legIndex),
  destinationStellarAddress: account('F'),
  sendingAsset: USDC,
  amount: '411.5226300',
});

const records: [string, TransactionRecord][] = [
  ['P2P between own wallets', settled({})],
  ['P2P to a beneficiary', settled({ ...beneficiary, operation: 'payP2pBeneficiary' })],
  ['swap between own wallets', settled(swap)],
  ['swap to a beneficiary', settled({ ...swap, ...beneficiary, operation: 'paySwapBeneficiary' })],
  [
    'multi-transfer of 2 legs from one wallet',
    settled({
      transactionType: 'p2p_multi',
      operation: 'payP2pOwnMulti',
      receiveAmount: null,
      exchangeRate: null,
      walletId: uuid(10),
      walletPublicKey: account('E'),
      destinationWalletId: null,
      destinationStellarAddress: null,
      memo: null,
      fromRef: 'invoice-2026-12-000123',
      toRef: 'payroll-december',
      legs: [0, 1].map((i) => leg(i)),
      walletIds: [uuid(10), uuid(20), uuid(21)],
    }),
  ],
];

/** The same, failed by its one move: no receipt, no completion, the ledger's code and reason instead. */
const failed = (record: TransactionRecord): TransactionRecord => ({
  ...record,
  status: 'failed',
  state: 'failed',
  version: 1,
  history: [
    { t: t0 + 3000, s: 'failed', e: 'ledger_refused', l: 1_234_575, f: 100, c: 'LEDGER_OP_LINE_FULL' },
  ],
  receiveAmount: null,
  exchangeRate: null,
  completedAt: null,
  errorCode: 'LEDGER_OP_LINE_FULL',
  failureReason: 'The destination wallet cannot hold that much of the asset (trustline limit).',
});

describe('a payment record', () => {
  for (const [shape, settledRecord] of records)
    for (const record of [settledRecord, failed(settledRecord)])
      it(`${shape}, ${record.status}: under 2 KB as DynamoDB counts it, and read back whole`, () => {
        const item = itemOf(transactionEntity, record);
        const size = itemSize(item);
        assert.ok(size < 2048, `${size} B: ${JSON.stringify(attributeSizes(item))}`);
        assert.deepEqual(fromItem(transactionEntity, item), record);
      });

  it('a multi-transfer from several wallets keeps each leg’s source, and reads back whole', () => {
    const [, multi] = records.at(-1) as [string, TransactionRecord];
    const record = {
      ...multi,
      walletId: null,
      walletPublicKey: null,
      legs: [leg(0, 10), leg(1, 11)],
      walletIds: [uuid(10), uuid(20), uuid(11), uuid(21)],
    };
    const item = itemOf(transactionEntity, record);
    assert.deepEqual(
      (item.legs as Record<string, unknown>[]).map((l) => [l.walletId, 'legIndex' in l, 'sendingAsset' in l]),
      [
        [uuid(10), false, false],
        [uuid(11), false, false],
      ],
    );
    assert.equal('walletIds' in item, false);
    assert.deepEqual(fromItem(transactionEntity, item), record);
  });

  it('a member holding other than its implied value is written (a ramp’s debit adds its fee)', () => {
    const [, p2p] = records[0] as [string, TransactionRecord];
    const record = { ...p2p, originalSendAmount: '1235.5678901', walletIds: [uuid(6), uuid(5)] };
    const item = itemOf(transactionEntity, record);
    assert.equal(item.originalSendAmount, '1235.5678901');
    assert.deepEqual(item.walletIds, [uuid(6), uuid(5)]);
    assert.equal('memo' in item && 'beneficiaryId' in item, false);
    assert.deepEqual(fromItem(transactionEntity, item), record);
  });
});
