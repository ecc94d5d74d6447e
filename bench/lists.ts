// Issue #28 on the bench's stack: list reads that stay O(page) as a tenant grows. One tenant is seeded
// straight into the table (BatchWriteItem, the items as their repos write them) with 100, then 10,000,
// then 100,000 transaction records (and up to 10,000 of each other listed kind: wallets, a beneficiary's
// destinations, a connector catalogue; LIST_BENCH_OTHER_MAX), the rare ones oldest; at each size every documented filter's first page (limit
// 20) is read through the list functions, and the table prints p50/p99 latency and the items each
// request read (a Query's ScannedCount, a batch's items). Then the write units one payment costs
// (accepted, then settled) with the list indexes and as it was before them, from DynamoDB's
// ConsumedCapacity (INDEXES).
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { LocalStack } from '../local/stack.ts';
import { isMain, runAlone } from './alone.ts';
import { fixed, percentile, table } from './stats.ts';

export const LISTS_SECTION_CAP_MS = 30 * 60_000;
const sizesOr = (sizes: string) => (process.env.LIST_BENCH_SIZES ?? sizes).split(',').map(Number);
const otherMaxOr = (max: number) => Number(process.env.LIST_BENCH_OTHER_MAX ?? max);
const REQUESTS = Number(process.env.LIST_BENCH_REQUESTS ?? 40);
const LIMIT = 20;

interface ListsRun {
  /** Transaction records the tenant holds at each step. */
  sizes: number[];
  /** Wallets, destinations and connectors stop here (their writes are the slow part of a run). */
  otherMax: number;
}

/** Alone: the three sizes and up to 10,000 of each other kind (about 12 minutes). */
const ALONE: ListsRun = { sizes: sizesOr('100,10000,100000'), otherMax: otherMaxOr(10_000) };
/**
 * In `npm run bench` (section 12): 100 and 10,000 records, up to 1,000 of each other kind, which show the
 * same bounds (items read do not grow with the tenant) in about two minutes.
 */
export const BENCH_LISTS: ListsRun = { sizes: sizesOr('100,10000'), otherMax: otherMaxOr(1000) };

export async function measureLists(_stack: LocalStack, { sizes, otherMax }: ListsRun = ALONE): Promise<void> {
  // After the stack set the environment (endpoint, table): lib/db/client.ts reads it on first use.
  const { db } = await import('../lib/db/client.ts');
  const { putAll } = await import('../lib/db/items.ts');
  const { tenantScope } = await import('../lib/db/keys.ts');
  const payments = await import('../lib/payments/repo.ts');
  const { listWalletPage, walletEntity } = await import('../lib/wallets/repo.ts');
  const { listPaymentDestinationPage, paymentDestinationEntity } = await import(
    '../lib/beneficiaries/repo.ts'
  );
  const { listConnectorPage, connectorEntity } = await import('../lib/connectors/repo.ts');
  const seed = await import('../test/support/list-records.ts');
  const tenant = { environment: 'sandbox' as const, associationId: randomUUID() };
  const catalogue = `bench-${randomUUID()}` as 'sandbox';
  const walletIds = Array.from({ length: 6 }, () => randomUUID());
  const beneficiaryId = randomUUID();
  const binding = (query: string) => ({ scope: tenantScope(tenant), query });

  type Read = (page: { limit: number }) => Promise<unknown>;
  const cases: [string, Read][] = [
    ['transactions', (page) => payments.listTransactionPage(tenant, {}, page)],
    [
      'transactions?status=failed (rare)',
      (page) => payments.listTransactionPage(tenant, { status: 'failed' }, page),
    ],
    [
      'transactions?status=completed',
      (page) => payments.listTransactionPage(tenant, { status: 'completed' }, page),
    ],
    [
      'transactions?type=p2p_multi (rare)',
      (page) => payments.listTransactionPage(tenant, { type: 'p2p_multi' }, page),
    ],
    [
      'transactions?status=failed&type=p2p_multi (none)',
      (page) => payments.listTransactionPage(tenant, { status: 'failed', type: 'p2p_multi' }, page),
    ],
    [
      'transactions?status=failed&type=offramp (rare)',
      (page) => payments.listTransactionPage(tenant, { status: 'failed', type: 'offramp' }, page),
    ],
    [
      'transactions?walletId=<rare wallet>',
      (page) => payments.listTransactionPage(tenant, { walletId: walletIds[0] }, page),
    ],
    [
      'transactions?walletId=<busy wallet>',
      (page) => payments.listTransactionPage(tenant, { walletId: walletIds[3] }, page),
    ],
    [
      'transactions?walletId=<busy>&status=failed (none)',
      (page) => payments.listTransactionPage(tenant, { walletId: walletIds[3], status: 'failed' }, page),
    ],
    [
      'transactions?walletId=<rare>&type=swap',
      (page) => payments.listTransactionPage(tenant, { walletId: walletIds[0], type: 'swap' }, page),
    ],
    [
      'transactions?createdFrom&createdTo (first 40 s)',
      (page) =>
        payments.listTransactionPage(
          tenant,
          { createdFrom: '2026-01-01T00:00:00Z', createdTo: '2026-01-01T00:00:40Z' },
          page,
        ),
    ],
    [
      'transactions?createdTo&status=initiated',
      (page) =>
        payments.listTransactionPage(
          tenant,
          { createdTo: '2026-01-01T00:00:40Z', status: 'initiated' },
          page,
        ),
    ],
    ['wallets', (page) => listWalletPage(tenant, {}, page)],
    ['wallets?assetCode=EURC (rare)', (page) => listWalletPage(tenant, { assetCode: 'EURC' }, page)],
    [
      'wallets?networkName=ethereum (rare)',
      (page) => listWalletPage(tenant, { networkName: 'ethereum' }, page),
    ],
    [
      'wallets?assetCode=USDC&networkName=ethereum',
      (page) => listWalletPage(tenant, { assetCode: 'USDC', networkName: 'ethereum' }, page),
    ],
    ['payment-destinations', (page) => listPaymentDestinationPage(tenant, beneficiaryId, undefined, page)],
    [
      'payment-destinations?method=CRYPTO (rare)',
      (page) => listPaymentDestinationPage(tenant, beneficiaryId, 'CRYPTO', page),
    ],
    ['connectors', (page) => listConnectorPage(catalogue, {}, { ...page, binding: binding('c') })],
    [
      'connectors?countryIsoCode2=KE (rare)',
      (page) => listConnectorPage(catalogue, { countryIsoCode2: 'KE' }, { ...page, binding: binding('c') }),
    ],
    [
      'connectors?method=MOMO (rare)',
      (page) => listConnectorPage(catalogue, { method: 'MOMO' }, { ...page, binding: binding('c') }),
    ],
    [
      'connectors?direction=ON_RAMP (rare)',
      (page) => listConnectorPage(catalogue, { direction: 'ON_RAMP' }, { ...page, binding: binding('c') }),
    ],
    [
      'connectors?flow=BESPOKE (rare)',
      (page) => listConnectorPage(catalogue, { flow: 'BESPOKE' }, { ...page, binding: binding('c') }),
    ],
    [
      'connectors?countryIsoCode2=NG&flow=BESPOKE (rare)',
      (page) =>
        listConnectorPage(
          catalogue,
          { countryIsoCode2: 'NG', flow: 'BESPOKE' },
          { ...page, binding: binding('c') },
        ),
    ],
  ];

  const reads = seed.countReads(db);
  const figures = new Map<string, string[]>();
  let seededUpTo = 0;
  for (const size of sizes) {
    const t0 = performance.now();
    // Oldest first, in chunks so that the generator's records never all sit in memory at once. Wallets,
    // destinations and connectors stop at otherMax.
    for (let start = seededUpTo; start < size; start += 2000) {
      const indexes = Array.from({ length: Math.min(2000, size - start) }, (_, k) => start + k);
      const others = indexes.filter((i) => i < otherMax);
      const records = indexes.map((i) => seed.transactionAt(tenant, i, walletIds));
      const halves = [records.slice(0, 1000), records.slice(1000)];
      await Promise.all([
        ...halves.map((half) => putAll(seed.seeded(payments.transactionEntity), half)),
        ...halves.map((half) =>
          putAll(seed.seeded(payments.transactionWalletEntity), half.flatMap(payments.walletEntriesOf)),
        ),
        putAll(
          seed.seeded(walletEntity),
          others.map((i) => seed.walletAt(tenant, i)),
        ),
        putAll(
          seed.seeded(paymentDestinationEntity),
          others.map((i) => seed.destinationAt(tenant, beneficiaryId, i)),
        ),
        putAll(
          seed.seeded(connectorEntity),
          others.map((i) => seed.connectorAt(catalogue, i)),
        ),
      ]);
    }
    seededUpTo = size;
    console.log(
      `seeded ${size} transactions and ${Math.min(size, otherMax)} of each other kind in ${fixed((performance.now() - t0) / 1000, 1)} s`,
    );
    // One unmeasured round (the JIT, DynamoDB Local's caches), then rounds over every case in turn, so
    // that the machine's load falls on every case alike.
    for (const [, read] of cases) await read({ limit: LIMIT });
    const latencies = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    const most = new Map<string, number>();
    for (let r = 0; r < REQUESTS; r += 1)
      for (const [name, read] of cases) {
        const t = performance.now();
        const { items } = await reads.count(() => read({ limit: LIMIT }));
        latencies.get(name)?.push(performance.now() - t);
        most.set(name, Math.max(most.get(name) ?? 0, items));
      }
    for (const [name] of cases) {
      const sorted = (latencies.get(name) ?? []).sort((a, b) => a - b);
      figures.set(name, [
        ...(figures.get(name) ?? []),
        `${fixed(percentile(sorted, 50), 1)} / ${fixed(percentile(sorted, 99), 1)} ms, ${most.get(name)}`,
      ]);
    }
  }
  reads.stop();
  console.log(
    `\nList reads (issue #28): first page, limit ${LIMIT}, ${REQUESTS} requests each; p50 / p99 ms, most items read per request (budget ${2 * LIMIT + 1}: 2 × the page and the look-ahead's index entry); load average ${loadavg()
      .map((l) => fixed(l, 1))
      .join(' ')}\n`,
  );
  console.log(
    table(
      ['list', ...sizes.map((size) => `${size.toLocaleString('en')} records`)],
      cases.map(([name]) => [name, ...(figures.get(name) ?? [])]),
    ),
  );
  await printWriteUnits(tenant, walletIds);
}

/**
 * The write units of one payment, accepted (the record and its wallet entries) and settled (initiated →
 * completed), as DynamoDB reports them (ConsumedCapacity, INDEXES): with the list indexes, and with the
 * same record written as before them (no list keys, no wallet entries).
 */
async function printWriteUnits(
  tenant: { environment: 'sandbox'; associationId: string },
  walletIds: string[],
) {
  const { db } = await import('../lib/db/client.ts');
  const { PutCommand, UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
  const { itemOf } = await import('../lib/db/entity.ts');
  const { pendingKeys, transactionKeys } = await import('../lib/db/keys.ts');
  const { itemSize } = await import('../lib/db/item-size.ts');
  const { tableName } = await import('../lib/db/client.ts');
  const payments = await import('../lib/payments/repo.ts');
  const { applyEvent } = await import('../lib/payments/lifecycle/apply.ts');
  const { transactionAt } = await import('../test/support/list-records.ts');
  let units = 0;
  const name = `writeUnits-${randomUUID()}`;
  // Only this function's calls: the local stack's workers and reconciler use the same client meanwhile.
  const measuring = new AsyncLocalStorage<true>();
  db.middlewareStack.add(
    (next) => async (args) => {
      if (!measuring.getStore()) return next(args);
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'INDEXES';
      const answer = await next(args);
      const consumed = (
        answer.output as { ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[] }
      ).ConsumedCapacity;
      for (const c of [consumed ?? []].flat()) units += c.CapacityUnits ?? 0;
      return answer;
    },
    { step: 'initialize', name },
  );
  const rows: string[][] = [];
  const shapes: [string, number][] = [
    ['P2P own (2 wallets)', 0],
    ['P2P (1 wallet)', 20],
  ];
  try {
    await measuring.run(true, async () => {
      for (const [label, i] of shapes) {
        // Written now: a record `initiated` since long ago is one the outbox reconciler re-drives before it settles.
        const now = new Date().toISOString();
        const record = {
          ...transactionAt(tenant, 1_000_000 + i, walletIds),
          status: 'initiated' as const,
          createdAt: now,
          updatedAt: now,
        };
        if (i >= 10) record.walletIds = record.walletIds.slice(0, 1);
        const settlement = {
          stellarTxHash: 'a'.repeat(64),
          receiveAmount: '1',
          exchangeRate: '1',
        };
        units = 0;
        await payments.putTransaction(record);
        const accepted = units;
        const applied = await applyEvent(
          tenant,
          record,
          { type: 'ledger_landed', facts: settlement, source: 'ledger-submitter' },
          new Date(),
        );
        const after = [accepted, units - accepted, units];
        // Before the list indexes: the record with gsi1 only, settled by the same update less the status keys.
        // Nor the pending index's keys, which came after them: this update does not remove them, and the
        // outbox reconciler would re-drive the record (a payment event for a record no payment made).
        const old = { ...record, transactionRecordId: randomUUID() };
        const item = {
          ...Object.fromEntries(
            Object.entries(itemOf(payments.transactionEntity, old)).filter(
              ([n]) => !n.startsWith('list') && !pendingKeys.attributes.includes(n),
            ),
          ),
          ...transactionKeys.byCreation(tenant, old.createdAt, old.transactionRecordId),
        };
        units = 0;
        await db.send(new PutCommand({ TableName: tableName(), Item: item }));
        const oldAccepted = units;
        await db.send(
          new UpdateCommand({
            TableName: tableName(),
            Key: transactionKeys.record(tenant, old.transactionRecordId),
            UpdateExpression:
              'SET #s = :s, stellarTxHash = :h, receiveAmount = :r, exchangeRate = :e, updatedAt = :u, completedAt = :u',
            ExpressionAttributeNames: { '#s': 'status' },
            ExpressionAttributeValues: {
              ':s': 'completed',
              ':h': settlement.stellarTxHash,
              ':r': '1',
              ':e': '1',
              ':u': new Date().toISOString(),
            },
          }),
        );
        const before = [oldAccepted, units - oldAccepted, units];
        // As DynamoDB counts it (names and values): the settled record, with the keys it holds then.
        const size = itemSize(
          itemOf(payments.transactionEntity, applied.outcome === 'moved' ? applied.record : record),
        );
        rows.push([
          `${label}, record ${size} B`,
          ...before.map((u) => fixed(u, 1)),
          ...after.map((u) => fixed(u, 1)),
        ]);
      }
    });
  } finally {
    db.middlewareStack.remove(name);
  }
  console.log(
    '\nWrite units per payment (ConsumedCapacity, table and indexes): before #28 → with the list indexes\n',
  );
  console.log(
    table(['payment', 'before: accept', 'settle', 'total', 'after: accept', 'settle', 'total'], rows),
  );
}

// Alone: `node scripts/toolchain.mjs node bench/lists.ts` (a stack of its own; LIST_BENCH_SIZES=100,10000
// for a shorter run).
if (isMain(import.meta.url)) await runAlone('lists', LISTS_SECTION_CAP_MS, measureLists);
