// How much memory each function is given (MB, as Lambda counts it), by bundle name, and the rule that
// chose it from measurement. infra/stack.ts takes every function's memory from here; a bundle with no
// entry fails the synth. The figures are `npm run bench` section 9 (bench/function-memory.ts): each bundle
// run as Lambda runs it (Node 24, --enable-source-maps, a process of its own) under a typical workload.

/**
 * What the Lambda runtime holds beside the function's Node process, MB: the REPORT line's "Max Memory
 * Used" counts it, the process's own RSS does not. One published pair shows the gap: a Node function that
 * logged 47 MB RSS was reported at 81 MB (awsdocs/aws-lambda-developer-guide#202); we allow 60.
 */
export const RUNTIME_OVERHEAD_MB = 60;
/**
 * Over (peak RSS + runtime): pages, bodies and batches larger than the bench's (the router's 25 records,
 * the dispatcher's 10 events side by side), and room for the heap to grow before a collection.
 */
export const MEMORY_HEADROOM = 1.5;
/**
 * "At 1,769 MB, a function has the equivalent of one vCPU" (docs.aws.amazon.com/lambda/latest/dg/
 * configuration-memory.html); below it, a share in proportion: an invocation's CPU time stretches by
 * ONE_VCPU_MB / memory.
 */
export const ONE_VCPU_MB = 1769;
/**
 * The CPU time a typical (p50) invocation may take in Lambda, once stretched. A client waits on every API
 * request; workers, the outbox router and the rotation work asynchronously, behind a queue, a stream or a
 * ledger close (5 s), so their budget is larger. The bench's CPU is a Zen 5 core's, faster than Lambda's
 * Graviton: in Lambda the same work takes longer, which the rounding up only partly absorbs.
 */
export const CPU_BUDGET_MS = { api: 20, async: 100 } as const;
/** Lambda takes any whole MB from 128; 64 MB steps keep the table readable. */
const STEP_MB = 64;
const LAMBDA_MIN_MB = 128;

/** What bench/function-memory.ts measures of a bundle. */
export interface Measured {
  /** The process's peak RSS over the workload, MiB. */
  peakRssMb: number;
  /** CPU time of a warm invocation, p50, ms. */
  cpuP50Ms: number;
}

/** The memory the rule gives a bundle with these figures: enough to hold it, and CPU enough for its budget. */
export function memoryRule(bundleName: string, { peakRssMb, cpuP50Ms }: Measured): number {
  const toHold = (peakRssMb + RUNTIME_OVERHEAD_MB) * MEMORY_HEADROOM;
  const budget = bundleName.startsWith('api/') ? CPU_BUDGET_MS.api : CPU_BUDGET_MS.async;
  const forCpu = (ONE_VCPU_MB * cpuP50Ms) / budget;
  return Math.max(LAMBDA_MIN_MB, Math.ceil(Math.max(toHold, forCpu) / STEP_MB) * STEP_MB);
}

/**
 * Keyed by bundle name, as esbuild.config.ts names them: memoryRule of each bundle's figures over seven
 * runs of section 9 (2 cores shared with other work, load average 1.5-2.1): the highest peak RSS (MiB) and
 * the median CPU p50 (ms), beside each. CPU time there swings by up to a third either side of its median
 * from run to run, so one run's rule moves a function by a few steps; the median holds still. Only api/fallback and the
 * functions that route, fan out, deliver or rotate are sized by what they hold (the first term of the
 * rule); every other one by its CPU (the second), which asks for three to seven times what its memory
 * alone would.
 */
export const functionMemory: Readonly<Record<string, number>> = {
  // What they hold decides: (peak + 60) x 1.5.
  'api/fallback': 192, // peak 61.2, p50 0.2: the route table only, no SDK, no keys
  'streams/outbox': 256, // peak 91.2, p50 2.9
  // Not measured yet (section 9 has no workload for it): sized as the router, its nearest kin (queries,
  // the same rows, SQS sends).
  'schedules/reconciler': 256,
  // Not measured yet: a few ledger reads and at most one payment per settlement account a run, signed
  // (ed25519 in JavaScript) as the sandbox helpers' are: sized as the reconciler.
  'schedules/sandbox-reserves': 256,
  'rotation/keys': 256, // peak 82.5, p50 5.5; a few invocations a rotation, with a 20 s timeout
  'workers/webhook-dispatcher': 256, // peak 97.1, p50 6.5
  'workers/webhook-deliverer': 256, // peak 95.5, p50 9.8 (an HMAC signature and a POST)
  // Not measured yet: sized as the deliverer, their nearest kin (a few reads and writes, one send).
  'workers/payment-notifier': 256,
  'events/ses-feedback': 256,
  // Asynchronous, 100 ms budget: CPU decides.
  // The deliverer's code (lib/webhooks/delivery.ts) but few invocations (7 a run): its p50 is JIT-cold.
  'workers/webhook-slow-deliverer': 384, // peak 84.8, p50 19.8
  // ed25519 signatures in JavaScript (@stellar/stellar-sdk: the wallet's, the channel account's, the funding
  // account's fee bump) and XDR.
  'workers/ledger-submitter': 896, // peak 143.4, p50 49.6
  'workers/wallet-activator': 1024, // peak 130.3, p50 54.4
  // Run by hand, a few times a stage's life: keys sealed, the pool read from the ledger, accounts opened.
  'admin/ledger-accounts': 448, // peak 127.5, p50 23.5 (one run: 12 invocations)
  // A client waits, 20 ms budget: CPU decides. Middy, zod, the token's ES256 check (its signature, in
  // auth) and the SDK's marshalling and request signing are most of it; the Stellar SDK in the sandbox.
  'api/assets': 704, // peak 86.7, p50 7.3
  'api/auth': 768, // peak 87.1, p50 8.2
  'api/webhooks': 768, // peak 90.7, p50 8.5 (AES-GCM seals each new signing secret)
  // Not measured yet (section 9 has no workload for it): sized as api/webhooks, its nearest kin (an
  // AES-GCM open of the connector's secret, an HMAC check, a conditional update).
  'api/providers': 768,
  // Not measured yet: sized as api/providers (a secret opened, a signed call to the provider, a write).
  'api/customers': 768,
  'api/onramp': 768,
  // Not measured yet: the business portal's sign-in (an ES256 signature per token, a code's hash, an
  // email) and its team routes (paged reads, a conditional write), sized as api/auth.
  'api/portal': 768,
  'api/beneficiaries': 832, // peak 100.2, p50 9.0
  'api/transactions': 832, // peak 96.8, p50 8.9
  // Not measured yet: sized as api/transactions, its nearest kin (paged reads, plus Horizon's JSON).
  'api/statements': 832,
  'api/wallets': 896, // peak 148.9, p50 9.8 (AES-GCM seals each new key; balances from Horizon)
  'api/connectors': 1024, // peak 96.6, p50 11.3 (catalogue records: nested maps of several KB)
  'api/sandbox': 1216, // peak 133.2, p50 13.3
  'api/quotes': 1344, // peak 94.1, p50 14.5
  'api/payments': 1664, // peak 93.8, p50 18.1
};

export function memoryOf(bundleName: string, declared: Readonly<Record<string, number>>): number {
  const memory = declared[bundleName];
  if (memory === undefined)
    throw new Error(`No memory declared for ${bundleName} in infra/function-memory.ts.`);
  return memory;
}
