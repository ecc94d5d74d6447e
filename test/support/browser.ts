// Debian's chromium driven by playwright-core (Playwright's own browser download cannot work here; the
// test setup installs the package with apt-get when it is missing, scripts/toolchain.mjs), headless, with
// nothing of its own reaching out (no QUIC, no background networking, no component updates, no sync) and
// a fresh profile each launch.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser context with a profile of its own (a signed-out visitor, or one person). */
export async function newBrowser(viewport = { width: 1280, height: 800 }): Promise<BrowserContext> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  return chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport,
    acceptDownloads: true,
  });
}

/** Runs `use` with a browser context of its own, closed afterwards whatever happens. */
export async function withBrowser<T>(
  use: (browser: BrowserContext) => Promise<T>,
  viewport?: { width: number; height: number },
): Promise<T> {
  const browser = await newBrowser(viewport);
  try {
    return await use(browser);
  } finally {
    await browser.close();
  }
}

/** Console errors and uncaught exceptions of a page, from now on. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/** axe-core's serious and critical violations of the page as it is (WCAG 2.1 A/AA rules and best practice). */
export async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
