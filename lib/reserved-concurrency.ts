// Production's reserved Lambda concurrency, by bundle name: read by the stack (infra/stage.ts) and by the
// admin CLI's preflight, which checks the account's quota can hold it before the first deploy. No CDK
// import: the admin CLI reads this too.
import { queues } from './queues.ts';

/**
 * What moves money keeps its invocations when a flood of API requests (or of webhook attempts) takes the
 * rest of the account's concurrency: the ledger submitter and the wallet activator get their queues'
 * maxConcurrency (lib/queues.ts: AWS advises reserving at least that much for an SQS source with a
 * maximum concurrency), the outbox router what the table stream's shards can use, its reconciler one. The fallback function
 * only answers unknown paths: it gets a ceiling, so scanners cannot take concurrency from real routes.
 */
export const PRODUCTION_RESERVED_CONCURRENCY: Readonly<Record<string, number>> = {
  'workers/ledger-submitter': maxConcurrencyOf('ledger-submissions'),
  'workers/wallet-activator': maxConcurrencyOf('wallet-activations'),
  'streams/outbox': 10,
  // One run at a time, and a run even when the API takes the rest (it is what finds lost payments).
  'schedules/reconciler': 1,
  'api/fallback': 5,
  // The API functions that wait on the ledger (Horizon, up to LEDGER_TIMEOUT_MS a request): a slow Horizon
  // holds each invocation for seconds, and without a ceiling they would take the account's whole
  // concurrency and throttle the token route, the other reads and the workers. Each ceiling is far above
  // what a normal day keeps in flight (tens of ms a request); past it only that function's requests are
  // refused (throttled, and alarmed) and the rest of the service keeps going. Ramps are served by
  // api/payments.
  'api/payments': 50,
  'api/wallets': 30,
  'api/statements': 10,
  'api/sandbox': 10,
};

/** Lambda refuses a reservation that would leave the account fewer unreserved invocations than this. */
export const LAMBDA_MINIMUM_UNRESERVED = 100;

/** The account quota production needs: its reservations plus what Lambda keeps unreserved (136 + 100). */
export const productionConcurrencyNeeded = (): number =>
  Object.values(PRODUCTION_RESERVED_CONCURRENCY).reduce((sum, n) => sum + n, 0) + LAMBDA_MINIMUM_UNRESERVED;

function maxConcurrencyOf(queueName: string): number {
  const definition = queues.find((queue) => queue.name === queueName);
  if (!definition) throw new Error(`No queue ${queueName} in lib/queues.ts.`);
  return definition.maxConcurrency;
}
