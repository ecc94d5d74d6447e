// X-Ray annotations (issue #25 §2, lib/trace.ts): an invocation Lambda traces and samples sends the
// daemon a subsegment annotated with the payment's record id and the request that created it. The
// daemon here is a UDP socket on loopback (AWS_XRAY_DAEMON_ADDRESS), and the trace header is set as
// Lambda sets it; the payments API function and the ledger submitter run in this process, as Lambda
// would run them, against the stack's DynamoDB Local, SQS and ledger.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import type { Context, SQSEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { routeKeyOf } from '../../lib/routes.ts';
import { lambdaContext, toApiGatewayEvent } from '../../local/lambda-event.ts';
import { type Caller, newCaller } from '../support/api.ts';
import { type OwnWallet, ownWallet, settled } from '../support/payments.ts';

interface Subsegment {
  type: string;
  trace_id: string;
  parent_id: string;
  name: string;
  start_time: number;
  end_time: number;
  annotations: Record<string, string>;
}

const TRACE_ID = '1-67a1b2c3-0123456789abcdef01234567';
const PARENT_ID = '53995c3f42cd8ad8';

describe('X-Ray subsegments', () => {
  const daemon = createSocket('udp4');
  const received: Subsegment[] = [];
  let alice: Caller;
  let a: OwnWallet;
  let b: OwnWallet;

  beforeAll(async () => {
    daemon.on('message', (datagram) => {
      // The daemon's format: a JSON header line, then the segment document.
      const [header, document] = datagram.toString('utf8').split('\n');
      assert.deepEqual(JSON.parse(header ?? ''), { format: 'json', version: 1 });
      received.push(JSON.parse(document ?? '') as Subsegment);
    });
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${(daemon.address() as AddressInfo).port}`;
    process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ID};Parent=${PARENT_ID};Sampled=1`;
    alice = await newCaller();
    [a, b] = await Promise.all([ownWallet(alice, 'USDC', 100), ownWallet(alice, 'USDC')]);
  });
  afterAll(() => {
    delete process.env._X_AMZN_TRACE_ID;
    daemon.close();
  });

  const sent = async (name: string) => {
    const deadline = Date.now() + 5000;
    while (!received.some((s) => s.name === name) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    return received.filter((s) => s.name === name);
  };

  /** POST /payments/p2p/own through the payments function, as Lambda invokes it: its 202's record id. */
  async function pay(requestId: string): Promise<string> {
    const { handler } = (await import('../../functions/api/payments.ts')) as unknown as {
      handler: (event: unknown, context: Context) => Promise<{ statusCode: number; body: string }>;
    };
    const body = {
      transactionId: randomUUID(),
      walletId: a.id,
      destinationWalletId: b.id,
      sendingAssetCode: 'USDC',
      amount: 1,
    };
    const headers = {
      'content-type': 'application/json',
      'x-service-auth': alice.tenant.apiKey,
      authorization: `Bearer ${alice.token}`,
      'x-request-id': requestId,
    };
    const event = toApiGatewayEvent(
      { method: 'POST', url: '/v1/payments/p2p/own', headers, body: Buffer.from(JSON.stringify(body)) },
      routeKeyOf({ method: 'POST', path: '/payments/p2p/own' }),
      undefined,
    );
    const answer = await handler(event, lambdaContext('payments'));
    assert.equal(answer.statusCode, 202, answer.body);
    return JSON.parse(answer.body).transactionRecordId;
  }

  it('annotate the API operation and the ledger submission with the record and request ids', async () => {
    const requestId = `tracing-${randomUUID()}`;
    const recordId = await pay(requestId);

    const [operation] = await sent('payP2pOwn');
    assert.ok(operation, `a subsegment of the operation: ${JSON.stringify(received)}`);
    assert.equal(operation.type, 'subsegment');
    assert.equal(operation.trace_id, TRACE_ID);
    assert.equal(operation.parent_id, PARENT_ID, "a child of Lambda's segment");
    assert.ok(operation.end_time >= operation.start_time);
    assert.deepEqual(operation.annotations, { transactionRecordId: recordId, requestId });

    // The stack's own submitter may settle it first: this delivery then finds it settled, as a
    // redelivery would, and its subsegment still names the record.
    const { handler: submitter } = (await import(
      '../../functions/workers/ledger-submitter.ts'
    )) as unknown as {
      handler: (event: SQSEvent, context: Context) => Promise<unknown>;
    };
    const message = {
      kind: 'payment',
      environment: 'sandbox',
      associationId: alice.tenant.associationId,
      transactionRecordId: recordId,
      requestedAt: new Date().toISOString(),
      requestId,
    };
    await submitter(
      // As SQS delivers it again (its attributes count the deliveries): the stack's own submitter had it first.
      {
        Records: [
          {
            messageId: randomUUID(),
            body: JSON.stringify(message),
            attributes: { ApproximateReceiveCount: '2' },
          },
        ],
      } as unknown as SQSEvent,
      lambdaContext('ledger-submitter'),
    );
    const [submission] = await sent('ledger-submission');
    assert.ok(submission, `a subsegment of the message: ${JSON.stringify(received)}`);
    assert.equal(submission.trace_id, TRACE_ID);
    assert.deepEqual(submission.annotations, { transactionRecordId: recordId, requestId });
    assert.equal((await settled(alice, recordId)).status, 'completed');
  });

  it('sends nothing for an invocation that is not sampled', async () => {
    received.length = 0;
    process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ID};Parent=${PARENT_ID};Sampled=0`;
    await pay(`tracing-unsampled-${randomUUID()}`);
    process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ID};Parent=${PARENT_ID};Sampled=1`;
    const sampled = await pay(`tracing-sampled-${randomUUID()}`);
    // The sampled one's datagram follows the other's on loopback: by its arrival, only it has come.
    const operations = await sent('payP2pOwn');
    assert.deepEqual(
      received.map((s) => s.annotations.transactionRecordId),
      [sampled],
    );
    assert.equal(operations.length, 1);
  });
});
