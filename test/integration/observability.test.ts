// A payment followed through what the functions print (issue #25): the local stack keeps every line its
// functions write (local/function-output.ts), as CloudWatch Logs does in AWS. The payment's accepted
// and settled metrics are there as embedded metric format lines with their dimensions (the tenant and
// the record as properties, never dimensions), and every function it passed through — the API, the
// outbox router, the ledger submitter, the webhook dispatcher and deliverer — wrote a line naming its
// record id; the worker's lines name the request that created it too.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { metricNames } from '../../lib/metrics.ts';
import { as, type Caller, newCaller } from '../support/api.ts';
import {
  bankDestination,
  beneficiaryAddress,
  compliantIndividual,
  RAMP_CONNECTOR_ID,
} from '../support/fixtures.ts';
import {
  accepted,
  type OwnWallet,
  offrampBody,
  ownWallet,
  recordWhen,
  settled,
} from '../support/payments.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

type Line = Record<string, unknown> & { _aws?: { CloudWatchMetrics: { Dimensions: string[][] }[] } };

const outputFile = () => `${process.env.TEST_DATA_DIR}/function-output.jsonl`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The lines written so far that name `recordId`, as objects. */
const linesNaming = (recordId: string): Line[] =>
  readFileSync(outputFile(), 'utf8')
    .split('\n')
    .filter((text) => text.includes(recordId))
    .map((text) => JSON.parse(text) as Line);

/** Waits until `done` holds of the record's lines (the file is written as the functions go). */
async function linesUntil(recordId: string, done: (lines: Line[]) => boolean): Promise<Line[]> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const lines = linesNaming(recordId);
    if (done(lines) || Date.now() > deadline) return lines;
    await pause(100);
  }
}

const metricLine = (lines: Line[], name: string) => lines.find((line) => line._aws && name in line);

describe('a payment in the functions’ output', () => {
  let alice: Caller;
  let receiver: Receiver;
  let a: OwnWallet;
  let b: OwnWallet;

  beforeAll(async () => {
    alice = await newCaller();
    receiver = await startReceiver();
    [a, b] = await Promise.all([ownWallet(alice, 'USDC', 100), ownWallet(alice, 'USDC')]);
  });
  afterAll(() => receiver.close());

  it('has its accepted and settled metrics, and its record id on a line of every function it passed', async () => {
    const registered = await as(alice, '/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: ['payment.completed'], description: 'observability' },
    });
    assert.equal(registered.status, 201, JSON.stringify(registered.body));
    const requestId = `observability-${randomUUID()}`;
    const answer = await as(alice, '/payments/p2p/own', {
      method: 'POST',
      headers: { 'X-Request-Id': requestId },
      body: {
        transactionId: randomUUID(),
        walletId: a.id,
        destinationWalletId: b.id,
        sendingAssetCode: 'USDC',
        amount: 1.5,
      },
    });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const recordId: string = answer.body.transactionRecordId;
    await receiver.until(1);

    // Each function by a line only it writes (its function_name says the same: each invocation has its
    // own context, local/invocation.ts). The outbox router names records only at DEBUG: its INFO line is
    // the batch's, below.
    const lineOf = {
      payments: 'Payment accepted',
      'ledger-submitter': 'Payment completed',
      'webhook-dispatcher': 'Webhook event fanned out',
      'webhook-deliverer': 'Webhook delivery attempted',
    };
    const lines = await linesUntil(recordId, (found) => {
      const messages = new Set(found.map((line) => String(line.message)));
      return (
        Object.values(lineOf).every((message) => messages.has(message)) &&
        metricLine(found, metricNames.webhookDelivery) !== undefined
      );
    });

    const acceptedLine = metricLine(lines, metricNames.paymentAccepted);
    assert.ok(acceptedLine, 'a PaymentAccepted line');
    assert.deepEqual(acceptedLine._aws?.CloudWatchMetrics[0]?.Dimensions, [
      ['service', 'environment', 'type'],
      ['service'],
    ]);
    assert.equal(acceptedLine.environment, 'sandbox');
    assert.equal(acceptedLine.type, 'p2p');
    assert.equal(acceptedLine[metricNames.paymentAccepted], 1);
    assert.equal(
      acceptedLine.associationId,
      alice.tenant.associationId,
      'the tenant beside it, as a property',
    );

    const settledLine = metricLine(lines, metricNames.paymentSettled);
    assert.ok(settledLine, 'a PaymentSettled line');
    assert.deepEqual(settledLine._aws?.CloudWatchMetrics[0]?.Dimensions, [
      ['service', 'status', 'type', 'errorCode'],
      ['service', 'status'],
    ]);
    assert.deepEqual(
      [settledLine.status, settledLine.type, settledLine.errorCode],
      ['completed', 'p2p', 'none'],
    );
    assert.equal((await settled(alice, recordId)).status, 'completed');
    // The settlement's values are one line (a directive per dimension shape), not a line each.
    assert.ok(Number(settledLine[metricNames.settlementLatency]) >= 0, 'a SettlementLatency value');
    assert.ok(Number(settledLine[metricNames.paymentDeliveries]) >= 1, 'its deliveries in the line');
    assert.ok(Number(settledLine[metricNames.paymentEnvelopes]) >= 1, 'its envelopes in the line');
    assert.deepEqual(settledLine._aws?.CloudWatchMetrics[1]?.Dimensions, [['service']]);
    const delivered = metricLine(lines, metricNames.webhookDelivery);
    assert.equal(delivered?.outcome, '2xx');
    assert.equal(delivered?.[metricNames.webhookAttemptAtSuccess], 1, 'the success in the delivery line');
    assert.ok(Number(delivered?.[metricNames.webhookDeliveryLatency]) >= 0);
    assert.equal(lines.filter((line) => line._aws).length, 3, 'accepted, settled, delivered: a line each');

    for (const line of lines.filter((candidate) => candidate._aws))
      for (const dimensions of line._aws?.CloudWatchMetrics[0]?.Dimensions ?? [])
        for (const forbidden of ['associationId', 'transactionRecordId', 'applicationId'])
          assert.ok(!dimensions.includes(forbidden), `${forbidden} is no dimension`);

    const logged = lines.filter((line) => typeof line.level === 'string');
    for (const [fn, message] of Object.entries(lineOf))
      assert.ok(
        logged.some((line) => line.message === message),
        `a log line of ${fn} names ${recordId}: ${JSON.stringify(logged.map((line) => line.message))}`,
      );
    const settledBy = logged.find((line) => line.message === lineOf['ledger-submitter']);
    assert.equal(settledBy?.requestId, requestId, 'the worker names the creating request');
    const acceptedBy = logged.find((line) => line.message === lineOf.payments);
    assert.equal(acceptedBy?.requestId, requestId);
    // An INFO line names its invocation and no more of the context (lib/log-format.ts).
    assert.equal(acceptedBy?.function_name, 'payments');
    assert.equal(typeof acceptedBy?.function_request_id, 'string');
    for (const repeated of ['function_arn', 'function_memory_size', 'sampling_rate', 'service'])
      assert.ok(!(repeated in (acceptedBy ?? {})), `no ${repeated} on an INFO line`);

    const outboxBatches = readFileSync(outputFile(), 'utf8')
      .split('\n')
      .filter((text) => text.includes('"Outbox messages sent"'))
      .map((text) => JSON.parse(text) as Line & { sent: Record<string, number> })
      .filter((line) => String(line.timestamp) >= String(acceptedBy?.timestamp));
    assert.ok(
      outboxBatches.some((line) => (line.sent['ledger-submissions'] ?? 0) >= 1),
      'the outbox router sent the submission in a batch it logged',
    );
  });

  // Ramps settle in steps and through their provider's notifications (lib/payments/ramps/execution.ts), not in
  // the one write of a P2P: each settling move is counted once, whichever function makes it.
  it('has a settled metric for an off-ramp the provider completes and one it fails', async () => {
    const beneficiary = await as(alice, '/beneficiaries', {
      method: 'POST',
      body: { individual: compliantIndividual, addresses: [beneficiaryAddress] },
    });
    assert.equal(beneficiary.status, 201, JSON.stringify(beneficiary.body));
    const destination = await as(alice, `/beneficiaries/${beneficiary.body.id}/payment-destinations`, {
      method: 'POST',
      body: bankDestination,
    });
    assert.equal(destination.status, 201, JSON.stringify(destination.body));
    const payee = { beneficiaryId: beneficiary.body.id, paymentDestinationId: destination.body.id };
    const offramp = async (toRef: string) => {
      const quote = await as(alice, '/quotes', {
        method: 'POST',
        body: { amount: 10, connectorId: RAMP_CONNECTOR_ID, ...payee },
      });
      assert.equal(quote.status, 201, JSON.stringify(quote.body));
      return accepted(alice, 'offramp', offrampBody(a.id, payee, quote.body.quoteId, toRef));
    };
    const completed = await offramp('INV-OBS');
    // HOLD- references wait for the sandbox helper, which has the provider fail the payout.
    const failed = await offramp('HOLD-OBS');
    await recordWhen(alice, completed, (r) => r.status === 'completed');
    await recordWhen(alice, failed, (r) => r.status === 'processing' && r.externalReference !== null);
    const fail = await as(alice, `/sandbox/transactions/${failed}/fail`, { method: 'POST' });
    assert.equal(fail.status, 202, JSON.stringify(fail.body));
    await recordWhen(alice, failed, (r) => r.status === 'refund_completed');

    for (const [recordId, status, errorCode] of [
      [completed, 'completed', 'none'],
      [failed, 'failed', 'PROVIDER_FAILED'],
    ] as const) {
      const lines = await linesUntil(
        recordId,
        (found) => metricLine(found, metricNames.paymentSettled) !== undefined,
      );
      const settledLines = lines.filter((line) => line._aws && metricNames.paymentSettled in line);
      assert.equal(settledLines.length, 1, `one PaymentSettled line for ${recordId}`);
      const [line] = settledLines;
      assert.deepEqual([line?.status, line?.type, line?.errorCode], [status, 'offramp', errorCode]);
      assert.ok(
        metricLine(lines, metricNames.settlementLatency),
        `a SettlementLatency value for ${recordId}`,
      );
    }
  });
});
