// The business portal's pages as the browser tests use them: the tenant they show, where the portal is,
// signing a person in through the page with the code their inbox got (in a browser of their own), opening
// a page to check it as a user and axe-core would, and a webhook delivery's attempts as a page lists them
// (test/browser/portal.test.ts, portal-developers.test.ts).
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { as, type Caller, newCaller } from './api.ts';
import { consoleErrors, newBrowser, seriousViolations } from './browser.ts';
import { accepted, ownWallet } from './payments.ts';
import { addPerson, codesSentTo } from './people.ts';
import type { Receiver } from './webhook-receiver.ts';

/** The tenant a portal test looks at, as its owner. */
export interface PortalTenant {
  caller: Caller;
  owner: { email: string };
  /** The wallet "Treasury", funded, which paid `payment` to the wallet "Payroll". */
  wallet: string;
  payment: string;
  /** A registration for payment.completed to `receiver`, made before the payment. */
  webhookId: string;
}

/**
 * Acme Trading's sandbox tenant with an owner, two wallets and a payment between them, and a webhook to
 * `receiver` (whose answers the test sets first) that the payment's event goes to.
 */
export async function portalTenant(receiver: Receiver, funds: number, amount: number): Promise<PortalTenant> {
  const caller = await newCaller({ name: 'Acme Trading (sandbox)' });
  const owner = await addPerson(caller.tenant, 'owner');
  const [from, to] = await Promise.all([
    ownWallet(caller, 'USDC', funds, 'Treasury'),
    ownWallet(caller, 'USDC', undefined, 'Payroll'),
  ]);
  const webhook = await as(caller, '/webhooks', {
    method: 'POST',
    body: { url: receiver.url, events: ['payment.completed'] },
  });
  assert.equal(webhook.status, 201, JSON.stringify(webhook.body));
  const payment = await accepted(caller, 'p2p/own', {
    transactionId: crypto.randomUUID(),
    walletId: from.id,
    destinationWalletId: to.id,
    sendingAssetCode: 'USDC',
    amount,
  });
  return { caller, owner, wallet: from.id, payment, webhookId: webhook.body.id };
}

export const portalUrl = () => (process.env.TEST_BASE_URL ?? '').replace(/\/v1$/, '/portal/');
export const screenshots = fileURLToPath(new URL('../../docs/portal/', import.meta.url));

/** Signs `email` in on the sign-in page already shown, reading the code from the SES emulator. */
export async function signInHere(page: Page, email: string): Promise<void> {
  await page.getByLabel('Work email').fill(email);
  const before = (await codesSentTo(email)).length;
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.getByLabel('Code').waitFor();
  const codes = await codesSentTo(email);
  assert.equal(codes.length, before + 1);
  await page.getByLabel('Code').fill(codes.at(-1) as string);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Portal' }).waitFor();
}

/** Opens the portal and signs `email` in, as they would. */
export async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(portalUrl());
  await signInHere(page, email);
}

/** A signed-in person's page in a browser of its own, and its console errors from then on. */
export interface SignedIn {
  browser: BrowserContext;
  page: Page;
  errors: string[];
}

/** A browser of its own (allowed `permissions`) with `email` signed in; the test closes it. */
export async function signedInBrowser(
  email: string,
  options: { viewport?: { width: number; height: number }; permissions?: string[] } = {},
): Promise<SignedIn> {
  const browser = await newBrowser(options.viewport);
  try {
    if (options.permissions) await browser.grantPermissions(options.permissions);
    const page = await browser.newPage();
    await signIn(page, email);
    return { browser, page, errors: consoleErrors(page) };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

/** Runs `use` with `email` signed in, in a browser of its own closed afterwards. */
export async function asSignedIn<T>(
  email: string,
  use: (signedIn: SignedIn) => Promise<T>,
  viewport?: { width: number; height: number },
): Promise<T> {
  const signedIn = await signedInBrowser(email, { viewport });
  try {
    return await use(signedIn);
  } finally {
    await signedIn.browser.close();
  }
}

/** Opens `hash` (loads it again when it is the page shown), waits for its heading and for its data. */
export async function open(page: Page, hash: string, heading: string | RegExp): Promise<void> {
  const url = `${portalUrl()}${hash}`;
  // A link to the page already shown changes nothing (no hashchange): reload to read its data again.
  if (page.url() === url) await page.reload();
  else await page.goto(url);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.getByText('Loading…').first().waitFor({ state: 'detached' });
}

/** Opens `hash` and checks it as a user and axe-core would; its screenshot is `shot`, if named. */
export async function visit(
  page: Page,
  hash: string,
  heading: string | RegExp,
  shot?: string,
  problems: 'none' | 'expected' = 'none',
): Promise<void> {
  await open(page, hash, heading);
  assert.deepEqual(await seriousViolations(page), [], `${hash}: axe-core`);
  if (problems === 'none')
    assert.deepEqual(await page.getByRole('alert').allTextContents(), [], `${hash}: a problem shown`);
  if (shot) await page.screenshot({ path: `${screenshots}${shot}.png` });
}

/** Waits until `scope` lists a delivery's attempts: the first answered 500, the second 204. */
export async function failedThenDelivered(scope: Page | Locator): Promise<void> {
  for (const attempt of [/^#1: 500, \d+ ms/, /^#2: 204, \d+ ms/])
    await scope.getByRole('listitem').filter({ hasText: attempt }).first().waitFor();
}

/** Opens the body a delivery's `row` sent and waits for it to show `text`. */
export async function bodySentShows(row: Locator, text: string): Promise<void> {
  await row.getByText('Body sent').click();
  await row.getByText(text).waitFor();
}
