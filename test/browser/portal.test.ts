// The business portal in a real browser (Debian's chromium, playwright-core) against the real local
// stack: a person signs in with the code their inbox got, every page renders with no console error and
// no serious or critical axe-core violation (its screenshot goes to docs/portal/), a payment's page shows
// its ledger transaction, a payout's page its timeline and the attempts of its webhook deliveries, a
// statement downloaded equals the API's CSV, a webhook delivery is resent, a test event is sent from the
// Webhooks page and its attempt shown; a viewer is refused by the server; a signed-out browser and another
// tenant's person see nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { as, type Caller, newCaller } from '../support/api.ts';
import { seriousViolations, withBrowser } from '../support/browser.ts';
import { recordWhen, settled } from '../support/payments.ts';
import { addPerson } from '../support/people.ts';
import {
  asSignedIn,
  bodySentShows,
  failedThenDelivered,
  portalTenant,
  portalUrl,
  screenshots,
  signedInBrowser,
  visit,
} from '../support/portal-pages.ts';
import { heldOfframp } from '../support/ramps.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

describe('the business portal in Chromium', () => {
  let caller: Caller;
  let owner: { email: string };
  let browser: BrowserContext;
  let page: Page;
  let errors: string[];
  let receiver: Receiver;
  let wallet: string;
  let payment: string;
  let payout: string;
  let webhookId: string;

  beforeAll(async () => {
    receiver = await startReceiver();
    // The first attempt of each event fails, every later one succeeds.
    const seen = new Set<string>();
    receiver.answer = (_, delivery) => {
      const { id } = JSON.parse(delivery.body);
      if (seen.has(id)) return { status: 204 };
      seen.add(id);
      return { status: 500, body: 'not yet' };
    };
    ({ caller, owner, wallet, payment, webhookId } = await portalTenant(receiver, 250, 42.5));
    await settled(caller, payment);
    // A payout through the API, held at the provider until the sandbox completes it.
    ({ id: payout } = await heldOfframp(caller, wallet, 'HOLD-PORTAL'));
    const completed = await as(caller, `/sandbox/transactions/${payout}/complete`, { method: 'POST' });
    assert.equal(completed.status, 202, JSON.stringify(completed.body));
    await recordWhen(caller, payout, (r) => r.status === 'completed');
    await as(caller, '/beneficiaries', {
      method: 'POST',
      body: { individual: { firstName: 'Thandi', lastName: 'Nkosi' } },
    });
    // Each payment's payment.completed, failed once and then delivered.
    await receiver.until(4);
    ({ browser, page, errors } = await signedInBrowser(owner.email));
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });

  it('renders every page with no console error and no serious or critical axe-core violation', async () => {
    await visit(page, '#/home', 'Home', 'home');
    await visit(page, '#/payments', 'Payments', 'payments');
    await visit(page, '#/wallets', 'Wallets', 'wallets');
    await visit(page, `#/wallets/${wallet}`, 'Wallet: Treasury', 'wallet-statement');
    await visit(page, '#/beneficiaries', 'Beneficiaries', 'beneficiaries');
    await visit(page, '#/webhooks', 'Webhooks', 'webhooks');
    await visit(page, `#/webhooks/${webhookId}`, 'Webhook endpoint');
    await visit(page, '#/team', 'Team & audit', 'team');
    assert.deepEqual(errors, []);
  });

  it('shows a payment with its ledger transaction, ledger and network fee in its timeline', async () => {
    const record = (await as(caller, `/transactions/${payment}`)).body;
    const { ledgerTransaction } = record.timeline.find(
      (step: { event: string }) => step.event === 'ledger_landed',
    );
    await visit(page, `#/payments/${payment}`, 'Payment');
    const landed = page.locator('ol.timeline > li').filter({ hasText: 'Landed on the ledger' });
    await landed.waitFor();
    assert.match(
      (await landed.textContent()) ?? '',
      new RegExp(
        `Transaction ${record.stellarTxHash} · ledger ${ledgerTransaction.ledger} · network fee ${ledgerTransaction.fee} XLM`,
      ),
    );
    assert.deepEqual(errors, []);
  });

  it('shows a payout made through the API: its timeline, ramp details and webhook attempts', async () => {
    const record = (await as(caller, `/transactions/${payout}`)).body;
    await visit(page, `#/payments/${payout}`, 'Payment');
    const timeline = page.locator('ol.timeline > li');
    // Time-ordered, as the API has it: accepted, the ledger leg, the provider's moves, completed.
    await timeline.filter({ hasText: 'Provider reported completed' }).waitFor();
    const steps = await timeline.allTextContents();
    assert.equal(steps.length, record.timeline.length);
    assert.match(steps[0] ?? '', /Accepted/);
    assert.match(steps[1] ?? '', new RegExp(`Ledger leg landed.*${record.stellarTxHash}`));
    assert.match(steps.at(-1) ?? '', /Provider reported completed/);
    await page.getByText(record.externalReference).first().waitFor();
    await page.getByText(record.quoteId).first().waitFor();
    // The payment.completed delivery about it: failed once, then delivered, with the body it sent.
    const row = page.getByRole('row').filter({ hasText: 'payment.completed' });
    await failedThenDelivered(row);
    await bodySentShows(row, `"transactionRecordId": "${payout}"`);
    assert.deepEqual(await seriousViolations(page), []);
    await page.screenshot({ path: `${screenshots}payment.png`, fullPage: true });
    assert.deepEqual(errors, []);
  });

  it('downloads a statement that equals the API’s CSV', async () => {
    await visit(page, `#/wallets/${wallet}`, 'Wallet: Treasury');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const saved = readFileSync((await download.path()) as string, 'utf8');
    const day = (n: number) => new Date(Date.now() - n * 86400_000).toISOString().slice(0, 10);
    const query = `walletId=${wallet}&assetCode=USDC&startDate=${day(30)}&endDate=${day(0)}&limit=100`;
    const api = await fetch(`${process.env.TEST_BASE_URL}/statements/transactions?${query}`, {
      headers: {
        'x-service-auth': caller.tenant.apiKey,
        authorization: `Bearer ${caller.token}`,
        accept: 'text/csv',
      },
    });
    assert.equal(saved, await api.text());
    assert.match(saved, /42\.5/);
  });

  it('shows a delivery that failed and then succeeded, attempt by attempt, and resends it', async () => {
    await visit(page, `#/webhooks/${webhookId}`, 'Webhook endpoint');
    await failedThenDelivered(page);
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Resend' }).first().click();
    await page.getByRole('status').filter({ hasText: 'Queued again.' }).waitFor();
    await receiver.until(before + 1);
    assert.deepEqual(errors, []);
  });

  it('sends a test event from the Webhooks page and shows its attempt', async () => {
    await visit(page, '#/webhooks', 'Webhooks');
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'Test event queued' }).waitFor();
    const [sent] = (await receiver.until(before + 1)).slice(before);
    assert.equal(JSON.parse(sent?.body ?? '{}').type, 'webhook.test');
    await page.screenshot({ path: `${screenshots}webhooks.png` });
    await page.getByRole('link', { name: receiver.url }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhook endpoint' }).waitFor();
    // The page reads again while a delivery is pending: the attempt shows without a reload.
    const row = page.getByRole('row').filter({ hasText: 'webhook.test' });
    await failedThenDelivered(row);
    await bodySentShows(row, '"type": "webhook.test"');
    assert.deepEqual(await seriousViolations(page), []);
    await page.screenshot({ path: `${screenshots}webhook-deliveries.png`, fullPage: true });
    assert.deepEqual(errors, []);
  });

  it('a viewer is refused by the server, not by a hidden button', async () => {
    const { email } = await addPerson(caller.tenant, 'viewer');
    await asSignedIn(email, async ({ page: viewer }) => {
      await visit(viewer, `#/wallets/${wallet}`, 'Wallet: Treasury');
      await viewer.getByRole('button', { name: /Fund 100 USDC/ }).click();
      await viewer
        .getByRole('alert')
        .filter({ hasText: 'Your role (viewer) cannot do this: it needs developer.' })
        .waitFor();
      await visit(viewer, '#/team', 'Team & audit', 'viewer-refused', 'expected');
      await viewer.getByRole('alert').first().waitFor();
      assert.equal(await viewer.getByRole('cell', { name: owner.email }).count(), 0);
    });
  });

  it('a signed-out browser sees the sign-in page and nothing of the tenant', async () => {
    await withBrowser(
      async (stranger) => {
        const visitor = await stranger.newPage();
        await visitor.goto(`${portalUrl()}#/payments/${payment}`);
        await visitor.getByRole('heading', { name: 'Sign in to the business portal' }).waitFor();
        assert.deepEqual(await seriousViolations(visitor), []);
        await visitor.screenshot({ path: `${screenshots}sign-in-phone.png` });
        assert.equal(await visitor.getByText(payment).count(), 0);
      },
      { width: 390, height: 844 },
    );
  });

  it('another tenant’s person sees nothing of this tenant', async () => {
    const other = await newCaller();
    const { email } = await addPerson(other.tenant, 'owner');
    await asSignedIn(email, async ({ page: outsider }) => {
      await outsider.goto(`${portalUrl()}#/payments/${payment}`);
      await outsider.getByRole('alert').filter({ hasText: 'Not Found' }).waitFor();
      await visit(outsider, '#/wallets', 'Wallets');
      assert.equal(await outsider.getByText('Treasury').count(), 0);
    });
  });
});
