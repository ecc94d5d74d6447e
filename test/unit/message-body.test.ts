import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { SQSRecord } from 'aws-lambda';
import { afterAll, describe, it } from 'vitest';
import { MalformedMessage, messageBody } from '../../lib/aws/message-body.ts';
import { activationMessage } from '../../lib/wallets/activation-message.ts';
import { captureLogs } from '../support/logs.ts';

const recordWith = (body: string) =>
  ({ messageId: randomUUID(), body, attributes: { ApproximateReceiveCount: '3' } }) as unknown as SQSRecord;

const message = {
  environment: 'sandbox',
  associationId: randomUUID(),
  walletId: randomUUID(),
  requestedAt: '2030-01-01T00:00:00.000Z',
};

describe('messageBody', () => {
  const logs = captureLogs();
  afterAll(() => logs.restore());

  it('parses a body with its schema and drops members the schema does not know', () => {
    const parsed = messageBody(
      recordWith(JSON.stringify({ ...message, addedLater: true })),
      activationMessage,
    );
    assert.deepEqual(parsed, message);
  });

  it('throws MalformedMessage for a body that is not JSON or not the schema, and warns naming the member', () => {
    assert.throws(() => messageBody(recordWith('{"environment":'), activationMessage), MalformedMessage);
    const record = recordWith(JSON.stringify({ ...message, environment: 'staging', walletId: 7 }));
    assert.throws(() => messageBody(record, activationMessage), /body\.environment.*body\.walletId/s);
    const warning = logs.lines.find((line) => line.messageId === record.messageId);
    assert.ok(warning);
    assert.equal(warning.level, 'WARN');
    assert.equal(warning.receiveCount, '3');
    assert.deepEqual(
      (warning.issues as string[]).map((issue) => issue.split(':')[0]),
      ['body.environment', 'body.walletId'],
    );
  });
});
