// Issue #10 §5 on the bench's stack: how fast POST /v1/payments/p2p/own accepts (against its backend floor,
// bench/payment-floor.ts) and how long an accepted payment takes to settle (202 -> completed), with the
// stack's ledger (immediate closes unless LOCAL_LEDGER_CLOSE_MS says otherwise).
import type { LocalStack } from '../local/stack.ts';
import { spread } from './activation.ts';
import { tableAccess } from './floor.ts';
import { httpClient, type Op, runLoad } from './latency.ts';
import { type FundedWallet, fundedWallet, p2pPayer, transactionReader } from './payment-api.ts';
import { paymentFloorOps } from './payment-floor.ts';
import { recordReader } from './payment-records.ts';
import { fixed, ROUTE_VS_FLOOR_COLUMNS, routeVsFloorRow, table } from './stats.ts';

/**
 * Requests per case: each accepted payment also has the ledger-submitter settle it in the background (in
 * this process), and the bench waits for those before the floor and the next case.
 */
const CASES = [
  { concurrency: 1, requests: 100 },
  { concurrency: 16, requests: 200 },
];
const WARM_REQUESTS = 40;
/** Per measured case (route or floor); a case that hits it reports what it completed. */
const CASE_CAP_MS = 8_000;
/** After each route case: waiting for every payment it made to settle. */
const DRAIN_CAP_MS = 30_000;
const DRAIN_POLL_MS = 100;
const AMOUNT = 0.01;
const FUND = 1000;
const SETUP_CAP_MS = 15_000;
/** Settlement: payments made one at a time, each polled through the API until it leaves 'initiated'. */
const SETTLE_PAYMENTS = 20;
const SETTLE_POLL_MS = 20;
const PER_PAYMENT_MS = 10_000;
const SETTLE_CAP_MS = 25_000;
/** The most sections 5 and 6 can take (bench/run.ts adds it to its hard cap). */
export const PAYMENTS_SECTION_CAP_MS =
  2 * SETUP_CAP_MS +
  4 * DRAIN_CAP_MS +
  2 * 3000 +
  CASES.length * 2 * (2000 + CASE_CAP_MS) +
  SETTLE_CAP_MS +
  PER_PAYMENT_MS;

const ms = (value: number) => fixed(value, 2);
const pause = (t: number) => new Promise((resolve) => setTimeout(resolve, t));

/** The ledger's close cadence as its admin route reports it, for the headings. */
async function closesOf(stack: LocalStack): Promise<string> {
  const response = await fetch(`${stack.horizonUrl}/_admin/status`);
  const { closeIntervalMs } = (await response.json()) as { closeIntervalMs: number };
  return closeIntervalMs > 0 ? `ledger closes every ${closeIntervalMs} ms` : 'ledger closes at once';
}

export async function measurePayments(stack: LocalStack, accessToken: string): Promise<void> {
  const closes = await closesOf(stack);
  const setupClient = httpClient(2);
  const [from, to] = await Promise.all([
    fundedWallet(stack, setupClient, accessToken, FUND, SETUP_CAP_MS),
    fundedWallet(stack, setupClient, accessToken, FUND, SETUP_CAP_MS),
  ]).finally(setupClient.close);
  const { db, TableName } = tableAccess(stack);
  const reader = recordReader(db, TableName, stack.seededTenant);
  try {
    await measureAcceptance(stack, accessToken, reader, from, to, closes);
    await measureSettlement(stack, accessToken, reader, from, to, closes);
  } finally {
    db.destroy();
  }
}

type Reader = ReturnType<typeof recordReader>;

async function measureAcceptance(
  stack: LocalStack,
  accessToken: string,
  reader: Reader,
  from: FundedWallet,
  to: FundedWallet,
  closes: string,
): Promise<void> {
  const made: string[] = [];
  const routeOp = (client: ReturnType<typeof httpClient>): Op => {
    const pay = p2pPayer(stack, client, accessToken);
    return async () => {
      made.push((await pay({ from, to, amount: AMOUNT })).transactionRecordId);
    };
  };
  const drains: string[] = [];
  const drain = async (label: string) => {
    const ids = made.splice(0);
    const t0 = performance.now();
    const { records, capped } = await reader.waitSettled(ids, { pollMs: DRAIN_POLL_MS, capMs: DRAIN_CAP_MS });
    const failed = [...records.values()].filter((r) => r.status === 'failed').length;
    drains.push(
      `${label}: ${ids.length} payment(s) ${capped ? `NOT all settled within the ${DRAIN_CAP_MS / 1000} s cap` : `settled ${fixed((performance.now() - t0) / 1000, 1)} s after the case`}${failed ? `, ${failed} failed` : ''}`,
    );
  };

  // The floor copies the record of a payment the route made (and loads the payments function).
  const setupClient = httpClient(1);
  const first = await p2pPayer(stack, setupClient, accessToken)({ from, to, amount: AMOUNT });
  setupClient.close();
  await reader.waitSettled([first.transactionRecordId], { pollMs: DRAIN_POLL_MS, capMs: DRAIN_CAP_MS });
  const floor = await paymentFloorOps(stack, first, {
    walletId: from.walletId,
    destinationWalletId: to.walletId,
  });
  const rows: string[][] = [];
  const failures: string[] = [];
  try {
    const warmClient = httpClient(4);
    await runLoad(routeOp(warmClient), { concurrency: 4, requests: WARM_REQUESTS, capMs: 3000 });
    warmClient.close();
    await drain('warm-up');
    await runLoad(floor.createPayment, { concurrency: 4, requests: WARM_REQUESTS, capMs: 3000 });

    for (const { concurrency, requests } of CASES) {
      const client = httpClient(concurrency);
      const route = routeOp(client);
      await runLoad(route, { concurrency, requests: requests / 8, capMs: 2000 });
      const r = await runLoad(route, { concurrency, requests, capMs: CASE_CAP_MS });
      client.close();
      // The floor's records ask for nothing; the route's payments are settled first.
      await drain(`c=${concurrency}`);
      await runLoad(floor.createPayment, { concurrency, requests: requests / 8, capMs: 2000 });
      const f = await runLoad(floor.createPayment, { concurrency, requests, capMs: CASE_CAP_MS });
      rows.push(routeVsFloorRow('POST /v1/payments/p2p/own', concurrency, r, f));
      if (r.firstFailure) failures.push(`c=${concurrency} route: ${r.firstFailure}`);
      if (f.firstFailure) failures.push(`c=${concurrency} floor: ${f.firstFailure}`);
    }
  } finally {
    floor.close();
  }

  console.log(
    `\n== 5. Payment acceptance: POST /v1/payments/p2p/own vs its backend floor (ms; same run, ${closes})`,
  );
  console.log(table(ROUTE_VS_FLOOR_COLUMNS, rows));
  console.log(
    [
      '',
      `route: a P2P of ${AMOUNT} USDC between two funded own wallets of the seeded tenant, each request a new transactionId;`,
      '       202 with a new record (isIdempotent false) is a success.',
      "floor: GetItem API key + GetItem client (the token middleware) + consistent GetItem of the new record's key (a miss)",
      '       + two consistent GetItems of the wallets, at once + GetItem of the registry asset + PutItem of a copy of a',
      '       real record, attribute_not_exists(pk), ALL_OLD on a failed condition, under a random tenant scope and',
      "       written 'completed' so its insert asks the outbox for nothing. The route also validates (zod), fingerprints",
      '       the request (sha256) and derives the record id (sha1, UUID v5), which the floor does not.',
      `Requests per case: ${CASES.map((c) => c.requests).join(' and ')}: each accepted payment is then settled in the background in this`,
      "       process (the stream poller, the ledger-submitter, the ledger), so the route's figures include that",
      '       contention. Before the floor and the next case the bench waits until every payment the case made has',
      '       left initiated (read from the table):',
      ...drains.map((d) => `         ${d}`),
      `n marked * was cut short by the ${CASE_CAP_MS / 1000} s per-case cap.`,
    ].join('\n'),
  );
  for (const failure of failures) console.log(`first failure, ${failure}`);
}

async function measureSettlement(
  stack: LocalStack,
  accessToken: string,
  reader: Reader,
  from: FundedWallet,
  to: FundedWallet,
  closes: string,
): Promise<void> {
  const client = httpClient(2);
  const pay = p2pPayer(stack, client, accessToken);
  const read = transactionReader(stack, client, accessToken);
  const posts: number[] = [];
  const viaApi: number[] = [];
  const byRecord: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let capped = false;
  const begin = performance.now();
  try {
    for (let i = 0; i < SETTLE_PAYMENTS; i++) {
      if (performance.now() - begin > SETTLE_CAP_MS) {
        capped = true;
        break;
      }
      try {
        const sent = performance.now();
        const { transactionRecordId } = await pay({ from, to, amount: AMOUNT });
        const t0 = performance.now();
        posts.push(t0 - sent);
        for (;;) {
          const record = await read(transactionRecordId);
          if (record.status === 'completed') {
            viaApi.push(performance.now() - t0);
            const full = (await reader.records([transactionRecordId])).get(transactionRecordId);
            byRecord.push(Date.parse(full?.completedAt ?? '') - Date.parse(full?.createdAt ?? ''));
            break;
          }
          if (record.status === 'failed')
            throw new Error(`payment ${transactionRecordId} failed: ${record.errorCode}`);
          if (performance.now() - t0 > PER_PAYMENT_MS)
            throw new Error(`payment ${transactionRecordId} not settled in ${PER_PAYMENT_MS} ms`);
          await pause(SETTLE_POLL_MS);
        }
      } catch (error) {
        failures++;
        firstFailure ??= (error as Error).message;
      }
    }
  } finally {
    client.close();
  }
  const row = (name: string, values: number[]) => {
    const s = spread(values);
    return [name, `${s.n}${capped ? '*' : ''}`, ms(s.min), ms(s.p50), ms(s.p99), ms(s.max)];
  };
  console.log(
    `\n== 6. Payment settlement: 202 -> completed (ms; ${SETTLE_PAYMENTS} P2P payments made one at a time, ${closes})`,
  );
  console.log(
    table(
      ['seen', 'n', 'min', 'p50', 'p99', 'max'],
      [
        row("through the API: GET /v1/transactions/{id} says 'completed' (from the 202)", viaApi),
        row('on the record: completedAt - createdAt (from acceptance)', byRecord),
        row('(the POST itself -> 202, nothing else in flight)', posts),
      ],
    ),
  );
  console.log(
    [
      '',
      `Each payment is polled every ${SETTLE_POLL_MS} ms through the API, so that time is late by up to ${SETTLE_POLL_MS} ms plus one request.`,
      "The route only writes the record 'initiated'; its insert is the outbox: the local stream poller reads the table",
      'stream (pausing 150 ms after a round that found nothing) and the router sends the ledger-submissions message; a',
      'ledger-submitter invocation reads the record and the wallets, leases a channel, builds, signs and fee-bumps the',
      "transaction, submits it (submitOnce: a submission record first), then moves the record to 'completed'.",
      'The last row is the acceptance alone: each payment is sent once the one before has settled, so nothing settles',
      'in the background while it runs (compare the c=1 row of section 5, where the previous payment settles meanwhile).',
      `With ${SETTLE_PAYMENTS} samples p99 is the slowest one. n marked * was cut short by the ${SETTLE_CAP_MS / 1000} s section cap.`,
    ].join('\n'),
  );
  if (firstFailure) console.log(`failures ${failures}, first: ${firstFailure}`);
}
