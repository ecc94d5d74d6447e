// Issue #11 §5: webhook delivery, end to end through the local stack (the table's stream, the outbox
// router, the webhook-events dispatcher, the webhook-deliveries worker) to receivers on loopback in this
// process, each arrival timed on the receiver's side.
//   (a) Event latency: the 202 of POST /v1/payments/p2p/own (the record is written before it answers) →
//       its payment.initiated event arriving at a receiver; payments sent open loop at a fixed rate.
//   (b) Fan-out: sandbox payment destination decisions (payment_destination.approved, no ledger work) of
//       one tenant to 20 registrations, twice: all 20 answering at once, then 19 and one that never
//       answers (each attempt to it waits out the deliverer's 10 s timeout). What matters is whether the
//       19 healthy ones still get theirs as fast: deliveries a second and healthy latency in both runs.
//
//   (c) Fairness: one tenant's delivery latency alone, then beside a hostile tenant whose 20 receivers
//       answer in 1.9 s (just under the slow mark), with the p99 ratio: the tenant's share of a lane
//       (lib/webhooks/tenant-share.ts) is what keeps it near 1.
//
// A section of `npm run bench` (bench/run.ts); run alone with `node scripts/toolchain.mjs node
// bench/webhooks.ts` (it starts a stack of its own), only (b) with `... bench/webhooks.ts fanout`, or
// only (c) with `... bench/webhooks.ts fairness`.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import type { LocalStack } from '../local/stack.ts';
import { isMain, runAlone } from './alone.ts';
import { type HttpClient, httpClient } from './latency.ts';
import { fixed, minMedianMax, percentile, table } from './stats.ts';

/** (a): payments sent, one every LATENCY_INTERVAL_MS, after LATENCY_WARMUP not counted. */
const LATENCY_EVENTS = 100;
const LATENCY_INTERVAL_MS = 100;
const LATENCY_WARMUP = 3;
/**
 * (b): events per run, to this many registrations, decisions sent this many at a time. 200 deliveries of one
 * tenant: far past its share of the lane (5 at once), so its attempts are deferred as a real fan-out's are,
 * and few enough that every run ends inside FANOUT_CAP_MS, so p99 is a measure and not the cap.
 */
const FANOUT_EVENTS = 10;
const REGISTRATIONS = 20;
const DECISION_CONCURRENCY = 4;
/** (b): runs of each kind, taken in turns (all answering, one silent, ...) so the machine's load falls on both. */
const FANOUT_RUNS = 3;
/** (c): tenant A's events, one every FAIR_INTERVAL_MS; hostile tenant B's, and how long its receivers take. */
const FAIR_EVENTS = 30;
const FAIR_INTERVAL_MS = 200;
const HOSTILE_EVENTS = 30;
const HOSTILE_ANSWER_MS = 1900;
/** Waiting for arrivals, per part (a) and (c), from its first request. */
const PART_CAP_MS = 25_000;
/**
 * Per run of (b): a tenant past its share for over a second has its attempts deferred 10-30 s
 * (lib/webhooks/delivery.ts), so its last deliveries come that long after its first.
 */
const FANOUT_CAP_MS = 60_000;
/** The most the whole section can take, set-up included (bench/run.ts adds it to its hard cap). */
export const WEBHOOK_SECTION_CAP_MS = 720_000;
/** The deliverer's attempt timeout (lib/webhooks/delivery.ts), for the notes. */
const ATTEMPT_TIMEOUT_S = 10;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

// ---------------------------------------------------------------------------------------------
// Receivers

interface Arrival {
  /** The request path: which registration it was sent for. */
  path: string;
  /** performance.now() when the body had arrived. */
  at: number;
  type: string;
  /** The event's data (the resource). */
  data: Record<string, unknown>;
}

export interface Receiver {
  url: string;
  arrivals: Arrival[];
  /** Requests received (a receiver that never answers counts them; it parses nothing). */
  requests: number;
  close(): Promise<void>;
}

/**
 * A loopback receiver that answers 204 (after `delayMs`: a slow receiver), or never (it holds every request
 * open until closed).
 */
export async function startReceiver(answers: boolean, delayMs = 0): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const receiver: Receiver = { url: '', arrivals: [], requests: 0, close: async () => {} };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.now();
      receiver.requests += 1;
      if (!answers) return;
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      receiver.arrivals.push({ path: req.url ?? '/', at, type: event.type, data: event.data });
      const answer = () => res.writeHead(204).end();
      // At once when there is no delay: a timer would add its own wait to part (a)'s latencies.
      if (delayMs > 0) setTimeout(answer, delayMs);
      else answer();
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      // Attempts held open fail at once (the worker frees its slot) instead of waiting out their timeout.
      for (const socket of sockets) socket.destroy();
    });
  return receiver;
}

// ---------------------------------------------------------------------------------------------
// The API, as a new sandbox tenant of its own for each part (at most 20 active registrations a tenant)

type Body = Record<string, unknown>;

export async function tenantApi(stack: LocalStack, client: HttpClient, name: string) {
  // Imported once the stack has set the environment: the admin modules read it when loaded.
  const { createTenant } = await import('../lib/admin/tenants.ts');
  const tenant = await createTenant({ name, environment: 'sandbox', kind: 'business' });
  let token = '';
  const call = async (method: string, path: string, body?: Body, expected = 200, extra = {}) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = { 'x-service-auth': tenant.apiKey, ...extra };
    if (token) headers.authorization = `Bearer ${token}`;
    if (text !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(text));
    }
    const answer = await client.send(`${stack.baseUrl}${path}`, { method, headers, body: text });
    if (answer.status !== expected)
      throw new Error(`${method} ${path}: HTTP ${answer.status} ${answer.body.slice(0, 300)}`);
    return (answer.body ? JSON.parse(answer.body) : {}) as Body;
  };
  const issued = await call('POST', '/auth/token', {
    clientId: tenant.clientId,
    clientSecret: tenant.clientSecret,
  });
  token = issued.accessToken as string;
  return call;
}

export type Api = Awaited<ReturnType<typeof tenantApi>>;

/** An own USDC wallet, open on the ledger, funded with `amount` when given. */
export async function ownWallet(api: Api, amount?: number): Promise<string> {
  const { id } = await api(
    'POST',
    '/wallets',
    { walletName: 'Bench', assetCode: 'USDC', ownAccount: true },
    201,
  );
  const deadline = performance.now() + 15_000;
  while ((await api('GET', `/wallets/${id}`)).activationStatus !== 'active') {
    if (performance.now() > deadline) throw new Error(`wallet ${id} did not activate within 15 s`);
    await pause(50);
  }
  if (amount !== undefined)
    await api('POST', `/sandbox/wallets/${id}/fund`, { assetCode: 'USDC', amount }, 200, {
      'idempotency-key': randomUUID(),
    });
  return id as string;
}

/** An own P2P payment of `amount` USDC from one of the tenant's wallets to another, accepted: its record id. */
export async function payOwn(api: Api, from: string, to: string, amount: number): Promise<string> {
  const accepted = await api(
    'POST',
    '/payments/p2p/own',
    {
      transactionId: randomUUID(),
      walletId: from,
      destinationWalletId: to,
      sendingAssetCode: 'USDC',
      amount,
    },
    202,
  );
  return accepted.transactionRecordId as string;
}

/** Runs `work(i)` for i < n, `concurrency` at a time. */
async function inParallel(n: number, concurrency: number, work: (i: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

/** Waits until `done()` or the deadline; true when done. */
export async function until(done: () => boolean, deadline: number): Promise<boolean> {
  while (!done()) {
    if (performance.now() > deadline) return false;
    await pause(20);
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// (a) Event latency

interface LatencyFigures {
  latencies: number[];
  sent: number;
  failures: number;
  firstFailure?: string;
}

async function measureEventLatency(stack: LocalStack, client: HttpClient): Promise<LatencyFigures> {
  const api = await tenantApi(stack, client, 'Bench webhooks latency');
  const [from, to] = await Promise.all([ownWallet(api, 1000), ownWallet(api)]);
  const receiver = await startReceiver(true);
  const { id: webhookId } = await api(
    'POST',
    '/webhooks',
    { url: receiver.url, events: ['payment.initiated'], description: 'bench' },
    201,
  );
  const answered = new Map<string, number>();
  const figures: LatencyFigures = { latencies: [], sent: 0, failures: 0 };
  const pay = async () => {
    answered.set(await payOwn(api, from, to, 1), performance.now());
  };
  const arrivalOf = (recordId: string) =>
    receiver.arrivals.find((a) => a.data.transactionRecordId === recordId)?.at;
  try {
    // Loads the payments, dispatcher and deliverer code paths (and the webhook's sealed secret) once.
    for (let i = 0; i < LATENCY_WARMUP; i++) await pay();
    await until(() => receiver.arrivals.length >= LATENCY_WARMUP, performance.now() + 10_000);
    answered.clear();
    receiver.arrivals.length = 0;

    const begin = performance.now();
    const sends: Promise<void>[] = [];
    for (let i = 0; i < LATENCY_EVENTS && performance.now() - begin < PART_CAP_MS; i++) {
      await pause(begin + i * LATENCY_INTERVAL_MS - performance.now());
      figures.sent += 1;
      sends.push(
        pay().catch((error: Error) => {
          figures.failures += 1;
          figures.firstFailure ??= error.message;
        }),
      );
    }
    await Promise.all(sends);
    await until(() => [...answered.keys()].every((id) => arrivalOf(id) !== undefined), begin + PART_CAP_MS);
    for (const [recordId, t0] of answered) {
      const at = arrivalOf(recordId);
      if (at !== undefined) figures.latencies.push(at - t0);
    }
    return figures;
  } finally {
    await api('DELETE', `/webhooks/${webhookId}`);
    await receiver.close();
  }
}

/** `count` BANK destinations of a new beneficiary, their verification not decided yet. */
async function pendingDestinations(api: Api, count: number): Promise<string[]> {
  const { id: beneficiaryId } = await api(
    'POST',
    '/beneficiaries',
    { individual: { firstName: 'Thandi', lastName: 'Nkosi', mobile: '+27821234567' } },
    201,
  );
  const destinations: string[] = [];
  await inParallel(count, DECISION_CONCURRENCY, async (i) => {
    const { id } = await api(
      'POST',
      `/beneficiaries/${beneficiaryId}/payment-destinations`,
      {
        method: 'BANK',
        countryIsoCode2: 'ZA',
        currencyIsoCode3: 'ZAR',
        accountNumber: String(100_000_000 + i),
        bankCode: '250655',
        accountHolderName: 'Thandi Nkosi',
      },
      201,
    );
    destinations.push(id as string);
  });
  return destinations;
}

/** Decides `destination` APPROVED in the sandbox (its payment_destination.approved event follows). */
const approve = (api: Api, destination: string) =>
  api('POST', `/sandbox/payment-destinations/${destination}/verification`, { decision: 'APPROVED' });

// ---------------------------------------------------------------------------------------------
// (b) Fan-out to 20 registrations, one of them never answering

interface FanoutFigures {
  label: string;
  /** The machine's 1-minute load average when the run began. */
  load: number;
  healthy: number;
  events: number;
  /** Healthy deliveries that arrived within the cap. */
  delivered: number;
  /** First decision sent → last healthy arrival, ms. */
  wallMs: number;
  /** Decision's 200 → arrival, every healthy delivery. */
  latencies: number[];
  /** Decision's 200 → the last of its healthy deliveries, per event that got them all. */
  fannedOut: number[];
  /** Requests the never-answering receiver got during the run. */
  slowRequests: number | null;
}

async function measureFanout(
  stack: LocalStack,
  client: HttpClient,
  withSlow: boolean,
): Promise<FanoutFigures> {
  const label = withSlow ? '19 answer + 1 never answers' : '20 answer at once';
  const load = loadavg()[0] ?? Number.NaN;
  const api = await tenantApi(stack, client, `Bench webhooks fan-out ${withSlow ? 'slow' : 'healthy'}`);
  const destinations = await pendingDestinations(api, FANOUT_EVENTS);

  const healthy = await startReceiver(true);
  const slow = withSlow ? await startReceiver(false) : undefined;
  const healthyCount = withSlow ? REGISTRATIONS - 1 : REGISTRATIONS;
  const webhookIds: string[] = [];
  for (let i = 0; i < REGISTRATIONS; i++) {
    const url = i < healthyCount ? `${healthy.url}r${i}` : (slow as Receiver).url;
    const { id } = await api(
      'POST',
      '/webhooks',
      { url, events: ['payment_destination.approved'], description: `bench ${i}` },
      201,
    );
    webhookIds.push(id as string);
  }

  const decided = new Map<string, number>();
  try {
    const begin = performance.now();
    await inParallel(destinations.length, DECISION_CONCURRENCY, async (i) => {
      const id = destinations[i] as string;
      await approve(api, id);
      decided.set(id, performance.now());
    });
    const expected = destinations.length * healthyCount;
    await until(() => healthy.arrivals.length >= expected, begin + FANOUT_CAP_MS);
    const arrivals = [...healthy.arrivals];
    const byEvent = new Map<string, number[]>();
    const latencies: number[] = [];
    for (const arrival of arrivals) {
      const t0 = decided.get(arrival.data.id as string);
      if (t0 === undefined) continue;
      latencies.push(arrival.at - t0);
      byEvent.set(arrival.data.id as string, [...(byEvent.get(arrival.data.id as string) ?? []), arrival.at]);
    }
    const fannedOut = [...byEvent]
      .filter(([, times]) => times.length >= healthyCount)
      .map(([id, times]) => Math.max(...times) - (decided.get(id) as number));
    return {
      label,
      load,
      healthy: healthyCount,
      events: destinations.length,
      delivered: arrivals.length,
      wallMs: Math.max(...arrivals.map((a) => a.at)) - begin,
      latencies,
      fannedOut,
      slowRequests: slow ? slow.requests : null,
    };
  } finally {
    // Deactivated: retries due later are cancelled without an attempt.
    await inParallel(webhookIds.length, DECISION_CONCURRENCY, async (i) => {
      await api('DELETE', `/webhooks/${webhookIds[i]}`);
    });
    await Promise.all([healthy.close(), slow?.close()]);
  }
}

/** FANOUT_RUNS of each run of (b), in turns; each run's row, then min-median-max of each kind and their ratio. */
export async function fanoutLines(stack: LocalStack, client: HttpClient): Promise<string[]> {
  const runs: FanoutFigures[] = [];
  for (let i = 0; i < FANOUT_RUNS; i++)
    runs.push(await measureFanout(stack, client, false), await measureFanout(stack, client, true));
  const rate = (r: FanoutFigures) => r.delivered / (r.wallMs / 1000);
  const p99 = (r: FanoutFigures) => percentile(sortedOf(r.latencies), 99);
  const kinds = [false, true].map((withSlow) => runs.filter((r) => (r.slowRequests !== null) === withSlow));
  const medianOf = (values: number[]) => percentile(sortedOf(values), 50);
  const [healthy, silent] = kinds as [FanoutFigures[], FanoutFigures[]];
  return [
    `(b) fan-out: ${FANOUT_EVENTS} payment_destination.approved events (sandbox decisions, ${DECISION_CONCURRENCY} at a time) to ${REGISTRATIONS} registrations of one tenant, ${FANOUT_RUNS} runs of each in turns`,
    table(
      [
        'registrations',
        'load',
        'healthy delivered',
        'wall s',
        'deliveries/s',
        'p50',
        'p99',
        'max',
        'event fanned out p50',
        'p99',
        'never-answering: requests',
      ],
      runs.map((r) => {
        const s = sortedOf(r.latencies);
        const f = sortedOf(r.fannedOut);
        return [
          r.label,
          fixed(r.load, 2),
          `${r.delivered}/${r.events * r.healthy}`,
          fixed(r.wallMs / 1000, 2),
          fixed(rate(r), 1),
          ms(percentile(s, 50)),
          ms(percentile(s, 99)),
          ms(s.at(-1) ?? Number.NaN),
          ms(percentile(f, 50)),
          ms(percentile(f, 99)),
          r.slowRequests === null ? '-' : String(r.slowRequests),
        ];
      }),
    ),
    table(
      ['min / median / max', 'load', 'deliveries/s', 'p99 ms'],
      kinds.map((k) => [
        (k[0] as FanoutFigures).label,
        minMedianMax(
          k.map((r) => r.load),
          2,
        ),
        minMedianMax(k.map(rate), 1),
        minMedianMax(k.map(p99), 0),
      ]),
    ),
    `One never answering against all answering (medians): deliveries/s x${fixed(medianOf(silent.map(rate)) / medianOf(healthy.map(rate)), 2)}, p99 x${fixed(medianOf(silent.map(p99)) / medianOf(healthy.map(p99)), 2)} (goal: within 1.2x).`,
    `(b) latency: a decision's 200 -> each healthy delivery of its event; "fanned out": -> the last of its`,
    `    ${REGISTRATIONS} (or 19) healthy deliveries; wall: first decision sent -> last healthy delivery; deliveries/s`,
    `    = healthy deliveries / wall. The never-answering receiver holds each request open, so every attempt to it`,
    `    waits out the deliverer's ${ATTEMPT_TIMEOUT_S} s timeout (then a retry ~5 s later, WEBHOOK_RETRY_SCALE=1); an`,
    "    attempt unanswered after 2 s marks it slow and gives its tenant's main-lane slot back; its next attempts go to the slow lane.",
    `    Load: the 1-minute load average when each run began (${availableParallelism()} cores).`,
    `    Each run waits at most ${FANOUT_CAP_MS / 1000} s for its deliveries; then its registrations are deactivated.`,
  ];
}

// ---------------------------------------------------------------------------------------------
// (c) Fairness: a quiet tenant's deliveries, alone and beside a hostile one

/**
 * Tenant A's events (one registration, a prompt receiver), one every FAIR_INTERVAL_MS; with `hostile`,
 * tenant B has first sent HOSTILE_EVENTS events to its 20 registrations, each receiver answering in
 * 1.9 s (just under the 2 s slow mark): 20 x HOSTILE_EVENTS attempts of 1.9 s queued in the main lane.
 * A's latencies: its decision's 200 -> the event at its receiver.
 */
async function measureQuietTenant(
  stack: LocalStack,
  client: HttpClient,
  hostile: boolean,
): Promise<number[]> {
  const a = await tenantApi(stack, client, `Bench webhooks fairness A ${hostile ? 'beside B' : 'alone'}`);
  const quiet = await startReceiver(true);
  const loud = await startReceiver(true, HOSTILE_ANSWER_MS);
  const aDestinations = await pendingDestinations(a, FAIR_EVENTS);
  const { id: aHook } = await a(
    'POST',
    '/webhooks',
    { url: quiet.url, events: ['payment_destination.approved'] },
    201,
  );
  const b = hostile ? await tenantApi(stack, client, 'Bench webhooks fairness B (hostile)') : undefined;
  const bHooks: string[] = [];
  try {
    if (b) {
      const bDestinations = await pendingDestinations(b, HOSTILE_EVENTS);
      for (let i = 0; i < REGISTRATIONS; i++) {
        const { id } = await b(
          'POST',
          '/webhooks',
          { url: `${loud.url}r${i}`, events: ['payment_destination.approved'] },
          201,
        );
        bHooks.push(id as string);
      }
      await inParallel(bDestinations.length, DECISION_CONCURRENCY, async (i) => {
        await approve(b, bDestinations[i] as string);
      });
      // B's attempts hold the lane before A's first event.
      await until(() => loud.requests >= REGISTRATIONS, performance.now() + PART_CAP_MS);
    }
    const decided = new Map<string, number>();
    const begin = performance.now();
    for (const [i, id] of aDestinations.entries()) {
      await pause(begin + i * FAIR_INTERVAL_MS - performance.now());
      await approve(a, id);
      decided.set(id, performance.now());
    }
    await until(() => quiet.arrivals.length >= aDestinations.length, begin + PART_CAP_MS);
    return quiet.arrivals.map(
      (arrival) => arrival.at - (decided.get(arrival.data.id as string) ?? Number.NaN),
    );
  } finally {
    await a('DELETE', `/webhooks/${aHook}`);
    // Deactivated: B's attempts still queued are cancelled without a POST.
    if (b) for (const id of bHooks) await b('DELETE', `/webhooks/${id}`);
    await Promise.all([quiet.close(), loud.close()]);
  }
}

/** (c) alone, then (c) beside the hostile tenant, and the lines that report them. */
export async function measureFairness(stack: LocalStack, client: HttpClient): Promise<string[]> {
  const alone = sortedOf(await measureQuietTenant(stack, client, false));
  const beside = sortedOf(await measureQuietTenant(stack, client, true));
  const row = (label: string, l: number[]) => [
    label,
    `${l.length}/${FAIR_EVENTS}`,
    ms(percentile(l, 50)),
    ms(percentile(l, 99)),
    ms(l.at(-1) ?? Number.NaN),
  ];
  return [
    `\n== 3c. Webhooks (bench/webhooks.ts): a quiet tenant's delivery latency, alone and beside a hostile tenant (ms)`,
    `Tenant A: ${FAIR_EVENTS} payment_destination.approved events, one every ${FAIR_INTERVAL_MS} ms, to 1 prompt receiver. Tenant B: ${HOSTILE_EVENTS} events`,
    `to ${REGISTRATIONS} registrations whose receivers answer in ${HOSTILE_ANSWER_MS / 1000} s (under the 2 s slow mark), sent first.`,
    table(['tenant A', 'n', 'p50', 'p99', 'max'], [row('alone', alone), row('beside hostile B', beside)]),
    `p99 beside B / p99 alone: ${fixed(percentile(beside, 99) / percentile(alone, 99), 2)} (B holds at most its share of the main lane, lib/webhooks/tenant-share.ts)`,
  ];
}

// ---------------------------------------------------------------------------------------------

const ms = (value: number) => fixed(value, 1);
const sortedOf = (values: number[]) => [...values].sort((a, b) => a - b);

/** The section: (a) then (b), each against a new tenant of the running stack, then its figures. */
export async function measureWebhooks(stack: LocalStack): Promise<void> {
  const client = httpClient(DECISION_CONCURRENCY + 4);
  const lines: string[] = [];
  const begin = performance.now();
  try {
    const a = await measureEventLatency(stack, client);
    const l = sortedOf(a.latencies);
    lines.push(
      `\n== 3b. Webhooks (bench/webhooks.ts): event latency and fan-out to loopback receivers (ms, timed on arrival)`,
      `(a) payment.initiated: 202 of POST /v1/payments/p2p/own -> the event at the receiver (${a.sent} payments, one every ${LATENCY_INTERVAL_MS} ms, 1 registration)`,
      table(
        ['event', 'n', 'min', 'p50', 'p99', 'max'],
        [
          [
            'payment.initiated',
            `${l.length}/${a.sent}`,
            ms(l[0] ?? Number.NaN),
            ms(percentile(l, 50)),
            ms(percentile(l, 99)),
            ms(l.at(-1) ?? Number.NaN),
          ],
        ],
      ),
      '',
      ...(await fanoutLines(stack, client)),
      '',
      'Timed with performance.now() in this process, which runs the gateway, the functions and the receivers:',
      '(a) from the moment the 202 arrived (the record is written before the route answers, so this leaves out a',
      '    millisecond or so) to the receiver having the body. The path: the table stream (polled every 150 ms)',
      '    -> outbox router -> webhook-events -> dispatcher (writes one delivery per registration) -> the stream',
      '    again -> router -> webhook-deliveries -> deliverer (reads the delivery and the registration, opens the',
      '    secret, signs, POSTs). Each payment also goes to the ledger (payment.completed is made too; no one is',
      '    subscribed to it here).',
    );
    if (a.firstFailure) lines.push(`(a) failures ${a.failures}, first: ${a.firstFailure}`);
    lines.push(...(await measureFairness(stack, client)));
    lines.push(`The section took ${fixed((performance.now() - begin) / 1000, 1)} s, set-up included.`);
  } finally {
    client.close();
  }
  console.log(lines.join('\n'));
}

if (isMain(import.meta.url)) {
  // `fairness`: part (c) alone.
  const measure =
    process.argv[2] === 'fairness' || process.argv[2] === 'fanout'
      ? async (stack: LocalStack) => {
          const client = httpClient(DECISION_CONCURRENCY + 4);
          const part = process.argv[2] === 'fairness' ? measureFairness : fanoutLines;
          console.log((await part(stack, client)).join('\n'));
          client.close();
        }
      : measureWebhooks;
  await runAlone('webhooks', WEBHOOK_SECTION_CAP_MS, measure);
}
