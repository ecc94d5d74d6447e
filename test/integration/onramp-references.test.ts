// On-ramp references and provider on-ramp receipts against the local stack (issue #22 §2, §3): references
// issued by the provider simulator for verified customers and bound only to the caller's own Verified
// wallets; the page-numbered list; a customer paying in (the sandbox helper, or a receipt notification
// signed here with the connector's secret) paid by the settlement account into the wallet exactly once
// per receipt id; receipts on unknown references held for platform operations; another tenant everywhere.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { listHeldReceipts, resolveReceipt } from '../../lib/admin/receipts.ts';
import { findPlatformAccount } from '../../lib/ledger/platform-accounts.ts';
import { providerNotificationPath } from '../../lib/providers/notification-path.ts';
import { findProviderSecret } from '../../lib/providers/repo.ts';
import { SIGNATURE_HEADER, signNotification } from '../../lib/providers/signature.ts';
import { as, assertFieldError, type Caller, newCaller, send } from '../support/api.ts';
import {
  BESPOKE_CONNECTOR_ID,
  bespokeIndividual,
  CONNECTOR_ID,
  person,
  RAMP_CONNECTOR_ID,
  verifiedCustomer,
} from '../support/fixtures.ts';
import {
  balancesOf,
  listed,
  type OwnWallet,
  operationsOf,
  ownWallet,
  recordWhen,
} from '../support/payments.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const plus = (a: string | undefined, b: string) => new BigNumber(a ?? 0).plus(b).toFixed(7);

const createReference = (caller: Caller, body: Record<string, unknown>) =>
  as(caller, '/onramp/references', { method: 'POST', body: { connectorId: BESPOKE_CONNECTOR_ID, ...body } });

/** A receipt notification as the provider sends it, signed with `secret` (default: the connector's). */
async function notifyReceipt(
  receipt: Record<string, unknown>,
  secret?: Buffer,
  connectorId = BESPOKE_CONNECTOR_ID,
) {
  const key = secret ?? ((await findProviderSecret('sandbox', BESPOKE_CONNECTOR_ID)) as Buffer);
  const body = JSON.stringify({ notificationId: randomUUID(), kind: 'receipt', ...receipt });
  const url = providerNotificationPath('sandbox', connectorId).replace(/^\/v1/, '');
  return send(url, {
    method: 'POST',
    headers: { [SIGNATURE_HEADER]: signNotification(key, body, new Date()) },
    body,
  });
}

/** A customer's payment of `amount` ZAR on `reference`, with a new receipt id. */
const receiptOn = (reference: string, amount: string) => ({
  receiptId: `RCPT-${randomUUID()}`,
  reference,
  amount,
  currency: 'ZAR',
});

/** The caller's provider on-ramp records, newest first. */
const receiptsOf = (caller: Caller) => listed(caller, 'limit=100&type=provider_onramp');

/** The caller's records of these receipts, once at least one is written. */
// biome-ignore lint/suspicious/noExplicitAny: records are asserted on member by member.
async function recordsOf(caller: Caller, ...receiptIds: string[]): Promise<any[]> {
  for (let i = 0; i < 100; i++) {
    const records = (await receiptsOf(caller)).filter((r) => receiptIds.includes(r.idempotencyKey));
    if (records.length) return records;
    await pause(200);
  }
  throw new Error(`No record of ${receiptIds.join(', ')}`);
}

describe('on-ramp references and provider receipts', () => {
  let alice: Caller;
  let bob: Caller;
  let wallet: OwnWallet;
  let second: OwnWallet;
  let customerId: string;
  let bobWallet: OwnWallet;
  let bobCustomer: string;
  let receiver: Receiver;
  let settlement: string;

  beforeAll(async () => {
    [alice, bob, receiver] = await Promise.all([newCaller(), newCaller(), startReceiver()]);
    [wallet, second, bobWallet, customerId, bobCustomer] = await Promise.all([
      ownWallet(alice, 'USDC'),
      ownWallet(alice, 'USDC'),
      ownWallet(bob, 'USDC'),
      verifiedCustomer(alice),
      verifiedCustomer(bob),
    ]);
    settlement =
      (await findPlatformAccount('sandbox', `settlement:${BESPOKE_CONNECTOR_ID}`))?.publicKey ?? '';
    const hook = await as(alice, '/webhooks', {
      method: 'POST',
      body: { url: receiver.url, events: ['payment.initiated', 'payment.completed'] },
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
  });
  afterAll(() => receiver.close());

  it('issues a provider reference for a verified customer, bound to an own Verified wallet', async () => {
    const created = await createReference(alice, { customerId, walletId: wallet.id });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.body.reference, /^PG\d{10}$/);
    assert.equal(created.body.customerId, customerId);
    assert.equal(created.body.connectorId, BESPOKE_CONNECTOR_ID);
    assert.equal(created.body.walletId, wallet.id);
    assert.equal(created.body.settlementAccount, settlement);
    assert.equal(created.body.isActive, true);
    assert.ok(created.body.routeId && created.body.created);
  });

  it('binds only to the caller’s own Verified wallets of the paid-out asset, for its own verified customers', async () => {
    const thirdParty = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Third party', assetCode: 'USDC', metadata: person },
    });
    assert.equal(thirdParty.status, 201, JSON.stringify(thirdParty.body));
    const eurc = await ownWallet(alice, 'EURC');
    assertFieldError(await createReference(alice, { customerId, walletId: bobWallet.id }), 404, 'walletId');
    assertFieldError(
      await createReference(bob, { customerId: bobCustomer, walletId: wallet.id }),
      404,
      'walletId',
    );
    assertFieldError(
      await createReference(alice, { customerId, walletId: thirdParty.body.id }),
      403,
      'walletId',
    );
    assertFieldError(await createReference(alice, { customerId, walletId: eurc.id }), 422, 'walletId');
    assertFieldError(
      await createReference(alice, { customerId: bobCustomer, walletId: wallet.id }),
      404,
      'customerId',
    );
    const pending = `cust-${randomUUID().slice(0, 8)}`;
    const registered = await as(
      alice,
      `/customers/${pending}/connectors/${BESPOKE_CONNECTOR_ID}/register/individual`,
      {
        method: 'PUT',
        body: { ...bespokeIndividual, lastName: 'Holden' },
      },
    );
    assert.equal(registered.status, 201);
    assertFieldError(
      await createReference(alice, { customerId: pending, walletId: wallet.id }),
      422,
      'customerId',
    );
    const standard = await createReference(alice, {
      customerId,
      walletId: wallet.id,
      connectorId: CONNECTOR_ID,
    });
    assertFieldError(standard, 422, 'connectorId');
    assertFieldError(
      await as(alice, '/onramp/references', { method: 'POST', body: { customerId } }),
      400,
      'walletId',
    );
  });

  it('lists page by page with the total count, filters combined; another tenant sees none of it', async () => {
    const other = await verifiedCustomer(alice);
    for (const walletId of [wallet.id, second.id, second.id])
      assert.equal((await createReference(alice, { customerId: other, walletId })).status, 201);
    const page = (query: string) => as(alice, `/onramp/references?${query}`);
    const first = await page(`customerId=${other}&pageSize=2`);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.count, 3);
    assert.equal(first.body.pageNumber, 1);
    assert.equal(first.body.pageSize, 2);
    assert.equal(first.body.data.length, 2);
    const next = await page(`customerId=${other}&pageSize=2&pageNumber=2`);
    assert.equal(next.body.data.length, 1);
    assert.equal(next.body.count, 3);
    const all = [...first.body.data, ...next.body.data].map((r: { reference: string }) => r.reference);
    assert.equal(new Set(all).size, 3);
    const past = await page(`customerId=${other}&pageSize=2&pageNumber=3`);
    assert.deepEqual([past.body.data, past.body.count], [[], 3]);
    const combined = await page(`customerId=${other}&walletId=${second.id}&isActive=true`);
    assert.equal(combined.body.count, 2);
    assert.equal((await page(`customerId=${other}&isActive=false`)).body.count, 0);
    const bobs = await as(bob, `/onramp/references?customerId=${other}`);
    assert.deepEqual([bobs.body.data, bobs.body.count], [[], 0]);
    assert.equal((await as(bob, `/onramp/references?walletId=${second.id}`)).body.count, 0);
    assertFieldError(await page('pageNumber=0'), 400, 'pageNumber');
    assertFieldError(await page('pageSize=101'), 400, 'pageSize');
    assertFieldError(await page('pageSize=two'), 400, 'pageSize');
    assertFieldError(await page('isActive=yes'), 400, 'isActive');
  });

  it('a customer pays 1000 ZAR in: the settlement account pays the net amount into the wallet, reported with its payout summary', async () => {
    const { body: ref } = await createReference(alice, { customerId, walletId: wallet.id });
    const before = await balancesOf(wallet.publicKey);
    const paid = await as(alice, `/sandbox/onramp/references/${ref.reference}/receipts`, {
      method: 'POST',
      body: { amount: 1000, currency: 'ZAR' },
    });
    assert.equal(paid.status, 202, JSON.stringify(paid.body));
    const receiptId = paid.body.receiptId;
    const [record] = await recordsOf(alice, receiptId);
    const done = await recordWhen(
      alice,
      record.transactionRecordId as string,
      (r) => r.status === 'completed',
    );
    // 1000 ZAR less 0.8 % + 5.00 ZAR = 987 ZAR, at 18.50 ZAR a USDC, in USDC's 2 decimals (rounded down).
    assert.equal(done.type, 'provider_onramp');
    assert.equal(done.sendAmount, 1000);
    assert.equal(done.sendCurrency, 'ZAR');
    assert.equal(done.fee, 13);
    assert.equal(done.receiveAmount, 53.35);
    assert.equal(done.receiveCurrency, 'USDC');
    assert.equal(done.walletId, wallet.id);
    // Listed among the wallet's records, as any record that pays it.
    assert.ok(
      (await listed(alice, `walletId=${wallet.id}`)).some(
        (r: { transactionRecordId: string }) => r.transactionRecordId === done.transactionRecordId,
      ),
    );
    assert.equal(done.toRef, ref.reference);
    assert.equal(done.connectorId, BESPOKE_CONNECTOR_ID);
    assert.equal(done.quoteId, null);
    const [payment] = (await operationsOf(done.stellarTxHash)).filter((op) => op.type === 'payment');
    assert.deepEqual(
      [payment?.from, payment?.to, (payment as { amount?: string })?.amount],
      [settlement, wallet.publicKey, '53.3500000'],
    );
    assert.equal((await balancesOf(wallet.publicKey)).USDC, plus(before.USDC, '53.35'));
    const deadline = Date.now() + 20_000;
    // biome-ignore lint/suspicious/noExplicitAny: asserted member by member.
    let events: any[] = [];
    while (events.length < 2 && Date.now() < deadline) {
      events = receiver.received
        .map((d) => JSON.parse(d.body))
        .filter((e) => e.data.transactionRecordId === done.transactionRecordId);
      await pause(50);
    }
    assert.deepEqual(events.map((e) => e.type).sort(), ['payment.completed', 'payment.initiated']);
    for (const event of events)
      assert.deepEqual(event.metaData.data, {
        netAmount: 53.35,
        totalFees: 13,
        feeCurrency: 'ZAR',
        assetCode: 'USDC',
        reference: ref.reference,
      });
  });

  it('a receipt reported many times (new notification ids, at once and again later) pays exactly once', async () => {
    const { body: ref } = await createReference(alice, { customerId, walletId: second.id });
    const before = await balancesOf(second.publicKey);
    const receipt = receiptOn(ref.reference, '500');
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => notifyReceipt(receipt)));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200],
    );
    const mine = () => recordsOf(alice, receipt.receiptId);
    const records = await mine();
    assert.equal(records.length, 1);
    const done = await recordWhen(alice, records[0].transactionRecordId, (r) => r.status === 'completed');
    assert.equal((await notifyReceipt(receipt)).status, 200);
    assert.equal((await mine()).length, 1);
    // (500 − 9.00) / 18.50, rounded down to USDC's 2 decimals: paid once.
    assert.equal(done.receiveAmount, 26.54);
    await pause(1000);
    assert.equal((await balancesOf(second.publicKey)).USDC, plus(before.USDC, '26.54'));
  });

  it('a notification signed with another connector’s secret, or for a reference of no one, pays no wallet: the latter is held until resolved', async () => {
    const { body: ref } = await createReference(alice, { customerId, walletId: wallet.id });
    const other = (await findProviderSecret('sandbox', RAMP_CONNECTOR_ID)) as Buffer;
    const forged = receiptOn(ref.reference, '100');
    assert.equal((await notifyReceipt(forged, other)).status, 401);
    // The other connector's own route, with its own secret, does not reach this connector's reference.
    assert.equal((await notifyReceipt(forged, other, RAMP_CONNECTOR_ID)).status, 200);
    const stray = receiptOn('PG0000000001', '100');
    assert.equal((await notifyReceipt(stray)).status, 200);
    const held = (await listHeldReceipts('sandbox', BESPOKE_CONNECTOR_ID)).find(
      (r) => r.receiptId === stray.receiptId,
    );
    assert.equal(held?.reason, 'no such reference');
    await pause(500);
    const ids = (await receiptsOf(alice)).map((r) => r.idempotencyKey);
    assert.ok(!ids.includes(forged.receiptId) && !ids.includes(stray.receiptId));
    // Platform operations pay it to the reference it was meant for, naming its tenant: once. Naming
    // another tenant, alice's reference is not found.
    const aliceTenant = { environment: 'sandbox' as const, associationId: alice.tenant.associationId };
    const bobTenant = { environment: 'sandbox' as const, associationId: bob.tenant.associationId };
    await assert.rejects(
      resolveReceipt(bobTenant, BESPOKE_CONNECTOR_ID, stray.receiptId, { reference: ref.reference }),
      new RegExp(
        `No active reference ${ref.reference} of ${BESPOKE_CONNECTOR_ID} of association ${bob.tenant.associationId}`,
      ),
    );
    const before = await balancesOf(wallet.publicKey);
    const resolved = await resolveReceipt(aliceTenant, BESPOKE_CONNECTOR_ID, stray.receiptId, {
      reference: ref.reference,
    });
    assert.equal(resolved.status, 'credited');
    await assert.rejects(
      resolveReceipt(aliceTenant, BESPOKE_CONNECTOR_ID, stray.receiptId, { reference: ref.reference }),
    );
    const record = await recordWhen(
      alice,
      resolved.transactionRecordId as string,
      (r) => r.status === 'completed',
    );
    assert.equal((await balancesOf(wallet.publicKey)).USDC, plus(before.USDC, String(record.receiveAmount)));
  });

  it('another tenant cannot pay into, nor see, a reference that is not its own', async () => {
    const { body: ref } = await createReference(alice, { customerId, walletId: wallet.id });
    const paid = await as(bob, `/sandbox/onramp/references/${ref.reference}/receipts`, {
      method: 'POST',
      body: { amount: 100, currency: 'ZAR' },
    });
    assert.equal(paid.status, 404);
    assert.equal((await as(bob, '/onramp/references')).body.data.length, 0);
  });

  it('a receipt on a deactivated reference is held, not paid; reactivated, the next receipt pays; all or none', async () => {
    const [{ body: a }, { body: b }] = await Promise.all([
      createReference(alice, { customerId, walletId: second.id }),
      createReference(alice, { customerId, walletId: second.id }),
    ]);
    const { body: bobs } = await createReference(bob, { customerId: bobCustomer, walletId: bobWallet.id });
    const activate = (caller: Caller, references: unknown[]) =>
      as(caller, '/onramp/references', { method: 'PUT', body: { references } });
    // Another tenant's reference in the list: a 404 naming it, and nothing changes.
    const mixed = await activate(alice, [
      { reference: a.reference, isActive: false },
      { reference: bobs.reference, isActive: false },
    ]);
    assertFieldError(mixed, 404, 'references.1.reference');
    assert.equal(
      (await as(alice, `/onramp/references?customerId=${customerId}&isActive=false`)).body.count,
      0,
    );
    assert.equal((await as(bob, '/onramp/references?isActive=false')).body.count, 0);
    assertFieldError(
      await activate(alice, [
        { reference: a.reference, isActive: false },
        { reference: a.reference, isActive: true },
      ]),
      400,
      'references.1.reference',
    );
    const paused = await activate(alice, [
      { reference: a.reference, isActive: false },
      { reference: b.reference, isActive: true },
    ]);
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    assert.deepEqual(
      paused.body.data.map((r: { reference: string; isActive: boolean }) => [r.reference, r.isActive]),
      [
        [a.reference, false],
        [b.reference, true],
      ],
    );
    const before = await balancesOf(second.publicKey);
    const held = receiptOn(a.reference, '200');
    assert.equal((await notifyReceipt(held)).status, 200);
    const heldItem = (await listHeldReceipts('sandbox', BESPOKE_CONNECTOR_ID)).find(
      (r) => r.receiptId === held.receiptId,
    );
    assert.equal(heldItem?.reason, 'the reference is inactive');
    assert.equal(heldItem?.associationId, alice.tenant.associationId);
    // alice's receipt is not bob's to take, to his own reference or as returned.
    const bobTenant = { environment: 'sandbox' as const, associationId: bob.tenant.associationId };
    for (const resolution of [{ reference: bobs.reference }, { returned: 'refunded by the provider' }])
      await assert.rejects(
        resolveReceipt(bobTenant, BESPOKE_CONNECTOR_ID, held.receiptId, resolution),
        /arrived on a reference of another association/,
      );
    assert.equal((await activate(alice, [{ reference: a.reference, isActive: true }])).status, 200);
    // The held receipt stays held (platform operations decide it); a new one pays.
    assert.equal((await notifyReceipt(held)).status, 200);
    const paid = receiptOn(a.reference, '200');
    assert.equal((await notifyReceipt(paid)).status, 200);
    const records = await recordsOf(alice, held.receiptId, paid.receiptId);
    assert.deepEqual(
      records.map((r) => r.idempotencyKey),
      [paid.receiptId],
    );
    const done = await recordWhen(
      alice,
      records[0]?.transactionRecordId as string,
      (r) => r.status === 'completed',
    );
    assert.equal((await balancesOf(second.publicKey)).USDC, plus(before.USDC, String(done.receiveAmount)));
  });

  it('moves a reference only to another own Verified wallet; receipts then pay the new one', async () => {
    const { body: ref } = await createReference(alice, { customerId, walletId: wallet.id });
    const move = (caller: Caller, walletId: string, reference = ref.reference) =>
      as(caller, `/onramp/references/${reference}`, { method: 'PUT', body: { walletId } });
    assertFieldError(await move(alice, bobWallet.id), 404, 'walletId');
    assert.equal((await move(bob, bobWallet.id)).status, 404);
    const eurc = await ownWallet(alice, 'EURC');
    assertFieldError(await move(alice, eurc.id), 422, 'walletId');
    const moved = await move(alice, second.id);
    assert.equal(moved.status, 200, JSON.stringify(moved.body));
    assert.equal(moved.body.walletId, second.id);
    assert.equal(
      (await as(alice, `/onramp/references?walletId=${second.id}&customerId=${customerId}`)).body.data.some(
        (r: { reference: string }) => r.reference === ref.reference,
      ),
      true,
    );
    const before = await balancesOf(second.publicKey);
    const receipt = receiptOn(ref.reference, '100');
    assert.equal((await notifyReceipt(receipt)).status, 200);
    const [record] = await recordsOf(alice, receipt.receiptId);
    assert.equal(record?.walletId, second.id);
    const done = await recordWhen(
      alice,
      record?.transactionRecordId as string,
      (r) => r.status === 'completed',
    );
    assert.equal((await balancesOf(second.publicKey)).USDC, plus(before.USDC, String(done.receiveAmount)));
  });

  it('the receipt helper caps one receipt at 100,000 and an association at its daily cap (3,000 on the test stack): 422s naming amount', async () => {
    const carol = await newCaller();
    const [carolWallet, carolCustomer] = await Promise.all([
      ownWallet(carol, 'USDC'),
      verifiedCustomer(carol),
    ]);
    const { body: ref } = await createReference(carol, {
      customerId: carolCustomer,
      walletId: carolWallet.id,
    });
    const receipt = (amount: number) =>
      as(carol, `/sandbox/onramp/references/${ref.reference}/receipts`, {
        method: 'POST',
        body: { amount, currency: 'ZAR' },
      });
    // The drain: 1,000,000,000 ZAR in one receipt.
    for (const amount of [100_000.01, 1_000_000_000])
      assertFieldError(await receipt(amount), 422, 'amount', /above the cap of 100000 a call/);
    assert.equal((await receipt(2000)).status, 202);
    const past = await receipt(1000.01);
    assertFieldError(past, 422, 'amount', /daily cap of 3000/);
    assert.match(
      past.body.detail,
      /1000\.01 ZAR would take this association past its sandbox cap of 3000 a day/,
    );
  });
});
