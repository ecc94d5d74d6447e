// Provider on-ramp receipts obey the rules every other payment obeys (issue #35 §4, §5): the connector's
// limits (a receipt outside them, or one that would take the month over, is held for platform operations,
// never paid, and concurrent receipts cannot exceed the month together), the customer's standing (a
// rejection deactivates the customer's references and holds what still arrives), a reference bound to the
// caller's own wallets only, an admin CLI that explains a receipt it cannot resolve, and a notification
// taken once however many copies of it arrive at the same moment.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { beforeAll, describe, it } from 'vitest';
import { listHeldReceipts, resolveReceipt } from '../../lib/admin/receipts.ts';
import { findReceiptItem, type ReceiptItem } from '../../lib/onramp-references/receipt-records.ts';
import { findReference, putReference, type ReferenceRecord } from '../../lib/onramp-references/repo.ts';
import { providerNotificationPath } from '../../lib/providers/notification-path.ts';
import { findProviderSecret, takeNotificationId } from '../../lib/providers/repo.ts';
import { SIGNATURE_HEADER, signNotification } from '../../lib/providers/signature.ts';
import { as, assertFieldError, type Caller, newCaller, send } from '../support/api.ts';
import {
  BESPOKE_CONNECTOR_ID,
  bespokeIndividual,
  customerWhen,
  person,
  verifiedCustomer,
} from '../support/fixtures.ts';
import { listed, type OwnWallet, ownWallet, recordWhen } from '../support/payments.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const run = promisify(execFile);

async function referenceFor(caller: Caller, customerId: string, walletId: string): Promise<string> {
  const created = await as(caller, '/onramp/references', {
    method: 'POST',
    body: { connectorId: BESPOKE_CONNECTOR_ID, customerId, walletId },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.reference;
}

/** A receipt notification's body and signature, as the provider sends it. */
async function signedReceipt(receipt: Record<string, unknown>) {
  const key = (await findProviderSecret('sandbox', BESPOKE_CONNECTOR_ID)) as Buffer;
  const body = JSON.stringify({ notificationId: randomUUID(), kind: 'receipt', ...receipt });
  return { body, signature: signNotification(key, body, new Date()) };
}

const deliver = ({ body, signature }: { body: string; signature: string }) =>
  send(providerNotificationPath('sandbox', BESPOKE_CONNECTOR_ID).replace(/^\/v1/, ''), {
    method: 'POST',
    headers: { [SIGNATURE_HEADER]: signature },
    body,
  });

const notifyReceipt = async (receipt: Record<string, unknown>) => deliver(await signedReceipt(receipt));

const receiptOn = (reference: string, amount: string) => ({
  receiptId: `RCPT-${randomUUID()}`,
  reference,
  amount,
  currency: 'ZAR',
});

/** The receipt's item, once it is decided (held or credited). */
async function decided(receiptId: string): Promise<ReceiptItem> {
  for (let i = 0; i < 100; i++) {
    const item = await findReceiptItem('sandbox', BESPOKE_CONNECTOR_ID, receiptId);
    if (item) return item;
    await pause(100);
  }
  throw new Error(`Receipt ${receiptId} was never decided`);
}

/** The caller's provider on-ramp records of these receipts. */
const recordsOf = async (caller: Caller, receiptIds: string[]) =>
  (await listed(caller, 'limit=100&type=provider_onramp')).filter((r) =>
    receiptIds.includes(r.idempotencyKey),
  );

describe('provider receipts obey the rules of every payment', () => {
  let alice: Caller;
  let wallet: OwnWallet;
  let customerId: string;

  beforeAll(async () => {
    alice = await newCaller();
    [wallet, customerId] = await Promise.all([ownWallet(alice, 'USDC'), verifiedCustomer(alice)]);
  });

  it('holds a receipt below the connector’s minimum or above its maximum, naming the limit; within them it pays', async () => {
    const reference = await referenceFor(alice, customerId, wallet.id);
    // The seed connector takes 50 to 1,000,000 ZAR a receipt.
    const small = receiptOn(reference, '20');
    const large = receiptOn(reference, '1500000');
    const fine = receiptOn(reference, '100');
    for (const receipt of [small, large, fine]) assert.equal((await notifyReceipt(receipt)).status, 200);
    const [smallItem, largeItem, fineItem] = (await Promise.all(
      [small, large, fine].map((r) => decided(r.receiptId)),
    )) as [ReceiptItem, ReceiptItem, ReceiptItem];
    assert.equal(smallItem.status, 'held');
    assert.match(smallItem.reason ?? '', /below the TRANSACTION AMOUNT limit .*minimum of 50 ZAR/);
    assert.equal(smallItem.associationId, alice.tenant.associationId);
    assert.equal(largeItem.status, 'held');
    assert.match(largeItem.reason ?? '', /exceeds the TRANSACTION AMOUNT limit .* of 1000000 ZAR/);
    assert.equal(fineItem.status, 'credited');
    const held = (await listHeldReceipts('sandbox', BESPOKE_CONNECTOR_ID)).map((r) => r.receiptId);
    assert.ok(held.includes(small.receiptId) && held.includes(large.receiptId));
    assert.deepEqual(
      (await recordsOf(alice, [small.receiptId, large.receiptId, fine.receiptId])).map(
        (r) => r.idempotencyKey,
      ),
      [fine.receiptId],
    );
  });

  it('concurrent receipts cannot take the month over its limit together: the ones past it are held', {
    timeout: 120_000,
  }, async () => {
    // A tenant of its own: the monthly limit (5,000,000 ZAR) counts this association's receipts only.
    const carol = await newCaller();
    const [carolWallet, carolCustomer] = await Promise.all([
      ownWallet(carol, 'USDC'),
      verifiedCustomer(carol),
    ]);
    const reference = await referenceFor(carol, carolCustomer, carolWallet.id);
    const receipts = Array.from({ length: 7 }, () => receiptOn(reference, '1000000'));
    const answers = await Promise.all(receipts.map(notifyReceipt));
    assert.deepEqual(
      answers.map((a) => a.status),
      receipts.map(() => 200),
    );
    const items = await Promise.all(receipts.map((r) => decided(r.receiptId)));
    const credited = items.filter((i) => i.status === 'credited');
    const held = items.filter((i) => i.status === 'held');
    assert.equal(credited.length, 5, JSON.stringify(items.map((i) => [i.status, i.reason])));
    assert.equal(held.length, 2);
    for (const item of held) assert.match(item.reason ?? '', /MONTHLY AMOUNT limit .* of 5000000 ZAR/);
    const records = await recordsOf(
      carol,
      receipts.map((r) => r.receiptId),
    );
    assert.equal(records.length, 5);
    for (const record of records)
      assert.equal(
        (await recordWhen(carol, record.transactionRecordId, (r) => r.status === 'completed')).status,
        'completed',
      );
    // Platform operations may still pay a held one, having reviewed it: it is paid once.
    const carolTenant = { environment: 'sandbox' as const, associationId: carol.tenant.associationId };
    const resolved = await resolveReceipt(carolTenant, BESPOKE_CONNECTOR_ID, held[0]?.receiptId as string, {
      reference,
    });
    assert.equal(resolved.status, 'credited');
    await recordWhen(carol, resolved.transactionRecordId as string, (r) => r.status === 'completed');
  });

  it('a customer rejected after their reference was made: the references are deactivated and a receipt is held', async () => {
    const rejectedId = await verifiedCustomer(alice);
    const [first, second] = [
      await referenceFor(alice, rejectedId, wallet.id),
      await referenceFor(alice, rejectedId, wallet.id),
    ];
    // New details start the next review, which the provider rejects.
    const path = `/customers/${rejectedId}/connectors/${BESPOKE_CONNECTOR_ID}`;
    const changed = { ...bespokeIndividual, lastName: 'Holdsworth', idNumber: '8001015009087' };
    assert.equal(
      (await as(alice, `${path}/register/individual`, { method: 'PUT', body: changed })).status,
      200,
    );
    const rejected = await as(alice, `/sandbox${path}/decision`, {
      method: 'POST',
      body: { decision: 'REJECTED' },
    });
    assert.equal(rejected.status, 202, JSON.stringify(rejected.body));
    await customerWhen(alice, rejectedId, 'REJECTED');
    const references = async () =>
      (await as(alice, `/onramp/references?customerId=${rejectedId}`)).body.data.map(
        (r: { reference: string; isActive: boolean }) => [r.reference, r.isActive],
      );
    for (let i = 0; i < 50 && (await references()).some(([, active]: [string, boolean]) => active); i++)
      await pause(100);
    assert.deepEqual(
      (await references()).sort(),
      [
        [first, false],
        [second, false],
      ].sort(),
    );
    // Reactivating one for a customer who is not verified is refused, naming it.
    assertFieldError(
      await as(alice, '/onramp/references', {
        method: 'PUT',
        body: { references: [{ reference: first, isActive: true }] },
      }),
      422,
      'references.0.reference',
    );
    const receipt = receiptOn(first, '200');
    assert.equal((await notifyReceipt(receipt)).status, 200);
    const item = await decided(receipt.receiptId);
    assert.equal(item.status, 'held');
    assert.match(item.reason ?? '', /customer .* is REJECTED/);
    assert.equal(item.associationId, alice.tenant.associationId);
    assert.deepEqual(await recordsOf(alice, [receipt.receiptId]), []);
  });

  it('binds a reference only to one of the caller’s own wallets: a Verified third party’s is refused, naming walletId', async () => {
    const thirdParty = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Third party', assetCode: 'USDC', metadata: person },
    });
    assert.equal(thirdParty.status, 201, JSON.stringify(thirdParty.body));
    const verified = await as(alice, `/sandbox/wallets/${thirdParty.body.id}/kyc`, {
      method: 'POST',
      body: { decision: 'Verified' },
    });
    assert.equal(verified.body.status, 'Verified');
    const body = { connectorId: BESPOKE_CONNECTOR_ID, customerId, walletId: thirdParty.body.id };
    assertFieldError(
      await as(alice, '/onramp/references', { method: 'POST', body }),
      422,
      'walletId',
      /third party/,
    );
    const reference = await referenceFor(alice, customerId, wallet.id);
    assertFieldError(
      await as(alice, `/onramp/references/${reference}`, {
        method: 'PUT',
        body: { walletId: thirdParty.body.id },
      }),
      422,
      'walletId',
      /third party/,
    );
  });

  it('a receipt on a reference bound to a third party’s wallet before that was refused is held, not paid', async () => {
    const created = await as(alice, '/wallets', {
      method: 'POST',
      body: { walletName: 'Third party', assetCode: 'USDC', metadata: person },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await as(alice, `/sandbox/wallets/${created.body.id}/kyc`, {
      method: 'POST',
      body: { decision: 'Verified' },
    });
    // As POST /onramp/references wrote it before it refused a third party's wallet.
    const own = await findReference(
      { environment: 'sandbox', associationId: alice.tenant.associationId },
      await referenceFor(alice, customerId, wallet.id),
    );
    const reference = `PG${String(Date.now()).slice(-10)}`;
    const at = new Date().toISOString();
    assert.equal(
      await putReference({
        ...(own as ReferenceRecord),
        reference,
        walletId: created.body.id,
        createdAt: at,
        updatedAt: at,
      }),
      'written',
    );
    const receipt = receiptOn(reference, '100');
    assert.equal((await notifyReceipt(receipt)).status, 200);
    const item = await decided(receipt.receiptId);
    assert.equal(item.status, 'held');
    assert.match(item.reason ?? '', /third party/);
    assert.deepEqual(await recordsOf(alice, [receipt.receiptId]), []);
  });

  it('the admin CLI answers a receipt that is not held with one line and a non-zero exit', async () => {
    const reference = await referenceFor(alice, customerId, wallet.id);
    const paid = receiptOn(reference, '100');
    assert.equal((await notifyReceipt(paid)).status, 200);
    assert.equal((await decided(paid.receiptId)).status, 'credited');
    for (const receiptId of [paid.receiptId, `RCPT-${randomUUID()}`]) {
      const failed = await run(
        process.execPath,
        [
          'scripts/admin.ts',
          'receipts',
          'resolve',
          '--environment',
          'sandbox',
          '--association',
          alice.tenant.associationId,
          '--connector',
          BESPOKE_CONNECTOR_ID,
          '--receipt',
          receiptId,
          '--returned',
          'refunded by the bank',
        ],
        { env: process.env },
      ).then(
        () => assert.fail('resolved a receipt that is not held'),
        (error: { code: number; stderr: string }) => error,
      );
      assert.equal(failed.code, 1);
      assert.equal(failed.stderr.split('\n').filter(Boolean).length, 1, failed.stderr);
      assert.doesNotMatch(failed.stderr, /Unexpected error/);
      assert.ok(failed.stderr.includes(receiptId), failed.stderr);
      assert.match(failed.stderr, /is credited, not held|No receipt/);
    }
  });

  it('12 copies of one signed notification at the same moment: one is processed, the rest are replays (401)', async () => {
    const reference = await referenceFor(alice, customerId, wallet.id);
    const receipt = receiptOn(reference, '100');
    const signed = await signedReceipt(receipt);
    const answers = await Promise.all(Array.from({ length: 12 }, () => deliver(signed)));
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [200, ...Array.from({ length: 11 }, () => 401)]);
    for (const answer of answers.filter((a) => a.status === 401))
      assert.match(answer.body.detail, /received before/);
    assert.equal((await decided(receipt.receiptId)).status, 'credited');
    assert.equal((await recordsOf(alice, [receipt.receiptId])).length, 1);
  });

  it('a notification whose taker died applying it is applied by the provider’s retry; one being applied now is a replay', async () => {
    const reference = await referenceFor(alice, customerId, wallet.id);
    const [orphaned, inFlight] = [receiptOn(reference, '100'), receiptOn(reference, '100')];
    const [first, second] = await Promise.all([signedReceipt(orphaned), signedReceipt(inFlight)]);
    const idOf = (signed: { body: string }) => JSON.parse(signed.body).notificationId as string;
    // Taken two minutes ago by a function that never finished (a crash, a timeout), and just now by one
    // still applying it.
    const take = (signed: { body: string }, at: Date) =>
      takeNotificationId('sandbox', BESPOKE_CONNECTOR_ID, idOf(signed), at);
    assert.equal(await take(first, new Date(Date.now() - 120_000)), true);
    assert.equal(await take(second, new Date()), true);
    assert.equal((await deliver(first)).status, 200);
    assert.equal((await decided(orphaned.receiptId)).status, 'credited');
    assert.equal((await deliver(first)).status, 401);
    const replay = await deliver(second);
    assert.equal(replay.status, 401);
    await pause(300);
    assert.equal(
      await findReceiptItem('sandbox', BESPOKE_CONNECTOR_ID, inFlight.receiptId),
      undefined,
      'the copy of a notification being applied applies nothing',
    );
  });
});
