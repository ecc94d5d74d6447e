// Beneficiary notices, sent for real: a P2P to a beneficiary with notifyEmail puts one email in the local
// SES emulator's inbox (read back through its HTTP API), off the request path, and the record says `sent`;
// the same event delivered again (the stream or the queue repeating it) sends nothing more; a bounce, as
// SES's configuration set publishes it to EventBridge, marks the address, and the next notice to it is skipped.
// notifyWhatsApp reaches the WhatsApp simulator as a template message; a WhatsApp API that answers 500
// fails the notice after its retries, and never the payment.
// In the sandbox (issue 36) a notice goes only to a recipient the tenant verified (a code sent once and
// confirmed, or the admin CLI's allow-list) or to an SES mailbox simulator address, and says TEST; any
// other is recorded `skipped`, never sent. A tenant's notices and codes stop at its daily cap (the test
// stack's is NOTICE_DAILY_LIMIT_SANDBOX=12, test/setup.ts), counted as NoticeHeld.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Context, EventBridgeEvent, SQSEvent } from 'aws-lambda';
import { beforeAll, describe, it } from 'vitest';
import { metricNames } from '../../lib/metrics.ts';
import { eventIdOf } from '../../lib/webhooks/event-ids.ts';
import { lambdaContext } from '../../local/lambda-event.ts';
import { as, assertFieldError, type Caller, newCaller } from '../support/api.ts';
import { cryptoDestination } from '../support/fixtures.ts';
import { allowRecipient } from '../support/notice-recipients.ts';
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

/** What the SES emulator received for `address`: its notices, or (`codes`) its verification codes. */
async function inboxOf(address: string, what: 'notices' | 'codes' = 'notices'): Promise<SentEmail[]> {
  const response = await fetch(`${process.env.TEST_SES_URL}/store`);
  assert.equal(response.status, 200);
  const { emails } = (await response.json()) as { emails: SentEmail[] };
  return emails.filter(
    (email) =>
      email.destination.to.includes(address) && /your code/.test(email.subject) === (what === 'codes'),
  );
}

/** The code the last verification email to `address` carries. */
async function codeSentTo(address: string): Promise<string> {
  const [last] = (await inboxOf(address, 'codes')).slice(-1);
  const code = /code: (\d{6})/.exec(last?.body.text ?? '')?.[1];
  assert.ok(code, `no code was sent to ${address}`);
  return code;
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

/** A beneficiary of `caller`'s with this email and mobile, and a CRYPTO destination to pay. */
async function beneficiaryOf(caller: Caller, contact: { email: string; mobile: string }) {
  const outsider = await outsiderAccount(caller, ['USDC']);
  const beneficiary = await as(caller, '/beneficiaries', {
    method: 'POST',
    body: { individual: { firstName: 'Lerato', lastName: 'Dlamini', ...contact } },
  });
  assert.equal(beneficiary.status, 201, JSON.stringify(beneficiary.body));
  const destination = await as(caller, `/beneficiaries/${beneficiary.body.id}/payment-destinations`, {
    method: 'POST',
    body: cryptoDestination('USDC', outsider.publicKey()),
  });
  assert.equal(destination.status, 201, JSON.stringify(destination.body));
  return {
    beneficiaryId: beneficiary.body.id as string,
    paymentDestinationId: destination.body.id as string,
  };
}

type Payee = Awaited<ReturnType<typeof beneficiaryOf>>;

const payWith =
  (caller: Caller, wallet: OwnWallet) =>
  (payee: Payee, toRef: string, notify: Record<string, boolean> = { notifyEmail: true }) =>
    accepted(caller, 'p2p/beneficiary', {
      transactionId: randomUUID(),
      walletId: wallet.id,
      ...payee,
      sendingAssetCode: 'USDC',
      amount: 5,
      toRef,
      ...notify,
    });

const noticeEndedOf = (caller: Caller, id: string) =>
  recordWhen(caller, id, (record) => record.notification && record.notification.status !== 'pending');

/** A number of this run's own: the simulator's faults and messages are read by recipient. */
const newMobile = () => `+2782${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;

describe('beneficiary notices', () => {
  let alice: Caller;
  let wallet: OwnWallet;
  let lerato: Payee;
  const email = `lerato-${randomUUID().slice(0, 8)}@example.com`;
  const mobile = newMobile();

  const pay = (toRef: string, notify: Record<string, boolean> = { notifyEmail: true }) =>
    payWith(alice, wallet)(lerato, toRef, notify);
  const noticeEnded = (id: string) => noticeEndedOf(alice, id);

  beforeAll(async () => {
    alice = await newCaller({ name: 'Acme Payroll' });
    wallet = await ownWallet(alice, 'USDC', 100);
    lerato = await beneficiaryOf(alice, { email, mobile });
    // Verified as a tester would: the email by its code, the mobile by the admin CLI's allow-list.
    const asked = await as(alice, '/sandbox/notice-recipients', {
      method: 'POST',
      body: { channel: 'email', address: email },
    });
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    const confirmed = await as(alice, '/sandbox/notice-recipients/verification', {
      method: 'POST',
      body: { channel: 'email', address: email, code: await codeSentTo(email) },
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    await allowRecipient(alice, 'whatsapp', mobile);
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
    assert.match(sent?.subject ?? '', /^TEST: .*5 USDC/);
    assert.match(sent?.body.text ?? '', /^TEST: a sandbox notice; no money moved\./);
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
    assert.deepEqual(received[0]?.parameters, ['TEST 5 USDC', 'Acme Payroll', 'INV-7004']);
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

describe('sandbox notices go only to verified recipients', () => {
  let bob: Caller;
  let pay: ReturnType<typeof payWith>;

  beforeAll(async () => {
    bob = await newCaller({ name: 'Bob Test Shop' });
    pay = payWith(bob, await ownWallet(bob, 'USDC', 100));
  });

  it('a notice to an address nobody verified is not sent: the record says skipped, recipient not verified', async () => {
    const stranger = `stranger-${randomUUID().slice(0, 8)}@example.com`;
    const strangerMobile = newMobile();
    const payee = await beneficiaryOf(bob, { email: stranger, mobile: strangerMobile });
    for (const notify of [{ notifyEmail: true }, { notifyWhatsApp: true }] as Record<string, boolean>[]) {
      const id = await pay(payee, 'INV-8001', notify);
      const record = await noticeEndedOf(bob, id);
      assert.equal(record.status, 'completed');
      assert.equal(record.notification.status, 'skipped', JSON.stringify(record.notification));
      assert.equal(record.notification.reason, 'sandbox: recipient not verified');
      assert.equal(record.notification.sentAt, null);
    }
    assert.deepEqual(await inboxOf(stranger), []);
    assert.deepEqual(await whatsAppTo(strangerMobile), []);
  });

  it('an SES mailbox simulator address needs no verifying', async () => {
    const simulator = `success+${randomUUID().slice(0, 8)}@simulator.amazonses.com`;
    const payee = await beneficiaryOf(bob, { email: simulator, mobile: newMobile() });
    const record = await noticeEndedOf(bob, await pay(payee, 'INV-8002'));
    assert.equal(record.notification.status, 'sent', JSON.stringify(record.notification));
    assert.equal((await inboxOf(simulator)).length, 1);
  });

  it('a code is sent once; a wrong code is a 422 naming code; the right one verifies the address', async () => {
    const address = `Thandi-${randomUUID().slice(0, 8)}@Example.com`;
    const asked = await as(bob, '/sandbox/notice-recipients', {
      method: 'POST',
      body: { channel: 'email', address },
    });
    assert.equal(asked.status, 202, JSON.stringify(asked.body));
    assert.equal(asked.body.status, 'pending');
    assert.equal(asked.body.address, address.toLowerCase());
    const [codeMail] = await inboxOf(address.toLowerCase(), 'codes');
    assert.match(codeMail?.subject ?? '', /^TEST: /);
    // Once: a second request while the code is valid sends nothing.
    const again = await as(bob, '/sandbox/notice-recipients', {
      method: 'POST',
      body: { channel: 'email', address },
    });
    assertFieldError(again, 409, 'address');
    assert.equal((await inboxOf(address.toLowerCase(), 'codes')).length, 1);

    const code = await codeSentTo(address.toLowerCase());
    const wrongCode = code === '000000' ? '111111' : '000000';
    const confirm = (value: string) =>
      as(bob, '/sandbox/notice-recipients/verification', {
        method: 'POST',
        body: { channel: 'email', address, code: value },
      });
    assertFieldError(await confirm(wrongCode), 422, 'code');
    assertFieldError(await confirm('12ab'), 400, 'code');
    // Another tenant cannot confirm it, even with the code.
    const carol = await newCaller();
    const theirs = await as(carol, '/sandbox/notice-recipients/verification', {
      method: 'POST',
      body: { channel: 'email', address, code },
    });
    assertFieldError(theirs, 404, 'address');
    const confirmed = await confirm(code);
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    assert.equal(confirmed.body.status, 'verified');

    const payee = await beneficiaryOf(bob, { email: address.toLowerCase(), mobile: newMobile() });
    const record = await noticeEndedOf(bob, await pay(payee, 'INV-8003'));
    assert.equal(record.notification.status, 'sent', JSON.stringify(record.notification));
    // Verified for bob only: carol's notice to the same address is not sent.
    const carolPayee = await beneficiaryOf(carol, { email: address.toLowerCase(), mobile: newMobile() });
    const carolRecord = await noticeEndedOf(
      carol,
      await payWith(carol, await ownWallet(carol, 'USDC', 20))(carolPayee, 'INV-8004'),
    );
    assert.equal(carolRecord.notification.reason, 'sandbox: recipient not verified');
  });

  it('a production application gets 404 from the recipient routes', async () => {
    const production = await newCaller({ environment: 'production' });
    const recipient = { channel: 'email', address: 'someone@example.com' };
    for (const [path, body] of [
      ['/sandbox/notice-recipients', recipient],
      ['/sandbox/notice-recipients/verification', { ...recipient, code: '123456' }],
    ] as const) {
      const answer = await as(production, path, { method: 'POST', body });
      assert.equal(answer.status, 404, JSON.stringify(answer.body));
    }
  });
});

describe('the daily notice cap', () => {
  it('stops a tenant at its cap: codes answer 429 with Retry-After, notices are skipped, each held is counted', async () => {
    const dave = await newCaller();
    const cap = 12; // NOTICE_DAILY_LIMIT_SANDBOX of the test stack (test/setup.ts)
    const ask = (n: number) =>
      as(dave, '/sandbox/notice-recipients', {
        method: 'POST',
        body: { channel: 'email', address: `cap-${n}-${randomUUID().slice(0, 8)}@example.com` },
      });
    for (let n = 0; n < cap; n++) assert.equal((await ask(n)).status, 202);
    const refused = await ask(cap);
    assert.equal(refused.status, 429, JSON.stringify(refused.body));
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    assert.match(refused.body.detail, /daily cap of 12/);

    const simulator = `success+cap-${randomUUID().slice(0, 8)}@simulator.amazonses.com`;
    const payee = await beneficiaryOf(dave, { email: simulator, mobile: newMobile() });
    const id = await payWith(dave, await ownWallet(dave, 'USDC', 20))(payee, 'INV-8101');
    const record = await noticeEndedOf(dave, id);
    assert.equal(record.notification.status, 'skipped', JSON.stringify(record.notification));
    assert.match(record.notification.reason, /daily cap of 12 notices/);
    assert.deepEqual(await inboxOf(simulator), []);

    const held = readFileSync(`${process.env.TEST_DATA_DIR}/function-output.jsonl`, 'utf8')
      .split('\n')
      .filter((line) => line.includes(metricNames.noticeHeld) && line.includes(dave.tenant.associationId))
      .map((line) => JSON.parse(line));
    assert.ok(held.length >= 2, 'a NoticeHeld line for the refused code and the skipped notice');
    assert.ok(held.every((line) => line.reason === 'daily_cap' && line.environment === 'sandbox'));
  });
});
