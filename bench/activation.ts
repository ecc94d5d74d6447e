// Wallet activation: how long after POST /v1/wallets answers 201 the wallet's ledger account is open, seen
// through the API (activationStatus 'active') and on the ledger itself (Horizon knows the account).
import { GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { LocalStack } from '../local/stack.ts';
import { awsSettings } from './floor.ts';
import { httpClient, walletCreator, walletReader } from './latency.ts';
import { percentile } from './stats.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `check` every `pollMs` until it is true; the ms from `t0` to the answer that said so. */
async function timeUntil(check: () => Promise<boolean>, t0: number, deadline: number, pollMs: number) {
  for (;;) {
    if (await check()) return performance.now() - t0;
    if (performance.now() > deadline) throw new Error(`not seen within ${Math.round(deadline - t0)} ms`);
    await pause(pollMs);
  }
}

/** A wallet of the seeded tenant whose account is open (for the GET route and its floor). */
export async function activeWallet(stack: LocalStack, accessToken: string, timeoutMs: number) {
  const client = httpClient(1);
  try {
    const created = await walletCreator(stack, client, accessToken)();
    const read = walletReader(stack, client, accessToken);
    const t0 = performance.now();
    await timeUntil(
      async () => (await read(created.id)).activationStatus === 'active',
      t0,
      t0 + timeoutMs,
      50,
    );
    return { walletId: created.id, publicKey: created.publicKey };
  } finally {
    client.close();
  }
}

export interface ActivationTimes {
  /** 201 → GET /v1/wallets/{id} says activationStatus 'active', per wallet, ms. */
  api: number[];
  /** 201 → GET {horizon}/accounts/{publicKey} answers 200, per wallet, ms. */
  ledger: number[];
  failures: number;
  firstFailure?: string | undefined;
  /** True when the section's cap stopped it before `wallets` were timed. */
  capped: boolean;
}

/** Creates `wallets` wallets one at a time and times each one's activation. */
export async function measureActivation(
  stack: LocalStack,
  accessToken: string,
  options: { wallets: number; pollMs: number; perWalletMs: number; capMs: number },
): Promise<ActivationTimes> {
  const client = httpClient(3);
  const create = walletCreator(stack, client, accessToken);
  const read = walletReader(stack, client, accessToken);
  const times: ActivationTimes = { api: [], ledger: [], failures: 0, capped: false };
  const begin = performance.now();
  try {
    for (let i = 0; i < options.wallets; i++) {
      if (performance.now() - begin > options.capMs) {
        times.capped = true;
        break;
      }
      try {
        const created = await create();
        const t0 = performance.now();
        const deadline = t0 + options.perWalletMs;
        const viaApi = async () => {
          const { activationStatus } = await read(created.id);
          if (activationStatus === 'failed') throw new Error(`wallet ${created.id} failed to activate`);
          return activationStatus === 'active';
        };
        const onLedger = async () =>
          (
            await client.send(`${stack.horizonUrl}/accounts/${created.publicKey}`, {
              method: 'GET',
              headers: { accept: 'application/json' },
            })
          ).status === 200;
        const [api, ledger] = await Promise.all([
          timeUntil(viaApi, t0, deadline, options.pollMs),
          timeUntil(onLedger, t0, deadline, options.pollMs),
        ]);
        times.api.push(api);
        times.ledger.push(ledger);
      } catch (error) {
        times.failures++;
        times.firstFailure ??= (error as Error).message;
      }
    }
  } finally {
    client.close();
  }
  return times;
}

export const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    n: sorted.length,
    min: sorted[0] ?? Number.NaN,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    max: sorted.at(-1) ?? Number.NaN,
  };
};

/**
 * Waits until the activation queue is empty (nothing ready, delayed or in flight), so the accounts the
 * POST cases asked for are not being opened while the next case is measured: how many messages were waiting
 * and how long they took to go (NaN when the cap came first).
 */
export async function drainActivations(
  stack: LocalStack,
  capMs: number,
): Promise<{ waiting: number; ms: number }> {
  const QueueUrl = stack.env.QUEUE_URL_WALLET_ACTIVATIONS;
  if (!QueueUrl) throw new Error('QUEUE_URL_WALLET_ACTIVATIONS is not in the stack env');
  const sqs = new SQSClient({
    endpoint: stack.env.AWS_ENDPOINT_URL_SQS as string,
    useQueueUrlAsEndpoint: false,
    ...awsSettings(stack.env),
  });
  const begin = performance.now();
  let first: number | undefined;
  try {
    for (;;) {
      const { Attributes = {} } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl,
          AttributeNames: [
            'ApproximateNumberOfMessages',
            'ApproximateNumberOfMessagesNotVisible',
            'ApproximateNumberOfMessagesDelayed',
          ],
        }),
      );
      const waiting = Object.values(Attributes).reduce((sum, n) => sum + Number(n), 0);
      first ??= waiting;
      if (waiting === 0) return { waiting: first, ms: performance.now() - begin };
      if (performance.now() - begin > capMs) return { waiting: first, ms: Number.NaN };
      await pause(100);
    }
  } finally {
    sqs.destroy();
  }
}
