// `npm run bench`: route latency against its DynamoDB floor, bundle sizes and cold module loads, in one run.
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { config } from '../lib/config.ts';
import { type LocalStack, startStack } from '../lib/local/stack.ts';
import { buildBareMiddy, buildFunctions } from './bundles.ts';
import { coldLoad } from './cold-start.ts';
import { floorOps } from './floor.ts';
import { assetsRoute, httpClient, issueAccessToken, type Op, runLoad, tokenRoute } from './latency.ts';
import { fixed, type Summary, table } from './stats.ts';

// Read by lib/config.ts when the functions load, so it must be set before the stack starts.
const TOKEN_RATE_LIMIT = 1_000_000;
process.env.TOKEN_RATE_LIMIT = String(TOKEN_RATE_LIMIT);

const CASES = [
  { concurrency: 1, requests: 400 },
  { concurrency: 16, requests: 1600 },
];
/** Per measured case (route or floor); a case that hits it reports what it completed. */
const CASE_CAP_MS = 10_000;
/** The whole latency section, from the start of the run; the rest (build, cold loads) takes about 20 s. */
const LATENCY_CAP_MS = 85_000;
/** Past this the run gives up, stops the stack and exits 1. */
const HARD_CAP_MS = 170_000;
const COLD_RUNS = 6;

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
const ratio = (a: number, b: number) => `${fixed(a / b, 2)}x`;
const count = (s: Summary) => `${s.n}${s.capped ? '*' : ''}`;

async function measureLatency(running: LocalStack): Promise<void> {
  const accessToken = await issueAccessToken(running);
  const { TOKEN_RATE_WINDOW_SECONDS: windowSeconds } = config();
  const floor = floorOps(running, { limit: TOKEN_RATE_LIMIT, windowSeconds });
  const rows: string[][] = [];
  const failures: string[] = [];
  const capMs = () => Math.max(0, Math.min(CASE_CAP_MS, LATENCY_CAP_MS - elapsed()));
  try {
    // Loads the handlers (each module once, like a warm Lambda) and warms DynamoDB Local's JIT.
    const warmClient = httpClient(4);
    for (const op of [
      tokenRoute(running, warmClient),
      assetsRoute(running, warmClient, accessToken),
      floor.token,
      floor.assets,
    ]) {
      await runLoad(op, { concurrency: 4, requests: 100, capMs: 3000 });
    }
    warmClient.close();

    for (const { concurrency, requests } of CASES) {
      const client = httpClient(concurrency);
      const endpoints: [string, Op, Op][] = [
        ['POST /v1/auth/token', tokenRoute(running, client), floor.token],
        ['GET /v1/assets', assetsRoute(running, client, accessToken), floor.assets],
      ];
      for (const [name, route, floorOp] of endpoints) {
        const measure = async (op: Op) => {
          await runLoad(op, { concurrency, requests: requests / 8, capMs: Math.min(2000, capMs()) });
          return runLoad(op, { concurrency, requests, capMs: capMs() });
        };
        const r = await measure(route);
        const f = await measure(floorOp);
        rows.push([
          name,
          String(concurrency),
          count(r),
          String(r.failures),
          ms(r.p50),
          ms(r.p99),
          fixed(r.rps, 0),
          count(f),
          String(f.failures),
          ms(f.p50),
          ms(f.p99),
          fixed(f.rps, 0),
          ratio(r.p50, f.p50),
          ratio(r.p99, f.p99),
        ]);
        if (r.firstFailure) failures.push(`${name} c=${concurrency} route: ${r.firstFailure}`);
        if (f.firstFailure) failures.push(`${name} c=${concurrency} floor: ${f.firstFailure}`);
      }
      client.close();
    }
  } finally {
    floor.close();
  }

  console.log(
    '\n== 1+2. Route latency vs its DynamoDB floor (ms; same run, same DynamoDB Local, same concurrency)',
  );
  console.log(
    table(
      [
        'route',
        'c',
        'n',
        'fail',
        'p50',
        'p99',
        'req/s',
        'floor n',
        'fail',
        'floor p50',
        'floor p99',
        'floor req/s',
        'p50 route/floor',
        'p99 route/floor',
      ],
      rows,
    ),
  );
  console.log(
    [
      '',
      `route: real HTTP/1.1 keep-alive on loopback to the local gateway; TOKEN_RATE_LIMIT=${TOKEN_RATE_LIMIT} for this run,`,
      '       so every token request is counted in DynamoDB but none is refused (the 429 path is not measured).',
      'floor: the same DynamoDB calls in the same order, straight from the AWS SDK (document client):',
      '       token = GetItem API key + UpdateItem rate window + GetItem client;',
      '       assets = GetItem API key + GetItem client + Query (Limit 21) on the registry partition.',
      'Latencies are of successful requests; a failure is any non-200 (route) or error (floor).',
      'The load generator, the gateway and the functions share this Node process; DynamoDB Local (Java) runs',
      `beside it on ${availableParallelism()} CPU(s). n marked * was cut short by the ${CASE_CAP_MS / 1000} s per-case cap.`,
    ].join('\n'),
  );
  for (const failure of failures) console.log(`first failure, ${failure}`);
}

async function measureBundlesAndColdLoads(env: Record<string, string>): Promise<void> {
  const { entries, sizes } = await buildFunctions();
  const bare = await buildBareMiddy(workDir);
  console.log('\n== 3. Bundles (esbuild.config.ts buildAll(); minified ESM + source map)');
  console.log(
    table(
      ['bundle', 'KiB', 'map KiB'],
      [...sizes, bare].map((s) => [s.name, fixed(s.kib, 1), fixed(s.mapKib, 1)]),
    ),
  );

  const api = entries.filter((e) => e.name.startsWith('api/')).map((e) => [e.name, e.outFile] as const);
  const modules = [...api, [bare.name, bare.outFile] as const];
  const loads = new Map<string, Awaited<ReturnType<typeof coldLoad>>>();
  for (const [name, file] of modules) {
    loads.set(name, await coldLoad(file, env, { runs: COLD_RUNS, nodeFlags: ['--enable-source-maps'] }));
  }
  const bareMs = loads.get(bare.name)?.medianMs ?? Number.NaN;
  console.log(
    `\n== 4. Cold module load: await import(bundle) in a fresh node, median of ${COLD_RUNS} runs (ms)`,
  );
  console.log(
    table(
      ['module', 'median', 'min', 'max', 'vs bare middy'],
      modules.map(([name]) => {
        const load = loads.get(name);
        return [
          name,
          ms(load?.medianMs ?? Number.NaN),
          ms(load?.minMs ?? Number.NaN),
          ms(load?.maxMs ?? Number.NaN),
          ratio(load?.medianMs ?? Number.NaN, bareMs),
        ];
      }),
    ),
  );
  console.log(
    [
      '',
      'node --enable-source-maps, after one discarded run; bare middy = middy().handler(async () => ({ statusCode: 200 }))',
      'bundled with the same esbuild options. Environment: the stack env (TABLE_NAME etc.), DynamoDB Local stopped.',
    ].join('\n'),
  );
}

const load = () =>
  loadavg()
    .map((l) => fixed(l, 2))
    .join(' ');
console.log(
  `payments-gateway bench: node ${process.version}, ${availableParallelism()} CPU(s), load average ${load()}`,
);
try {
  stack = await startStack({
    port: 0,
    dataDir: workDir,
    dynamoDbDir: join(root, '.local', 'dynamodb'),
  });
  console.log(`stack up in ${fixed(elapsed() / 1000, 1)} s at ${stack.baseUrl}`);
  const env = { ...stack.env };
  await measureLatency(stack);
  // Stopped before the cold loads, so DynamoDB Local's JVM does not compete with them.
  const running = stack;
  stack = undefined;
  await running.stop();
  await measureBundlesAndColdLoads(env);
} finally {
  await cleanup();
}
console.log(`\ntotal ${fixed(elapsed() / 1000, 1)} s, load average ${load()}`);
process.exit(0);
