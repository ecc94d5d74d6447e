// Provider on-ramp receipts (issue #35 §5): a notification taken once however many copies of it arrive at
// the same moment.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { findReceiptItem, type ReceiptItem } from '../../lib/onramp/receipt-records.ts';
import { providerNotificationPath } from '../../lib/providers/notification-path.ts';
import { findProviderSecret } from '../../lib/providers/repo.ts';
import { SIGNATURE_HEADER, signNotification } from '../../lib/providers/signature.ts';
import { as, type Caller, newCaller, send } from '../support/api.ts';
import { BESPOKE_CONNECTOR_ID, verifiedCustomer } from '../support/fixtures.ts';
import { listed, type OwnWallet, ownWallet } from '../support/payments.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
});
