// `npm run webhooks:listen` as a tester runs it: the script in a process of its own against the test stack,
// with a credentials file as `npm start` writes it for the seeded sandbox tenant. A P2P payment of that
// tenant prints its payment.initiated and payment.completed events, both signatures verified; a delivery
// that is not signed right, names another webhook id (a forgery keyed on it) or is too old is answered
// 400; SIGINT deactivates the registration and exits 0. Every transition of the tenant's off-ramps and
// on-ramps reaches it too: completed, failed after the ledger leg and refunded, collected.
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { NewTenant } from '../../lib/admin/tenants.ts';
import { freePort } from '../../local/ports.ts';
import { as, baseUrl, type Caller, tokenFor } from '../support/api.ts';
import {
  bankDestination,
  beneficiaryAddress,
  compliantIndividual,
  keMobileMoney,
  ONRAMP_CONNECTOR_ID,
  RAMP_CONNECTOR_ID,
} from '../support/fixtures.ts';
import { accepted, offrampBody, ownWallet, recordWhen, settled, submit } from '../support/payments.ts';

const run = promisify(execFile);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The listener's process and everything it has printed so far. */
interface Listener {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startListener(credentials: string): Listener {
  const child = spawn(process.execPath, ['scripts/webhooks-listen.ts', '--credentials', credentials], {
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    printed += chunk.toString('utf8');
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => printed, exited };
}

/** Waits until the listener's output matches `pattern`; the match. */
async function printed(listener: Listener, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const match = pattern.exec(listener.output());
    if (match) return match;
    assert.ok(Date.now() < deadline, `not printed in time: ${pattern}\n--- output ---\n${listener.output()}`);
    await pause(50);
  }
}

describe('npm run webhooks:listen', () => {
  let seeded: Caller;
  let credentials: string;
  let listener: Listener | undefined;

  beforeAll(async () => {
    // The members `npm start` writes to .local/credentials.json, for the test stack.
    const tenant = JSON.parse(process.env.TEST_SEEDED_TENANT ?? '{}') as NewTenant;
    credentials = join(mkdtempSync(join(tmpdir(), 'webhooks-listen-')), 'credentials.json');
    writeFileSync(credentials, JSON.stringify({ ...tenant, baseUrl: baseUrl() }));
    seeded = { tenant, token: await tokenFor(tenant) };
  });

  afterAll(() => {
    if (listener?.child.exitCode === null) listener.child.kill('SIGKILL');
  });

  it('prints a P2P payment’s events with both signatures verified, and deactivates on SIGINT', async () => {
    const [a, b] = await Promise.all([ownWallet(seeded, 'USDC', 10), ownWallet(seeded, 'USDC')]);
    listener = startListener(credentials);
    const [, url, webhookId] = await printed(
      listener,
      /Listening on (http:\/\/127\.0\.0\.1:\d+\/) .*\nRegistered webhook ([0-9a-f-]{36}) for \*\n/,
    );
    assert.match(listener.output(), /signing secret is held in memory only/);
    const registration = await as(seeded, `/webhooks/${webhookId}`);
    assert.equal(registration.status, 200);
    assert.deepEqual(
      [
        registration.body.url,
        registration.body.events,
        registration.body.description,
        registration.body.status,
      ],
      [url, ['*'], 'webhooks:listen', 'active'],
    );

    const payment = await accepted(seeded, 'p2p/own', {
      transactionId: randomUUID(),
      walletId: a.id,
      destinationWalletId: b.id,
      sendingAssetCode: 'USDC',
      amount: 2.5,
    });
    const record = await settled(seeded, payment);
    assert.equal(record.status, 'completed');
    // Each event: a line with its type and the verdict, then the summary of its data.
    const event = (type: string, summary: string) =>
      new RegExp(
        `Z  ${type.replace('.', '\\.')}  id [0-9a-f-]{36}  source payments  verified .*\\n    ${summary}`,
      );
    await printed(
      listener,
      event('payment.initiated', `status initiated · 2\\.5 USDC · type p2p · transactionRecordId ${payment}`),
    );
    await printed(
      listener,
      event(
        'payment.completed',
        `status completed · 2\\.5 USDC · type p2p · transactionRecordId ${payment} · stellarTxHash ${record.stellarTxHash}`,
      ),
    );

    // Deliveries signed wrong, or too old, are refused: the listener checks, it does not just print.
    const ts = Date.now();
    const body = JSON.stringify({
      id: randomUUID(),
      type: 'payment.completed',
      source: 'payments',
      data: {},
    });
    const forged = async (headers: Record<string, string>) =>
      (await fetch(url as string, { method: 'POST', headers, body })).status;
    const serviceHeaders = (at: number, id = webhookId as string) => ({
      'content-type': 'application/json',
      'x-webhook-id': id,
      'x-webhook-ts': String(at),
      // Anyone can make this one: its key is the id sent beside it.
      'x-service-signature': createHmac('sha256', id).update(`${at}.${body}`).digest('hex'),
    });
    /** Standard Webhooks headers, signed right but with another secret than the registration's. */
    const otherSecret = (at: number) => {
      const [id, seconds] = [randomUUID(), Math.floor(at / 1000)];
      const mac = createHmac('sha256', Buffer.alloc(24)).update(`${id}.${seconds}.${body}`).digest('base64');
      return { 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': `v1,${mac}` };
    };
    assert.equal(await forged(serviceHeaders(ts)), 400, 'no Standard Webhooks signature');
    assert.equal(await forged({ ...serviceHeaders(ts), ...otherSecret(ts) }), 400);
    assert.equal(await forged({ ...serviceHeaders(ts), 'x-service-signature': '00' }), 400);
    assert.equal(await forged(serviceHeaders(ts - 6 * 60_000)), 400, 'older than 5 minutes');
    await printed(listener, /REJECTED \(400\): webhook-signature does not match the registration secret/);
    await printed(listener, /REJECTED \(400\): X-Webhook-Ts is 360 s old \(more than 5 minutes\)/);
    // A made-up id, X-Service-Signature keyed on it: the listener checks against the id it registered.
    const madeUp = randomUUID();
    const forgery = await fetch(url as string, { method: 'POST', headers: serviceHeaders(ts, madeUp), body });
    assert.equal(forgery.status, 400);
    assert.equal(await forgery.text(), `X-Webhook-Id is ${madeUp}, not this registration (${webhookId})\n`);
    // Standard Webhooks' timestamp is held to the same 5 minutes (whole seconds: 360 or 361 s old).
    assert.equal(await forged({ ...serviceHeaders(ts), ...otherSecret(ts - 6 * 60_000) }), 400);
    await printed(listener, /REJECTED \(400\): webhook-timestamp is 36[01] s old \(more than 5 minutes\)/);

    listener.child.kill('SIGINT');
    assert.deepEqual(await listener.exited, { code: 0, signal: null });
    assert.match(listener.output(), new RegExp(`SIGINT: webhook ${webhookId} is deactivated`));
    const after = await as(seeded, `/webhooks/${webhookId}`);
    assert.equal(after.body.status, 'deactivated');
  });

  it('prints every transition of an off-ramp, a failed and refunded one, and an on-ramp, verified', async () => {
    const [wallet, payee, counterparty] = await Promise.all([
      ownWallet(seeded, 'USDC', 300),
      as(seeded, '/beneficiaries', {
        method: 'POST',
        body: { individual: compliantIndividual, addresses: [beneficiaryAddress] },
      }),
      as(seeded, '/beneficiaries', {
        method: 'POST',
        body: { individual: { ...compliantIndividual, firstName: 'Wanjiru', idCountryIsoCode2: 'KE' } },
      }),
    ]);
    const destinationOf = async (beneficiary: { body: { id: string } }, destination: object) => {
      const created = await as(seeded, `/beneficiaries/${beneficiary.body.id}/payment-destinations`, {
        method: 'POST',
        body: destination,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id as string;
    };
    const bank = {
      beneficiaryId: payee.body.id,
      paymentDestinationId: await destinationOf(payee, bankDestination),
    };
    const momo = {
      senderId: counterparty.body.id,
      paymentDestinationId: await destinationOf(counterparty, keMobileMoney),
    };
    const quote = async (path: string, body: object) => {
      const answer = await as(seeded, path, { method: 'POST', body });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
      return answer.body.quoteId as string;
    };
    const offramp = async (toRef: string) => {
      const quoteId = await quote('/quotes', { amount: 50, connectorId: RAMP_CONNECTOR_ID, ...bank });
      return accepted(seeded, 'offramp', offrampBody(wallet.id, bank, quoteId, toRef));
    };

    listener = startListener(credentials);
    await printed(listener, /Registered webhook [0-9a-f-]{36} for \*\n/);
    const paid = await offramp('INV-LISTEN');
    const held = await offramp('HOLD-LISTEN');
    const collected = await submit(seeded, 'onramp', {
      transactionId: randomUUID(),
      walletId: wallet.id,
      ...momo,
      quoteId: await quote('/quotes?type=onramp', {
        amount: 500,
        connectorId: ONRAMP_CONNECTOR_ID,
        beneficiaryId: momo.senderId,
        paymentDestinationId: momo.paymentDestinationId,
      }),
      senderSourceOfFunds: 'SALARY',
    });
    assert.equal(collected.status, 202, JSON.stringify(collected.body));
    const onramp = collected.body.transactionRecordId as string;

    await recordWhen(seeded, held, (r) => r.status === 'processing' && r.externalReference !== null);
    const failed = await as(seeded, `/sandbox/transactions/${held}/fail`, { method: 'POST' });
    assert.equal(failed.status, 202, JSON.stringify(failed.body));
    const [completed, refunded, onrampDone] = await Promise.all([
      recordWhen(seeded, paid, (r) => r.status === 'completed'),
      recordWhen(seeded, held, (r) => r.status === 'refund_completed'),
      recordWhen(seeded, onramp, (r) => r.status === 'completed'),
    ]);

    // One verified line per transition, its summary naming the record, the connector and the provider's
    // reference (the refund's ledger hash once paid back).
    const transition = (type: string, id: string, tail: string) =>
      new RegExp(
        `Z  payment\\.${type}  id [0-9a-f-]{36}  source payments  verified \\(X-Service-Signature, webhook-signature\\)\\n` +
          `    status ${type} · .*transactionRecordId ${id} .*${tail}`,
      );
    const offrampConnector = `connector ${RAMP_CONNECTOR_ID}`;
    await printed(listener, transition('initiated', paid, `${offrampConnector} · externalReference -`));
    await printed(listener, transition('processing', paid, offrampConnector));
    await printed(
      listener,
      transition('completed', paid, `${offrampConnector} · externalReference ${completed.externalReference}`),
    );
    await printed(listener, transition('failed', held, `${offrampConnector} .*errorCode PROVIDER_FAILED`));
    await printed(
      listener,
      transition('refund_completed', held, `${offrampConnector} .*refundTxHash ${refunded.refundTxHash}`),
    );
    const onrampConnector = `connector ${ONRAMP_CONNECTOR_ID}`;
    await printed(listener, transition('initiated', onramp, onrampConnector));
    await printed(listener, transition('processing', onramp, onrampConnector));
    await printed(
      listener,
      transition(
        'completed',
        onramp,
        `stellarTxHash ${onrampDone.stellarTxHash} · ${onrampConnector} · externalReference ${onrampDone.externalReference}`,
      ),
    );
    assert.doesNotMatch(listener.output(), /REJECTED/);
    listener.child.kill('SIGINT');
    assert.deepEqual(await listener.exited, { code: 0, signal: null });
  });

  it('says when the stack is not running, and lists its options with --help', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/v1`;
    const failed = await run(process.execPath, [
      'scripts/webhooks-listen.ts',
      '--credentials',
      credentials,
      '--base-url',
      closed,
    ]).then(
      () => assert.fail('the listener started without a stack'),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    assert.equal(failed.code, 1);
    assert.equal(
      failed.stderr,
      `The local stack is not running at ${closed}: start it with \`npm start\` (or pass --base-url).\n`,
    );
    const { stdout } = await run(process.execPath, ['scripts/webhooks-listen.ts', '--help']);
    for (const option of ['--port', '--events', '--credentials', '--base-url'])
      assert.match(stdout, new RegExp(option));
  });
});
