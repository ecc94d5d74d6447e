// What bench/function-memory.ts puts through every function: the typical requests of each API function, sent
// through the local gateway (each one a payload-2.0 event, local/lambda-event.ts), and the worker, outbox
// router and rotation invocations those requests cause, as they would in AWS: wallet activations, payments on
// the ledger, webhook events fanned out and delivered (a slow receiver's through the slow lane), key
// rotations. One sandbox business tenant of its own; requests one at a time.
import { RotateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { keySecretsOf } from '../local/secrets-seed.ts';
import type { LocalStack } from '../local/stack.ts';
import { httpClient, offRampQuoteRequest, tokenRoute } from './latency.ts';
import { type Api, ownWallet, payOwn, startReceiver, tenantApi, until } from './webhooks.ts';

/** Requests per typical route. */
const REQUESTS = 50;
/** Own wallets created, opened and funded (each also an activation and a funding payment). */
const WALLETS = 10;
const FUND_EACH = 1000;
/** P2P payments among those wallets, each executed on the ledger by the ledger-submitter. */
const PAYMENTS = 40;
/** Beneficiaries, each with a BANK destination that the sandbox then approves (an event each). */
const BENEFICIARIES = 10;
/** Webhook registrations created and deactivated again (a tenant may hold 20 active). */
const REGISTRATIONS = 10;
/** Approvals delivered through the slow lane, to a receiver that answers this much past SLOW_ATTEMPT_MS. */
const SLOW_EVENTS = 8;
const SLOW_MARGIN_MS = 500;
/** `admin ledger status` invocations (each reads the funding account and every channel from the ledger). */
const LEDGER_ADMIN_READS = 10;
/** Waiting for work the requests left to the workers (payments, deliveries), each time. */
const SETTLE_CAP_MS = 60_000;
/** No new delivery for this long: the workers are done. */
const QUIET_MS = 2_000;
/** The most the workload may take (bench/function-memory.ts adds it to its cap). */
export const WORKLOAD_CAP_MS = 4 * SETTLE_CAP_MS + 60_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const times = async (n: number, request: (i: number) => Promise<unknown>) => {
  for (let i = 0; i < n; i++) await request(i);
};

/** A BANK destination of a new beneficiary, approved by the sandbox (payment_destination.approved). */
async function approvedDestination(api: Api, i: number): Promise<void> {
  const beneficiary = await api(
    'POST',
    '/beneficiaries',
    { individual: { firstName: 'Thandi', lastName: `Nkosi ${i}`, mobile: '+27821234567' } },
    201,
  );
  const destination = await api(
    'POST',
    `/beneficiaries/${beneficiary.id}/payment-destinations`,
    {
      method: 'BANK',
      countryIsoCode2: 'ZA',
      currencyIsoCode3: 'ZAR',
      accountNumber: String(123456789 + i),
      bankCode: '250655',
      accountHolderName: `Thandi Nkosi ${i}`,
    },
    201,
  );
  await api('POST', `/sandbox/payment-destinations/${destination.id}/verification`, { decision: 'APPROVED' });
}

/** Drives the workload; the lines that say what it sent. */
export async function driveWorkload(stack: LocalStack): Promise<string[]> {
  // Imported once the stack has set the environment: the module makes its SQS client when loaded.
  const { SLOW_ATTEMPT_MS } = await import('../lib/webhooks/delivery.ts');
  const slowAnswerMs = SLOW_ATTEMPT_MS + SLOW_MARGIN_MS;
  const client = httpClient(1);
  const receiver = await startReceiver(true);
  const slowReceiver = await startReceiver(true, slowAnswerMs);
  const quiet = () => {
    let seen = -1;
    let since = performance.now();
    return () => {
      if (receiver.arrivals.length !== seen) [seen, since] = [receiver.arrivals.length, performance.now()];
      return performance.now() - since > QUIET_MS;
    };
  };
  try {
    const api = await tenantApi(stack, client, 'Bench function memory');
    // Every event of the tenant is delivered: the dispatcher and the deliverer work on every write below.
    await api('POST', '/webhooks', { url: receiver.url, events: ['*'], description: 'bench: all' }, 201);

    await times(REQUESTS, tokenRoute(stack, client));
    await times(REQUESTS, () => api('GET', '/assets'));
    await times(REQUESTS, () => api('GET', '/connectors'));
    const quote = offRampQuoteRequest(100, 'C_2_C');
    await times(REQUESTS, () => api('POST', '/quotes', { ...quote }, 201));
    await times(REQUESTS, () => api('GET', '/no-such-resource', undefined, 404));

    const wallets: string[] = [];
    await times(WALLETS, async () => wallets.push(await ownWallet(api, FUND_EACH)));
    await times(REQUESTS, (i) => api('GET', `/wallets/${wallets[i % WALLETS]}`));
    await times(REQUESTS, () => api('GET', '/wallets'));

    const records: string[] = [];
    await times(PAYMENTS, async (i) => {
      records.push(
        await payOwn(api, wallets[i % WALLETS] as string, wallets[(i + 1) % WALLETS] as string, 1.5),
      );
    });
    // Each payment read until the ledger-submitter has settled it.
    const deadline = performance.now() + SETTLE_CAP_MS;
    for (const id of records) {
      while ((await api('GET', `/transactions/${id}`)).status === 'initiated' && performance.now() < deadline)
        await pause(100);
    }
    await times(REQUESTS, () => api('GET', '/transactions'));

    await times(BENEFICIARIES, (i) => approvedDestination(api, i));
    await times(REQUESTS, () => api('GET', '/beneficiaries'));

    await times(REGISTRATIONS, async (i) => {
      const { id } = await api(
        'POST',
        '/webhooks',
        // One active registration per URL: each its own (the receiver ignores the query).
        { url: `${receiver.url}?bench=${i}`, events: ['payment.completed'], description: `bench ${i}` },
        201,
      );
      await api('DELETE', `/webhooks/${id}`);
    });
    await times(REQUESTS, () => api('GET', '/webhooks'));

    // The slow lane: the first attempt to a receiver that answers late marks its registration slow; the
    // main lane then forwards its next attempts to the slow lane's own worker.
    const slow = await api(
      'POST',
      '/webhooks',
      { url: slowReceiver.url, events: ['payment_destination.approved'], description: 'bench: slow' },
      201,
    );
    await approvedDestination(api, BENEFICIARIES);
    await until(() => slowReceiver.arrivals.length > 0, performance.now() + SETTLE_CAP_MS);
    await pause(slowAnswerMs);
    await times(SLOW_EVENTS, (i) => approvedDestination(api, BENEFICIARIES + 1 + i));
    await until(() => slowReceiver.arrivals.length > SLOW_EVENTS, performance.now() + SETTLE_CAP_MS);
    await api('DELETE', `/webhooks/${slow.id}`);

    // Each key secret rotated once more (the stack's start made their first values the same way).
    const secrets = new SecretsManagerClient({});
    try {
      for (const secretId of keySecretsOf(stack.env.STAGE ?? 'local').rotated)
        await secrets.send(new RotateSecretCommand({ SecretId: secretId }));
    } finally {
      secrets.destroy();
    }

    // The platform team's ledger admin, as `admin ledger status` and `channels open` invoke it: the pool
    // read, then one more channel account made and opened (and the same request again, opening none).
    const { invokeLedgerAdmin } = await import('../lib/admin/ledger-admin.ts');
    await times(LEDGER_ADMIN_READS, () => invokeLedgerAdmin({ action: 'status', environment: 'sandbox' }));
    const pool = Number(stack.env.LEDGER_CHANNELS ?? 16) + 1;
    await times(2, () => invokeLedgerAdmin({ action: 'open-channels', environment: 'sandbox', count: pool }));

    await until(quiet(), performance.now() + SETTLE_CAP_MS);
    return [
      `POST /auth/token, GET /assets, GET /connectors, POST /quotes (off-ramp ${quote.transactionType}), an unmatched`,
      `GET (fallback, 404), GET /wallets/{id} (balances from the ledger), GET /wallets, GET /transactions,`,
      `GET /beneficiaries, GET /webhooks: ${REQUESTS} each. ${WALLETS} own wallets (POST /wallets, polled until`,
      `active, funded through POST /sandbox/wallets/{id}/fund), ${PAYMENTS} P2P payments among them (POST`,
      `/payments/p2p/own, each polled through GET /transactions/{id} until settled), ${BENEFICIARIES + 1 + SLOW_EVENTS}`,
      `beneficiaries with a BANK destination each, approved through the sandbox, ${REGISTRATIONS} webhook registrations`,
      `created and deleted. One registration takes every event of the tenant (${receiver.arrivals.length} delivered);`,
      `another, to a receiver answering after ${slowAnswerMs} ms, takes the approvals: after its first attempt the`,
      `main lane forwards them to the slow lane (${slowReceiver.arrivals.length} delivered). Then each key secret`,
      'is rotated (RotateSecret: the four steps), as the stack start did to make their first values.',
      `The ledger admin function: ${LEDGER_ADMIN_READS} pool reads (ledger status), then one more channel`,
      'account opened (channels open), and the same request again.',
    ];
  } finally {
    client.close();
    await Promise.all([receiver.close(), slowReceiver.close()]);
  }
}
