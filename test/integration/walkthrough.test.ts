// examples/walkthrough.sh (docs/walkthrough.md) run with bash and curl against the test stack, as
// the seeded sandbox tenant: its curl lines cannot rot without this failing.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import { baseUrl } from '../support/api.ts';
import { assertTool, skipWithout } from '../support/tools.ts';

const run = promisify(execFile);
const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const hasCurl = spawnSync('curl', ['--version'], { stdio: 'ignore' }).status === 0;

// Skipped only where curl is not installed, and never under CI.
describe.skipIf(skipWithout(hasCurl))('examples/walkthrough.sh', () => {
  it('runs every step against the stack, as docs/walkthrough.md shows', { timeout: 180_000 }, async () => {
    assertTool('curl', hasCurl);
    // The members `npm start` writes to .local/credentials.json, for the test stack.
    // The tenant's apiKey and clientSecret: removed once the script has read them.
    const dir = mkdtempSync(join(tmpdir(), 'walkthrough-'));
    const credentials = join(dir, 'credentials.json');
    writeFileSync(
      credentials,
      JSON.stringify({
        ...JSON.parse(process.env.TEST_SEEDED_TENANT ?? '{}'),
        baseUrl: baseUrl(),
        horizonUrl: process.env.TEST_HORIZON_URL,
      }),
    );
    // Overrides from the caller's shell would point it elsewhere.
    const { BASE_URL: _base, HORIZON_URL: _horizon, ...env } = process.env;
    const { stdout, stderr } = await run('bash', ['examples/walkthrough.sh'], {
      env: { ...env, CREDENTIALS: credentials },
    })
      .catch((error: { stdout: string; stderr: string }) =>
        assert.fail(`walkthrough.sh failed:\n${error.stderr}\n--- stdout ---\n${error.stdout}`),
      )
      .finally(() => rmSync(dir, { recursive: true, force: true }));
    assert.equal(stderr, '');
    assert.match(stdout, /"transactionType": "B2C"/, 'the seeded tenant is a business: off-ramp B2C');
    assert.match(stdout, /"transactionType": "C2B"/, 'on-ramp from a person to the business: C2B');
    assert.match(stdout, /"balance": "1000.0000000"/);
    assert.match(
      stdout,
      /Payments:[^\n]*\nP2P replay isIdempotent: true\nP2P status: completed\nswap receiveAmount \(EURC\): \d+(\.\d+)?\nlatest transaction type: swap\n/,
      'replayed, settled, swapped, listed',
    );
    assert.match(
      stdout,
      /Off-ramp:[^\n]*\nThandi classification: (Me|Unverified)\noff-ramp status: completed\nheld off-ramp providerStatus: failed\nheld off-ramp status: refund_completed\n/,
      'paid out, failed, refunded',
    );
    assert.match(stdout, /^third-party wallet status: Verified$/m);
    assert.match(stdout, /^funding stellarTxHash: [0-9a-f]{64}$/m);
    // A story, not bare values: every line that starts a line is a step, a label and its value, or the
    // bracket closing a labelled JSON value (whose other lines are indented).
    for (const line of stdout.split('\n').filter((l) => l && !/^\s/.test(l))) {
      assert.match(line, /^(== .+|[A-Za-z][^:]*: .+|[\]}])$/, `unlabelled line: ${line}`);
    }
    assert.match(
      stdout,
      /Statement:[^\n]*\nstatement closingBalance: \d+(\.\d+)?\nstatement CSV: rowId,date,direction,amount,assetCode,runningBalance,/,
      'the statement as JSON and as CSV',
    );
    assert.match(
      stdout,
      /Bespoke connectors:[^\n]*\nBESPOKE connector: za-bank-onramp-zar-usdc\ncustomer status: PENDING\ncustomer status, decided: VERIFIED\nreference: (PG\d{10})\nreceiptId: RCPT-[^\n]+\nreceipt record type: provider_onramp\nreceipt record status: completed\nreceipt record receiveAmount \(USDC\): 53\.35\nreceipt record toRef: \1\ndeposits wallet balances \(ledger\): \[\n {2}\{\n {4}"balance": "53\.3500000",/,
      'a customer verified, a reference, 1,000 ZAR paid in as 53.35 USDC on the ledger',
    );
    assert.match(stdout, /\n== Done\n$/);
  });

  it('is where docs/walkthrough.md’s lines come from', () => {
    const script = new Set(read('examples/walkthrough.sh').split('\n'));
    // The script's own set-up differs (it finds json.mjs beside itself and takes overrides).
    const setUp = /^(json\(\)|C=|B=|HORIZON=)/;
    // The first sh block of each section the script runs.
    for (const section of [
      'Walkthrough',
      'Off-ramp: paid out, and one held that fails and is refunded',
      'Bespoke connectors: a customer, a reference, money in',
    ]) {
      const block = new RegExp(`## ${section}\n[\\s\\S]*?\`\`\`sh\n([\\s\\S]*?)\`\`\``).exec(
        read('docs/walkthrough.md'),
      )?.[1];
      assert.ok(block, `docs/walkthrough.md has a ${section} section with a sh block`);
      for (const line of block.split('\n').filter((l) => l && !setUp.test(l))) {
        assert.ok(script.has(line), `docs/walkthrough.md line not in examples/walkthrough.sh: ${line}`);
      }
    }
  });
});
