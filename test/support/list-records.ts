// A tenant's list records written straight to the table (BatchWriteItem, as their repos write them: keys,
// index keys, wallet entries), and a count of the items each list request reads: the items-read test and
// the bench's list section (bench/lists.ts) share them. Seeded items carry an item type of their own
// (`seeded…`), which the table's stream filter does not admit (lib/outbox.ts), and none of the pending
// index's keys: they ask for no work, and the outbox reconciler finds none owed.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BeneficiaryRecord, PaymentDestinationRecord } from '../../lib/beneficiaries/repo.ts';
import type { ConnectorRecord } from '../../lib/connectors/repo.ts';
import { type Entity, entity } from '../../lib/db/entity.ts';
import { pendingKeys } from '../../lib/db/keys.ts';
import type { TransactionRecord, TransactionStatus, TransactionType } from '../../lib/payments/repo.ts';
import type { Tenant } from '../../lib/tenant.ts';
import type { WalletRecord } from '../../lib/wallets/repo.ts';
import type { DeliveryRecord, WebhookRecord } from '../../lib/webhooks/repo.ts';

/**
 * The same item as `definition` writes, under an item type no outbox row reads and off the pending
 * index: an `initiated` record would otherwise carry its keys, and the reconciler, which reads that index
 * by the record's kind, would "re-drive" it every bound (sending nothing, since no row reads the type).
 */
export const seeded = <R>(definition: Entity<R>): Entity<R> =>
  entity({
    ...definition,
    type: `seeded-${definition.type}`,
    indexKeysOf: (record) =>
      Object.fromEntries(
        Object.entries(definition.indexKeysOf?.(record) ?? {}).filter(
          ([name]) => !pendingKeys.attributes.includes(name),
        ),
      ),
  });

const STATUSES: TransactionStatus[] = ['completed', 'failed', 'initiated', 'processing', 'refund_completed'];
const TYPES: TransactionType[] = ['p2p', 'swap', 'p2p_multi', 'offramp', 'onramp'];

/**
 * Record `i` of `n`, oldest first: most are completed P2P payments between the tenant's busy wallets;
 * each rarer status, type and wallet is held by a few records only, the oldest ones, so that a filter
 * that read the partition newest first would read all of it before its first match.
 */
export function transactionAt(tenant: Tenant, i: number, wallets: string[]): TransactionRecord {
  const rare = i < 10;
  const createdAt = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  const status = rare ? (STATUSES[i % STATUSES.length] as TransactionStatus) : 'completed';
  const transactionType = rare ? (TYPES[(i >> 1) % TYPES.length] as TransactionType) : 'p2p';
  const walletIds = rare
    ? [wallets[0] as string, wallets[1 + (i % 2)] as string]
    : [wallets[3 + (i % 2)] as string];
  const id = randomUUID();
  return {
    transactionRecordId: id,
    ...tenant,
    status,
    transactionType,
    operation: 'payP2pOwn',
    requestFingerprint: '0'.repeat(64),
    idempotencyKey: id,
    intentId: `payment:${id}`,
    sendAmount: '1',
    originalSendAmount: '1',
    receiveAmount: '1',
    exchangeRate: '1',
    fee: '0',
    sendingAsset: { code: 'USDC', issuer: 'GISSUER' },
    receivingAsset: { code: 'USDC', issuer: 'GISSUER' },
    slippage: null,
    walletId: walletIds[0] as string,
    walletPublicKey: null,
    destinationWalletId: walletIds[1] ?? null,
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
    walletIds,
    stellarTxHash: null,
    errorCode: null,
    failureReason: null,
    createdAt,
    updatedAt: createdAt,
    completedAt: null,
  };
}

/** Wallet `i`: most hold USDC on stellar; a few the rarer assets and networks. */
export function walletAt(tenant: Tenant, i: number): WalletRecord {
  const createdAt = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
  return {
    walletId: randomUUID(),
    ...tenant,
    walletName: `w${i}`,
    assetCode: i % 50 === 1 ? 'EURC' : 'USDC',
    assetIssuer: null,
    ownAccount: true,
    status: 'Verified',
    networkName: i % 50 === 1 || i % 50 === 2 ? 'ethereum' : 'stellar',
    publicKey: `G${i}`,
    sealedSecret: { v: 1 } as unknown as WalletRecord['sealedSecret'],
    metadata: null,
    activationStatus: 'active',
    createdAt,
    updatedAt: createdAt,
  };
}

export function destinationAt(tenant: Tenant, beneficiaryId: string, i: number): PaymentDestinationRecord {
  return {
    destinationId: randomUUID(),
    beneficiaryId,
    ...tenant,
    method: i % 50 === 1 ? 'CRYPTO' : i % 50 === 2 ? 'MOBILE_MONEY' : 'BANK',
    countryIsoCode2: 'NG',
    currencyCode: 'NGN',
    verificationStatus: 'APPROVED',
    verifyAsMe: false,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  } as PaymentDestinationRecord;
}

export const beneficiaryAt = (tenant: Tenant, i: number): BeneficiaryRecord =>
  ({
    beneficiaryId: randomUUID(),
    ...tenant,
    kind: 'individual',
    addresses: [],
    n: i,
  }) as unknown as BeneficiaryRecord;

/** Connector `i` of a catalogue: most Nigerian bank off-ramps, standard; a few of each rarer kind. */
export function connectorAt(environment: Tenant['environment'], i: number): ConnectorRecord {
  const rare = i % 50;
  return {
    id: `c${String(i).padStart(6, '0')}`,
    environment,
    countryIsoCode2: rare === 1 ? 'KE' : 'NG',
    method: rare === 2 ? 'MOMO' : 'BANK',
    direction: rare === 3 ? 'ON_RAMP' : 'OFF_RAMP',
    flow: rare === 4 || rare === 1 ? 'BESPOKE' : 'STANDARD',
    loadedAt: '2026-01-01T00:00:00.000Z',
  } as unknown as ConnectorRecord;
}

export const webhookAt = (tenant: Tenant, i: number): WebhookRecord =>
  ({
    webhookId: randomUUID(),
    ...tenant,
    url: `https://example.com/${i}`,
    status: 'active',
  }) as WebhookRecord;

export const deliveryAt = (tenant: Tenant, webhookId: string, i: number): DeliveryRecord =>
  ({
    deliveryId: `${String(i).padStart(12, '0')}-${randomUUID()}`,
    webhookId,
    ...tenant,
    status: 'delivered',
  }) as unknown as DeliveryRecord;

/**
 * Items read per request: a Query's ScannedCount (what it evaluated, filtered or not), a batch's items.
 * Only the calls `read` makes count: the client is the process's, and whatever else the process reads
 * meanwhile (in the bench, the local stack's outbox reconciler querying the pending index) is not the
 * list's, so each count follows its read's async context rather than the client's calls.
 */
export interface ReadCounter {
  /** Runs `read`, and what it read: DynamoDB calls and items. */
  count<T>(read: () => Promise<T>): Promise<{ result: T; calls: number; items: number }>;
  stop(): void;
}

export function countReads(db: DynamoDBDocumentClient): ReadCounter {
  const name = `countReads-${randomUUID()}`;
  const counting = new AsyncLocalStorage<{ calls: number; items: number }>();
  db.middlewareStack.add(
    (next) => async (args) => {
      const answer = await next(args);
      const tally = counting.getStore();
      if (!tally) return answer;
      const output = answer.output as {
        ScannedCount?: number;
        Items?: unknown[];
        Responses?: Record<string, unknown[]>;
        Item?: unknown;
      };
      tally.calls += 1;
      tally.items +=
        output.ScannedCount ??
        output.Items?.length ??
        Object.values(output.Responses ?? {}).reduce((sum, found) => sum + found.length, 0) +
          (output.Item ? 1 : 0);
      return answer;
    },
    { step: 'initialize', name },
  );
  return {
    async count(read) {
      const tally = { calls: 0, items: 0 };
      const result = await counting.run(tally, read);
      return { result, ...tally };
    },
    stop: () => db.middlewareStack.remove(name),
  };
}
