// Beneficiary notices, sent for real: a P2P to a beneficiary with notifyEmail puts one email in the local
// SES emulator's inbox (read back through its HTTP API), off the request path, and the record says `sent`;
// the same event delivered again (the stream or the queue repeating it) sends nothing more; a bounce, as
// SES's configuration set publishes it to EventBridge, marks the address, and the next notice to it is skipped.
// notifyWhatsApp reaches the WhatsApp simulator as a template message; a WhatsApp API that answers 500
// fails the notice after its retries, and never the payment.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Context, EventBridgeEvent, SQSEvent } from 'aws-lambda';
import { beforeAll, describe, it } from 'vitest';
import { lambdaContext } from '../../lib/local/lambda-event.ts';
import { eventIdOf } from '../../lib/webhooks/event-ids.ts';
import { as, type Caller, newCaller } from '../support/api.ts';
import { cryptoDestination } from '../support/fixtures.ts';
import { accepted, type OwnWallet, outsiderAccount, ownWallet, recordWhen } from '../support/payments.ts';
import { sqsRecord } from '../support/sqs-records.ts';
import { lineMatching } from '../support/traffic.ts';

interface SentEmail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { text?: string };
}

/** What the SES emulator received for `address`. */
async function inboxOf(address: string): Promise<SentEmail[]> {
  const response = await fetch(`${process.env.TEST_SES_URL}/store`);
  assert.equal(response.status, 200);
  const { emails } = (await response.json()) as { emails: SentEmail[] };
  return emails.filter((email) => email.destination.to.includes(address));
}

interface ReceivedWhatsApp {
  to: string;
  template: string;
  parameters: string[];
}

/** What the WhatsApp simulator accepted for `to`. */
async function whatsAppTo(to: string): Promise<ReceivedWhatsApp[]> {
  const response = await fetch(`${process.env.TEST_WHATSAPP_URL}/messages`);
  const { messages } = (await response.json()) as { messages: ReceivedWhatsApp[] };
  return messages.filter((message) => message.to === to);
}

/** Makes the simulator answer `status` to every message for `to` (null: answer normally again). */
async function whatsAppFault(to: string, status: number | null): Promise<void> {
  const response = await fetch(`${process.env.TEST_WHATSAPP_URL}/faults`, {
    method: 'POST',
    body: JSON.stringify({ to, status }),
  });
  assert.equal(response.status, 200);
}

type Handler<E> = (event: E, context: Context) => Promise<unknown>;

describe('beneficiary notices', () => {
  let alice: Caller;
  let wallet: OwnWallet;
  let destinationId: string;
  let beneficiaryId: string;
  const email = `lerato-${randomUUID().slice(0, 8)}@example.com`;
  // A number of this run's own: the simulator's faults and messages are read by recipient.
  const mobile = `+2782${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

  const pay = (toRef: string, notify: Record<string, boolean> = { notifyEmail: true }) =>
    accepted(alice, 'p2p/beneficiary', {
      transactionId: randomUUID(),
      walletId: wallet.id,
      beneficiaryId,
      paymentDestinationId: destinationId,
      sendingAssetCode: 'USDC',
      amount: 5,
      toRef,
      ...notify,
    });
  const noticeEnded = (id: string) =>
    recordWhen(alice, id, (record) => record.notification && record.notification.status !== 'pending');

  beforeAll(async () => {
    alice = await newCaller({ name: 'Acme Payroll' });
    wallet = await ownWallet(alice, 'USDC', 100);
    const outsider = await outsiderAccount(alice, ['USDC']);
    const beneficiary = await as(alice, '/beneficiaries', {
      method: 'POST',
      body: { individual: { firstName: 'Lerato', lastName: 'Dlamini', email, mobile } },
    });
    assert.equal(beneficiary.status, 201, JSON.stringify(beneficiary.body));
    beneficiaryId = beneficiary.body.id;
    const destination = await as(alice, `/beneficiaries/${beneficiaryId}/payment-destinations`, {
      method: 'POST',
      body: cryptoDestination('USDC', outsider.publicKey()),
    });
    assert.equal(destination.status, 201, JSON.stringify(destination.body));
    destinationId = destination.body.id;
  });

  it('a P2P with notifyEmail sends one email with the amount, sender and reference, and the record says sent', async () => {
    const id = await pay('INV-7001');
    const record = await noticeEnded(id);
    assert.equal(record.status, 'completed');
    assert.equal(record.notification.status, 'sent', JSON.stringify(record.notification));
    assert.equal(record.notification.channel, 'email');
    assert.match(record.notification.to, /^l\*\*\*@example\.com$/);
    assert.ok(record.notification.sentAt);
    // `npm start` shows it too.
    assert.match(await lineMatching(new RegExp(`notice email for ${id} `)), / sent$/);
    const inbox = await inboxOf(email);
    assert.equal(inbox.length, 1, JSON.stringify(inbox));
    const [sent] = inbox;
    assert.equal(sent?.from, 'notices@payments-gateway.local');
    assert.match(sent?.subject ?? '', /5 USDC/);
    assert.match(sent?.body.text ?? '', /INV-7001/);
    // No internal ids: not the record's, not the wallet's, not the tenant's.
    for (const internal of [id, wallet.id, alice.tenant.associationId])
      assert.ok(!JSON.stringify(sent).includes(internal), `the email names ${internal}`);

    // The same event delivered again, twice, by the worker as SQS would hand it: nothing more is sent.
    const { handler } = (await import('../../functions/workers/payment-notifier.ts')) as unknown as {
      handler: Handler<SQSEvent>;
    };
    const tenant = { environment: 'sandbox', associationId: alice.tenant.associationId };
    const body = JSON.stringify({
      ...tenant,
      transactionRecordId: id,
      eventId: eventIdOf('transaction', tenant, id, 'payment.completed'),
    });
    const redelivered = (): SQSEvent => ({ Records: [sqsRecord('test-payment-notifications', body, 2)] });
    await handler(redelivered(), lambdaContext('payment-notifier'));
    await handler(redelivered(), lambdaContext('payment-notifier'));
    assert.equal((await inboxOf(email)).length, 1);
  });

  it('a bounce marks the address and the record; the next notice to it is skipped and says why', async () => {
    const id = await pay('INV-7002');
    const sent = await noticeEnded(id);
    assert.equal(sent.notification.status, 'sent');
    const [message] = (await inboxOf(email)).slice(-1);
    assert.ok(message);

    // SES's Bounce event, as the configuration set's event destination publishes it to EventBridge.
    const { handler } = (await import('../../functions/events/ses-feedback.ts')) as unknown as {
      handler: Handler<EventBridgeEvent<string, unknown>>;
    };
    const bouncedAt = new Date().toISOString();
    const sesEvent = {
      eventType: 'Bounce',
      bounce: {
        bounceType: 'Permanent',
        bounceSubType: 'General',
        bouncedRecipients: [{ emailAddress: email, action: 'failed', status: '5.1.1' }],
        timestamp: bouncedAt,
        feedbackId: randomUUID(),
      },
      mail: {
        timestamp: bouncedAt,
        source: 'notices@payments-gateway.local',
        messageId: message.messageId,
        destination: [email],
        tags: {
          'ses:configuration-set': ['test-notices'],
          environment: ['sandbox'],
          associationId: [alice.tenant.associationId],
          transactionRecordId: [id],
        },
      },
    };
    await handler(
      {
        version: '0',
        id: randomUUID(),
        'detail-type': 'Email Bounced',
        source: 'aws.ses',
        account: '000000000000',
        time: bouncedAt,
        region: 'us-east-1',
        resources: ['arn:aws:ses:us-east-1:000000000000:configuration-set/test-notices'],
        detail: sesEvent,
      },
      lambdaContext('ses-feedback'),
    );
    const bounced = await recordWhen(alice, id, (record) => record.notification.status === 'bounced');
    assert.equal(bounced.notification.sentAt, sent.notification.sentAt);
    assert.match(bounced.notification.reason, /bounced/);

    const before = (await inboxOf(email)).length;
    const next = await noticeEnded(await pay('INV-7003'));
    assert.equal(next.status, 'completed');
    assert.equal(next.notification.status, 'skipped', JSON.stringify(next.notification));
    // The suppression list is the account's, shared by every tenant: not a word of whose bounce, or when.
    assert.equal(next.notification.reason, 'The address is suppressed: it is not sent to.');
    assert.equal(next.notification.sentAt, null);
    assert.equal((await inboxOf(email)).length, before);
  });

  it('notifyWhatsApp reaches the WhatsApp API as a template message with amount, sender and reference', async () => {
    const id = await pay('INV-7004', { notifyWhatsApp: true });
    const record = await noticeEnded(id);
    assert.equal(record.notification.status, 'sent', JSON.stringify(record.notification));
    assert.equal(record.notification.channel, 'whatsapp');
    const received = await whatsAppTo(mobile);
    assert.equal(received.length, 1, JSON.stringify(received));
    assert.equal(received[0]?.template, 'payment_received');
    assert.deepEqual(received[0]?.parameters, ['5 USDC', 'Acme Payroll', 'INV-7004']);
  });

  it('a WhatsApp API answering 500 fails the notice after its retries; the payment is completed regardless', async () => {
    await whatsAppFault(mobile, 500);
    try {
      const before = (await whatsAppTo(mobile)).length;
      const record = await noticeEnded(await pay('INV-7005', { notifyWhatsApp: true }));
      assert.equal(record.status, 'completed');
      assert.ok(record.stellarTxHash);
      assert.equal(record.notification.status, 'failed', JSON.stringify(record.notification));
      assert.match(record.notification.reason, /after 5 attempts.*HTTP 500/);
      assert.equal(record.notification.sentAt, null);
      assert.equal((await whatsAppTo(mobile)).length, before);
    } finally {
      await whatsAppFault(mobile, null);
    }
  });
});
