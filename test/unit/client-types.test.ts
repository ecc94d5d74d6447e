// The typed client's request types as a new user meets them: generated from the current document by
// scripts/client-types.ts, then a probe compiled with `tsc --strict`. A misspelled member must fail
// (a request type is exact), a body that leaves out a member with a default must compile (request types
// are the input side), and a response keeps its defaulted members required (the output side).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, it } from 'vitest';
import { openApiDocument } from '../../openapi/document.ts';
import { clientTypes } from '../../scripts/client-types.ts';

const tsc = new URL('../../node_modules/.bin/tsc', import.meta.url).pathname;
const run = promisify(execFile);

/** tsc --strict's diagnostics for `probe` against the generated types ('' when it compiles). */
async function compile(probe: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'client-types-'));
  writeFileSync(join(dir, 'api.ts'), await clientTypes(openApiDocument() as Record<string, unknown>));
  writeFileSync(join(dir, 'probe.ts'), `import type { components } from './api.ts';\n${probe}\n`);
  const args = ['--strict', '--noEmit', '--allowImportingTsExtensions', '--target', 'es2022', '--module'];
  return run(tsc, [...args, 'nodenext', join(dir, 'probe.ts')]).then(
    () => '',
    (error: { stdout: string }) => error.stdout,
  );
}

type Schemas = 'CreateWalletRequest' | 'CreateBeneficiaryRequest';
const body = (schema: Schemas, literal: string) =>
  `export const body: components['schemas']['${schema}'] = ${literal};`;

describe('generated request types', () => {
  it('refuse a misspelled member of a wallet request', { timeout: 60_000 }, async () => {
    const out = await compile(
      body('CreateWalletRequest', "{ walletName: 'T', assetCode: 'USDC', ownAcount: true }"),
    );
    assert.match(out, /'ownAcount' does not exist in type/);
  });

  it('refuse a member the API lists as read-only', { timeout: 60_000 }, async () => {
    const out = await compile(
      body('CreateBeneficiaryRequest', "{ individual: { firstName: 'A', lastName: 'B' }, id: 'x' }"),
    );
    assert.match(out, /'id' does not exist in type/);
  });

  it('take bodies without the members that have defaults; responses keep them', {
    timeout: 60_000,
  }, async () => {
    const out = await compile(
      [
        body('CreateBeneficiaryRequest', "{ individual: { firstName: 'A', lastName: 'B' } }"),
        "export const wallet: components['schemas']['CreateWalletRequest'] = { walletName: 'T', assetCode: 'USDC', ownAccount: true };",
        // A response's tags are always there: reading them needs no check.
        "export const count = (b: components['schemas']['Beneficiary']) => b.tags.length;",
      ].join('\n'),
    );
    assert.equal(out, '');
  });
});
