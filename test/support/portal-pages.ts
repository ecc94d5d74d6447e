// The business portal's pages as the browser tests use them: where the portal is, signing a person in
// through the page with the code their inbox got, and opening a page to check it as a user and axe-core
// would (test/browser/portal.test.ts, portal-developers.test.ts).
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { seriousViolations } from './browser.ts';
import { codesSentTo } from './people.ts';

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
