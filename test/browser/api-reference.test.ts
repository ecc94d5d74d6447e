// The /docs page as a newcomer first sees it, in a real browser (Debian's chromium, playwright-core)
// against the local stack: it opens with the quick start, the first operation is on the first screen
// (1280 × 800), no console error, and its screenshot is docs/api-reference.png, looked at in review.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { consoleErrors, newBrowser } from '../support/browser.ts';

const docsUrl = () => (process.env.TEST_BASE_URL ?? '').replace(/\/v1$/, '/docs');
const screenshot = fileURLToPath(new URL('../../docs/api-reference.png', import.meta.url));

describe('the /docs page in Chromium', () => {
  let browser: BrowserContext;

  beforeAll(async () => {
    browser = await newBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('opens with the quick start, and its first operation is on the first screen', async () => {
    const page = await browser.newPage();
    const errors = consoleErrors(page);
    await page.goto(docsUrl());
    const quickStart = page.getByText('Quick start', { exact: false }).first();
    await quickStart.waitFor();
    const firstOperation = page.locator('.opblock').first();
    await firstOperation.waitFor();
    const box = await firstOperation.boundingBox();
    assert.ok(box, 'the first operation is laid out');
    assert.ok(box.y < 800, `the first operation starts at ${box.y} px, below the first screen`);
    for (const internal of ['Powertools', 'middy', 'SQS', 'DynamoDB'])
      assert.equal(await page.getByText(internal, { exact: false }).count(), 0, `the page names ${internal}`);
    await page.screenshot({ path: screenshot });
    assert.deepEqual(errors, []);
  });
});
