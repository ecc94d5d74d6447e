// What a transaction record's item holds: the record less what the rest of it implies. Every write of the
// record (the API's put, the pending index's copy, each move) is charged per started KB of the item, so a
// member is not written when it holds its implied value: null for one not set, a copy of another member
// (a P2P receives the asset it sends), what the record's type says (a payment's state is its status), and
// in each leg of a multi-transfer what the record says of all of them. Reading an item gives the record
// back whole, and an item written before, nulls and copies included, reads the same: absent ≡ implied.
// Implied values are read from members written at acceptance and never moved (the amount, the assets, the
// wallets, the type), or moved with the member they imply (a payment's state with its status).
import { isDeepStrictEqual } from 'node:util';
import { intentIdOf } from './record-ids.ts';

// Records are read as items here (repo.ts types them), so that repo.ts can import this file.
type Item = Record<string, unknown>;

/**
 * Every member a payment's record may hold null: null until it applies (a settlement's figures, a
 * failure's reasons) or for good (a beneficiary's on an own-wallet payment). A P2P has some fifteen.
 */
const PAYMENT_UNSET = {
  receiveAmount: null,
  exchangeRate: null,
  slippage: null,
  minReceiveAmount: null,
  walletId: null,
  walletPublicKey: null,
  destinationWalletId: null,
  destinationStellarAddress: null,
  beneficiaryId: null,
  beneficiaryFirstName: null,
  beneficiaryLastName: null,
  paymentDestinationId: null,
  fromRef: null,
  toRef: null,
  memo: null,
  notify: null,
  legs: null,
  stellarTxHash: null,
  errorCode: null,
  failureReason: null,
  completedAt: null,
} as const;

/**
 * A ramp's record has those and the provider's side (ramps/draft.ts), which a payment's never holds: every
 * member of a record that may hold null (repo.ts checks it against TransactionRecord).
 */
export const RAMP_UNSET = {
  ...PAYMENT_UNSET,
  externalReference: null,
  providerStatus: null,
  refundTxHash: null,
} as const;

const PAYMENT_TYPES = new Set<unknown>(['p2p', 'swap', 'p2p_multi']);

/** The route a payment's type and payee imply: a beneficiary's payment came by its beneficiary route. */
function operationOf(item: Item): string | undefined {
  const toBeneficiary = item.beneficiaryId != null;
  switch (item.transactionType) {
    case 'p2p':
      return toBeneficiary ? 'payP2pBeneficiary' : 'payP2pOwn';
    case 'swap':
      return toBeneficiary ? 'paySwapBeneficiary' : 'paySwapOwn';
    case 'p2p_multi':
      return 'payP2pOwnMulti';
    default:
      return undefined;
  }
}

/** The wallets a record names, each once, sources before destinations leg by leg: walletIds as accepted. */
function walletsNamedBy(item: Item): string[] {
  const legs = (item.legs ?? []) as Item[];
  const named = [
    item.walletId,
    item.destinationWalletId,
    ...legs.flatMap((l) => [l.walletId, l.destinationWalletId]),
  ];
  return [...new Set(named.filter((id): id is string => typeof id === 'string'))];
}

/** What the rest of a record (or of its item, legs whole) implies of its members. */
function impliedOf(item: Item): Item {
  const payment = PAYMENT_TYPES.has(item.transactionType);
  return {
    ...(payment ? PAYMENT_UNSET : RAMP_UNSET),
    // The debit is the amount asked (a ramp adds its fee); only a swap or a ramp receives another asset.
    originalSendAmount: item.sendAmount,
    receivingAsset: item.sendingAsset,
    intentId: intentIdOf(String(item.transactionRecordId)),
    operation: operationOf(item),
    walletIds: walletsNamedBy(item),
    // A payment's table has one state per status (lifecycle/payment.ts); a ramp's has more.
    ...(payment ? { state: item.status } : {}),
  };
}

/** What a multi-transfer implies of its leg `legIndex`: its place, the one asset, the one source if it has one. */
const impliedLeg = (item: Item, legIndex: number): Item => ({
  legIndex,
  sendingAsset: item.sendingAsset,
  ...(item.walletId != null ? { walletId: item.walletId, walletPublicKey: item.walletPublicKey } : {}),
});

const isImplied = (implied: Item, name: string, value: unknown) =>
  name in implied && isDeepStrictEqual(value, implied[name]);

const without = (members: Item, implied: Item): Item =>
  Object.fromEntries(Object.entries(members).filter(([name, value]) => !isImplied(implied, name, value)));

/** The members the record's item holds. */
export function storedOf(record: Item): Item {
  const stored = without(record, impliedOf(record));
  if (Array.isArray(record.legs))
    stored.legs = (record.legs as Item[]).map((leg, i) => without(leg, impliedLeg(stored, i)));
  return stored;
}

/** The record an item holds, its table attributes left out (lib/db/entity.ts recordOf): whole again. */
export function restoredOf(stored: Item): Item {
  const item = Array.isArray(stored.legs)
    ? { ...stored, legs: (stored.legs as Item[]).map((leg, i) => ({ ...impliedLeg(stored, i), ...leg })) }
    : stored;
  return { ...impliedOf(item), ...item };
}

/**
 * A move's `set` on `record`: what it writes, and what it removes, the members it sets to what the record
 * then implies (a null, a payment's state), which the record's put would not have written either.
 */
export function changesOf(record: Item, set: Item): { set: Item; remove: string[] } {
  const implied = impliedOf({ ...record, ...set });
  return {
    set: without(set, implied),
    remove: Object.keys(set).filter((name) => isImplied(implied, name, set[name])),
  };
}
