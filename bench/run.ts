// `npm run bench`: route latency against its backend floor, wallet activation time, a submission burst
// through submitOnce, payment acceptance and settlement, a payment burst through the API, bundle sizes and
// cold module loads, each function's memory and CPU under a typical workload, one tenant beside another
// that floods (section 13), and a ramp soak (money records against the ledger and the provider, section
// 14), in one run.
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '../lib/config.ts';
import { type LocalStack, startStack } from '../local/stack.ts';
import { activeWallet, drainActivations, measureActivation, spread } from './activation.ts';
import { CALL_CPU_CAP_MS, measureCallCpu } from './call-cpu.ts';
import { measureBundlesAndColdLoads } from './cold-loads.ts';
import { floorOps, quoteFloorOps, walletFloorOps } from './floor.ts';
import { FUNCTION_MEMORY_CAP_MS, measureFunctionMemory } from './function-memory.ts';
import { ISOLATION_SECTION_CAP_MS, measureIsolation } from './isolation.ts';
import {
  assetsRoute,
  connectorsRoute,
  createQuoteRoute,
  createWalletRoute,
  httpClient,
  issueAccessToken,
  type Op,
  offRampQuoteRequest,
  quoteCreator,
  runLoad,
  tokenRoute,
  walletRoute,
} from './latency.ts';
import { liftBenchLimits, TOKEN_RATE_LIMIT } from './lifted-limits.ts';
import { BENCH_LISTS, LISTS_SECTION_CAP_MS, measureLists } from './lists.ts';
import { measureOfframps, OFFRAMP_SECTION_CAP_MS } from './offramp.ts';
import { measurePaymentBurst, PAYMENT_BURST_CAP_MS } from './payment-burst.ts';
import { measurePaymentCpu, PAYMENT_CPU_CAP_MS } from './payment-cpu.ts';
import { measurePayments, PAYMENTS_SECTION_CAP_MS } from './payments.ts';
import { measureRampSoak, RAMP_SOAK_CAP_MS, raiseRampSoakCaps } from './ramp-soak.ts';
import { measureStatements, STATEMENTS_SECTION_CAP_MS } from './statements.ts';
import { fixed, ROUTE_VS_FLOOR_COLUMNS, routeVsFloorRow, table } from './stats.ts';
import { BURST_SECTION_CAP_MS, measureSubmissionBurst } from './submission-burst.ts';
import { measureWebhooks, WEBHOOK_SECTION_CAP_MS } from './webhooks.ts';

liftBenchLimits();
// The ramp soak's tenants pay into their on-ramp references many times (section 14).
raiseRampSoakCaps();

/**
 * `creates`: POST /v1/wallets requests, fewer than the rest because each one also has the activation
 * worker open a ledger account in the background (in this process), at some 10-15 a second on 2 CPUs,
 * and the bench waits for those before it measures anything else.
 * `catalogue`: GET /v1/connectors and POST /v1/quotes requests, fewer than the rest because both read
 * connector records (nested maps of several KB each; the first page is the whole seeded catalogue), which
 * DynamoDB Local serves at only some 50-100 a second on 2 CPUs.
 */
const CASES = [
  { concurrency: 1, requests: 400, creates: 100, catalogue: 150 },
  { concurrency: 16, requests: 1600, creates: 200, catalogue: 320 },
];
/** Per measured case (route or floor); a case that hits it reports what it completed. */
const CASE_CAP_MS = 10_000;
/** The same for the wallet, connector and quote routes, which come on top: they keep the whole run near 3 minutes. */
const SHORT_CASE_CAP_MS = 6_000;
/** After each POST /v1/wallets case: waiting for the worker to open the accounts it asked for. */
const DRAIN_CAP_MS = 20_000;
/**
 * The whole latency section, from the start of the run; the rest (activation, build, cold loads) takes about
 * 70 s, and the submission burst (three pools, three runs each) 6 to 15 minutes more.
 */
const LATENCY_CAP_MS = 150_000;
/** Wallet activation: wallets created one at a time, each given PER_WALLET_MS, the whole section ACTIVATION_CAP_MS. */
const ACTIVATION_WALLETS = 20;
const ACTIVATION_POLL_MS = 20;
const PER_WALLET_MS = 10_000;
const ACTIVATION_CAP_MS = 30_000;
/** Past this the run gives up, stops the stack and exits 1 (the burst, payment, webhook and memory sections have caps of their own). */
const HARD_CAP_MS =
  240_000 +
  BURST_SECTION_CAP_MS +
  PAYMENTS_SECTION_CAP_MS +
  OFFRAMP_SECTION_CAP_MS +
  STATEMENTS_SECTION_CAP_MS +
  LISTS_SECTION_CAP_MS +
  ISOLATION_SECTION_CAP_MS +
  PAYMENT_BURST_CAP_MS +
  PAYMENT_CPU_CAP_MS +
  CALL_CPU_CAP_MS +
  WEBHOOK_SECTION_CAP_MS +
  FUNCTION_MEMORY_CAP_MS +
  RAMP_SOAK_CAP_MS;
/** POST /v1/quotes: an off-ramp exploratory quote of this many units of the connector's asset, for this type. */
const QUOTE_AMOUNT = 100;
const QUOTE_TYPE = 'C_2_C';

const root = fileURLToPath(new URL('..', import.meta.url));
const workDir = join(root, '.local', `bench-${process.pid}`);
const begin = performance.now();
const elapsed = () => performance.now() - begin;

let stack: LocalStack | undefined;
let cleaning: Promise<void> | undefined;
const cleanup = () =>
  (cleaning ??= (async () => {
    const running = stack;
    stack = undefined;
    if (running) await Promise.race([running.stop(), new Promise((r) => setTimeout(r, 10_000))]);
    rmSync(workDir, { recursive: true, force: true });
  })());
const abort = async (why: string, code: number) => {
  console.error(`\nbench: ${why}; stopping the stack`);
  await cleanup();
  process.exit(code);
};
setTimeout(() => void abort(`hard time cap of ${HARD_CAP_MS / 1000} s reached`, 1), HARD_CAP_MS).unref();
process.on('SIGINT', () => void abort('SIGINT', 130));
process.on('SIGTERM', () => void abort('SIGTERM', 143));

const ms = (value: number) => fixed(value, 2);

interface Endpoint {
  name: string;
  route: Op;
  floor: Op;
  requests: number;
  /** Per-case cap, ms. */
  cap: number;
  /** Each request queues a wallet activation: the worker's backlog is drained before the floor runs. */
  creates?: true;
}

/** Waits for the activation backlog and notes how long it took. */
async function drain(running: LocalStack, label: string, notes: string[]): Promise<void> {
  const { waiting, ms: drainMs } = await drainActivations(running, DRAIN_CAP_MS);
  notes.push(
    Number.isFinite(drainMs)
      ? `${label}: ${waiting} activation message(s) waiting, drained in ${fixed(drainMs / 1000, 1)} s`
      : `${label}: ${waiting} activation message(s) waiting, NOT drained within the ${DRAIN_CAP_MS / 1000} s cap`,
  );
}

async function measureLatency(running: LocalStack, accessToken: string): Promise<void> {
  const { TOKEN_RATE_WINDOW_SECONDS: windowSeconds } = config();
  const floor = floorOps(running, { limit: TOKEN_RATE_LIMIT, windowSeconds });
  // Also loads the wallets function and the activation worker, and reads the KEK once.
  const wallet = await activeWallet(running, accessToken, PER_WALLET_MS);
  const walletFloor = await walletFloorOps(running, wallet);
  const quote = offRampQuoteRequest(QUOTE_AMOUNT, QUOTE_TYPE);
  // Also loads the quotes function; the floor copies the record this quote left.
  const setupClient = httpClient(1);
  const quoteFloor = await quoteFloorOps(
    running,
    await quoteCreator(running, setupClient, accessToken, quote)().finally(setupClient.close),
  );
  const rows: string[][] = [];
  const failures: string[] = [];
  const drains: string[] = [];
  const capMs = (cap: number) => Math.max(0, Math.min(cap, LATENCY_CAP_MS - elapsed()));
  try {
    // Loads the handlers (each module once, like a warm Lambda) and warms DynamoDB Local's JIT.
    const warmClient = httpClient(4);
    for (const [op, requests] of [
      [tokenRoute(running, warmClient), 100],
      [assetsRoute(running, warmClient, accessToken), 100],
      [connectorsRoute(running, warmClient, accessToken), 40],
      [createQuoteRoute(running, warmClient, accessToken, quote), 40],
      [walletRoute(running, warmClient, accessToken, wallet.walletId), 100],
      [createWalletRoute(running, warmClient, accessToken), 20],
      [floor.token, 100],
      [floor.assets, 100],
      [floor.connectors, 40],
      [quoteFloor.createQuote, 40],
      [walletFloor.getWallet, 100],
      [walletFloor.createWallet, 20],
    ] as const) {
      await runLoad(op, { concurrency: 4, requests, capMs: 3000 });
    }
    warmClient.close();
    await drain(running, 'warm-up', drains);

    for (const { concurrency, requests, creates, catalogue } of CASES) {
      const client = httpClient(concurrency);
      const endpoints: Endpoint[] = [
        {
          name: 'POST /v1/auth/token',
          route: tokenRoute(running, client),
          floor: floor.token,
          requests,
          cap: CASE_CAP_MS,
        },
        {
          name: 'GET /v1/assets',
          route: assetsRoute(running, client, accessToken),
          floor: floor.assets,
          requests,
          cap: CASE_CAP_MS,
        },
        {
          name: 'GET /v1/connectors',
          route: connectorsRoute(running, client, accessToken),
          floor: floor.connectors,
          requests: catalogue,
          cap: SHORT_CASE_CAP_MS,
        },
        {
          name: 'POST /v1/quotes',
          route: createQuoteRoute(running, client, accessToken, quote),
          floor: quoteFloor.createQuote,
          requests: catalogue,
          cap: SHORT_CASE_CAP_MS,
        },
        {
          name: 'GET /v1/wallets/{walletId}',
          route: walletRoute(running, client, accessToken, wallet.walletId),
          floor: walletFloor.getWallet,
          requests,
          cap: SHORT_CASE_CAP_MS,
        },
        {
          name: 'POST /v1/wallets',
          route: createWalletRoute(running, client, accessToken),
          floor: walletFloor.createWallet,
          requests: creates,
          cap: SHORT_CASE_CAP_MS,
          creates: true,
        },
      ];
      for (const { name, route, floor: floorOp, requests, cap, creates } of endpoints) {
        const measure = async (op: Op) => {
          await runLoad(op, { concurrency, requests: requests / 8, capMs: Math.min(2000, capMs(cap)) });
          return runLoad(op, { concurrency, requests, capMs: capMs(cap) });
        };
        const r = await measure(route);
        // The floor's messages go to a queue no worker reads; the route's must be worked off first.
        if (creates) await drain(running, `${name} c=${concurrency}`, drains);
        const f = await measure(floorOp);
        rows.push(routeVsFloorRow(name, concurrency, r, f));
        if (r.firstFailure) failures.push(`${name} c=${concurrency} route: ${r.firstFailure}`);
        if (f.firstFailure) failures.push(`${name} c=${concurrency} floor: ${f.firstFailure}`);
      }
      client.close();
    }
  } finally {
    floor.close();
    walletFloor.close();
    quoteFloor.close();
  }

  console.log(
    '\n== 1+2. Route latency vs its backend floor (ms; same run, same DynamoDB Local, fauxqs and ledger, same concurrency)',
  );
  console.log(table(ROUTE_VS_FLOOR_COLUMNS, rows));
  console.log(
    [
      '',
      `route: real HTTP/1.1 keep-alive on loopback to the local gateway; TOKEN_RATE_LIMIT=${TOKEN_RATE_LIMIT} for this run,`,
      '       so every token request is counted in DynamoDB but none is refused (the 429 path is not measured).',
      'floor: the same backend calls in the same order, straight from the AWS SDK (document client)',
      '       and, for the ledger, plain keep-alive HTTP:',
      '       token = GetItem API key + UpdateItem rate window + GetItem client;',
      '       assets = GetItem API key + GetItem client + Query (Limit 21) on the registry partition;',
      '       connectors = GetItem API key + GetItem client + Query (Limit 21, no filter) on the catalogue',
      '         partition: the first page (default limit 20), read on only if DynamoDB cuts it short, as',
      '         lib/db/paginate.ts does;',
      '       quote POST = GetItem API key + GetItem client + GetItem connector + GetItem asset (its decimals) +',
      '         GetItem fee row (missing or found, as the route finds it) + conditional PutItem of a copy of a',
      '         real quote record under a random tenant scope. Exploratory (a transaction type, no beneficiary):',
      '         neither reads the association. The route also validates, takes the rate from its configured',
      '         table and prices with bignumber.js, which the floor does not: that is in the ratio.',
      `         Body ${JSON.stringify(quote)}, off-ramp;`,
      '       wallet GET = GetItem API key + GetItem client + GetItem wallet + Horizon GET /accounts/{id} on the',
      '         local ledger (the wallet is active, so the route reads its balances there too);',
      '       wallet POST = GetItem API key + GetItem client + GetItem asset + conditional PutItem of a copy of a',
      "         real wallet record under a random tenant scope, written 'active' so its insert asks the outbox for",
      "         nothing (the route's own 'pending' insert is the activation's outbox: no send in the request).",
      '         The route also makes a keypair and seals its secret (AES-256-GCM), which the floor does not: that',
      '         is in the route/floor ratio.',
      `GET /v1/connectors and POST /v1/quotes run ${CASES.map((c) => c.catalogue).join(' and ')} requests: both read connector records, nested maps`,
      '       of several KB each (the first page is the whole seeded catalogue), and DynamoDB Local is slow to serve',
      '       them: that Query is most of the connectors floor.',
      `POST /v1/wallets runs ${CASES.map((c) => c.creates).join(' and ')} requests (not ${CASES.map((c) => c.requests).join(' and ')}): each one also has the activation`,
      '       worker open a ledger account in the background, once the outbox routes its insert (the table stream,',
      '       polled every 150 ms), in this same process, so the',
      "       route's figures include that contention. Before its floor and before the next case, the bench waits",
      '       for the activation queue to empty:',
      ...drains.map((d) => `         ${d}`),
      'Latencies are of successful requests; a failure is any other status than the route answers on success',
      '(200; 201 for POST /v1/wallets and POST /v1/quotes) or an error (floor).',
      'The load generator, the gateway, the functions, the activation worker, fauxqs and the ledger share this',
      `Node process; DynamoDB Local (Java) runs beside it on ${availableParallelism()} CPU(s). n marked * was cut short by`,
      `the per-case cap (${CASE_CAP_MS / 1000} s; ${SHORT_CASE_CAP_MS / 1000} s for the connector, quote and wallet routes) or the latency section's ${LATENCY_CAP_MS / 1000} s cap.`,
    ].join('\n'),
  );
  for (const failure of failures) console.log(`first failure, ${failure}`);
}

async function measureWalletActivation(running: LocalStack, accessToken: string): Promise<void> {
  const before: string[] = [];
  await drain(running, 'before this section', before);
  const times = await measureActivation(running, accessToken, {
    wallets: ACTIVATION_WALLETS,
    pollMs: ACTIVATION_POLL_MS,
    perWalletMs: PER_WALLET_MS,
    capMs: ACTIVATION_CAP_MS,
  });
  const row = (name: string, values: number[]) => {
    const s = spread(values);
    return [name, `${s.n}${times.capped ? '*' : ''}`, ms(s.min), ms(s.p50), ms(s.p99), ms(s.max)];
  };
  console.log(
    `\n== 3. Wallet activation: POST /v1/wallets 201 -> account open (ms; ${ACTIVATION_WALLETS} wallets, created one at a time)`,
  );
  console.log(
    table(
      ['seen', 'n', 'min', 'p50', 'p99', 'max'],
      [
        row("through the API: GET /v1/wallets/{id} says 'active'", times.api),
        row('on the ledger: GET /accounts/{publicKey} answers 200', times.ledger),
      ],
    ),
  );
  console.log(
    [
      '',
      `Timed from the moment the 201 arrived. Each wallet is polled every ${ACTIVATION_POLL_MS} ms through the API and on the`,
      `local ledger at once, so each time is late by up to ${ACTIVATION_POLL_MS} ms plus one request.`,
      "The API only writes the record 'pending'; its insert is the outbox (lib/outbox.ts): the local stream poller",
      'reads the table stream every 150 ms and the router sends the activation message (no delay). The rest is',
      'fauxqs, the worker (GetItem wallet, open the sealed secret, the ledger submission and its records) and',
      "then the worker's UpdateItem to 'active': the API can only say so after the ledger.",
      `With ${ACTIVATION_WALLETS} samples p99 is the slowest one. Activation queue ${before.join('')}.`,
      `n marked * was cut short by the ${ACTIVATION_CAP_MS / 1000} s section cap; each wallet may take ${PER_WALLET_MS / 1000} s.`,
    ].join('\n'),
  );
  if (times.firstFailure) console.log(`failures ${times.failures}, first: ${times.firstFailure}`);
}

const load = () =>
  loadavg()
    .map((l) => fixed(l, 2))
    .join(' ');
console.log(
  `payments-gateway bench: node ${process.version}, ${availableParallelism()} CPU(s), load average ${load()}`,
);
/** The ramp soak's violations (section 13): any makes the run exit 1, after every section has printed. */
let soakViolations = 0;
/** Wall time of each section, for the last line. */
const sections: string[] = [];
async function timed(name: string, section: () => Promise<void>): Promise<void> {
  const t0 = performance.now();
  await section();
  sections.push(`${name} ${fixed((performance.now() - t0) / 1000, 1)} s`);
}

try {
  stack = await startStack({
    port: 0,
    dataDir: workDir,
    dynamoDbDir: join(root, '.local', 'dynamodb'),
  });
  console.log(`stack up in ${fixed(elapsed() / 1000, 1)} s at ${stack.baseUrl}`);
  const env = { ...stack.env };
  const running = stack;
  // An access token per section: one issued at the start would expire (TOKEN_TTL_SECONDS) mid-run.
  const token = () => issueAccessToken(running);
  await timed('1+2', async () => measureLatency(running, await token()));
  await timed('3', async () => measureWalletActivation(running, await token()));
  await timed('3b', () => measureWebhooks(running));
  await timed('5+6', async () => measurePayments(running, await token()));
  await timed('10', async () => measureOfframps(running, await token()));
  await timed('11', async () => measureStatements(running, await token()));
  await timed('12', () => measureLists(running, BENCH_LISTS));
  await timed('13', () => measureIsolation(running));
  await timed('14', async () => {
    soakViolations = await measureRampSoak(running);
  });
  // Stopped before the bursts, whose runs have DynamoDB Locals and stacks of their own (one at a time),
  // and before the cold loads: the stack's own traffic (webhook deferrals still going round, the stream
  // poller) would compete with them, and DynamoDB Local serialises every table's writes.
  stack = undefined;
  await running.stop();
  await timed('4', () => measureSubmissionBurst());
  await timed('7', () => measurePaymentBurst());
  await timed('7b', () => measurePaymentCpu());
  await timed('7c', () => measureCallCpu());
  await timed('8', () => measureBundlesAndColdLoads(workDir, env));
  // A stack of its own, in a process of its own, with every function's bundle in a process of its own.
  await timed('9', () => measureFunctionMemory());
} finally {
  await cleanup();
}
console.log(
  `\ntotal ${fixed(elapsed() / 1000, 1)} s (sections: ${sections.join(', ')}), load average ${load()}`,
);
if (soakViolations > 0) console.log(`ramp soak: ${soakViolations} violation(s)`);
process.exit(soakViolations > 0 ? 1 : 0);
