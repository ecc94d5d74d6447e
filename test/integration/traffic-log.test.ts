// What `npm start` prints while it serves (local/traffic-log.ts): the test stack writes the same lines
// to its data folder's traffic.log (test/setup.ts), which this file reads.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, it } from 'vitest';
import { queueUrlVariable } from '../../lib/queue-names.ts';
import { createTrafficLog, useColour } from '../../local/traffic-log.ts';
import { as, baseUrl, newCaller } from '../support/api.ts';
import { accepted, ownWallet, settled } from '../support/payments.ts';
import { lineMatching } from '../support/traffic.ts';
import { startReceiver } from '../support/webhook-receiver.ts';

describe('the local stack shows what it serves', () => {
  it('prints one line per request: time, method, path, status, milliseconds, request id', async () => {
    const response = await fetch(`${baseUrl()}/assets?limit=1`);
    const requestId = response.headers.get('x-request-id');
    assert.ok(requestId);
    const line = await lineMatching(new RegExp(`${requestId}$`));
    assert.match(
      line,
      new RegExp(`^\\d\\d:\\d\\d:\\d\\d\\.\\d{3} GET    /v1/assets 401 \\d+ ms ${requestId}$`),
    );
  });

  it('prints one line per settled payment and per ended webhook delivery', async () => {
    const caller = await newCaller();
    const receiver = await startReceiver();
    try {
      const registered = await as(caller, '/webhooks', {
        method: 'POST',
        body: { url: receiver.url, events: ['payment.completed'], description: 'traffic' },
      });
      assert.equal(registered.status, 201, JSON.stringify(registered.body));
      const from = await ownWallet(caller, 'USDC', 10);
      const to = await ownWallet(caller, 'USDC');
      const id = await accepted(caller, 'p2p/own', {
        transactionId: randomUUID(),
        walletId: from.id,
        destinationWalletId: to.id,
        sendingAssetCode: 'USDC',
        amount: 2.5,
      });
      assert.equal((await settled(caller, id)).status, 'completed');
      assert.match(await lineMatching(new RegExp(`payment ${id} `)), / p2p 2\.5 USDC completed$/);
      await receiver.until(1);
      assert.match(
        await lineMatching(new RegExp(`webhook payment\\.completed to ${registered.body.id} `)),
        / delivered after 1 attempt$/,
      );
    } finally {
      await receiver.close();
    }
  });

  it('prints one line per worker failure', async () => {
    const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
    const { MessageId } = await sqs
      .send(
        new SendMessageCommand({
          QueueUrl: process.env[queueUrlVariable('wallet-activations')],
          MessageBody: '{"not": "an activation"}',
        }),
      )
      .finally(() => sqs.destroy());
    assert.match(
      await lineMatching(new RegExp(`Message ${MessageId} does not parse`)),
      / worker wallet-activator failed 1 of \d+ messages?: MalformedMessage: .+ \(retried after the visibility timeout\)$/,
    );
  });

  it('colours only for a person at a terminal: never off a TTY, with CI or with NO_COLOR', () => {
    assert.equal(useColour({ isTTY: true }, {}), true);
    assert.equal(useColour({ isTTY: false }, {}), false);
    assert.equal(useColour({}, {}), false);
    assert.equal(useColour({ isTTY: true }, { CI: 'true' }), false);
    assert.equal(useColour({ isTTY: true }, { NO_COLOR: '1' }), false);
    const lines: string[] = [];
    const request = { method: 'POST', path: '/v1/quotes', status: 500, ms: 3.4, requestId: 'r-1' };
    createTrafficLog((line) => lines.push(line), { colour: false }).request(request);
    createTrafficLog((line) => lines.push(line), { colour: true }).request(request);
    assert.match(lines[0] ?? '', /^\d\d:\d\d:\d\d\.\d{3} POST {3}\/v1\/quotes 500 3 ms r-1$/);
    assert.ok(lines[1]?.includes('\x1b[31m500\x1b[0m'), 'a 500 in red');
  });
});
