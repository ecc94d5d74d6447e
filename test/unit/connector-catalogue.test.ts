// The catalogue file's rules, and transaction-type parsing, without a table.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { connectorCatalogueFile } from '../../lib/connectors/catalogue-schema.ts';
import { listConnectorsQuery } from '../../lib/connectors/schema.ts';
import { transactionTypeOf, transactionTypeParam } from '../../lib/connectors/transaction-types.ts';

// biome-ignore lint/suspicious/noExplicitAny: catalogue entries are edited member by member below.
const seed: any[] = JSON.parse(readFileSync(new URL('../../seed/connectors.json', import.meta.url), 'utf8'));
const clone = () => structuredClone(seed);

function issuesOf(input: unknown): string[] {
  const result = connectorCatalogueFile.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
}

describe('connector catalogue file', () => {
  it('accepts the seed catalogue: six countries, both directions, both flows, BANK, MOMO and CASH', () => {
    assert.deepEqual(issuesOf(seed), []);
    assert.ok(new Set(seed.map((c) => c.region.iso)).size >= 6);
    assert.deepEqual([...new Set(seed.map((c) => c.direction))].sort(), ['OFF_RAMP', 'ON_RAMP']);
    assert.deepEqual([...new Set(seed.map((c) => c.flow))].sort(), ['BESPOKE', 'STANDARD']);
    assert.deepEqual([...new Set(seed.map((c) => c.method))].sort(), ['BANK', 'CASH', 'MOMO']);
  });

  it('refuses inconsistent entries, naming the member', () => {
    const cases: [(c: ReturnType<typeof clone>) => void, string][] = [
      [(c) => (c[0].id = 'Bad Id'), '0.id'],
      [(c) => (c[1].id = c[0].id), '1.id'],
      [(c) => (c[0].region.iso = 'XX'), '0.region.iso'],
      [(c) => (c[0].destinationAsset = 'ZZZ'), '0.destinationAsset'],
      [(c) => (c[0].supportedTransactionType.b2b = false), '0.supportedTransactionType.b2b'],
      [(c) => delete c[0].execution.C_2_C, '0.execution.C_2_C'],
      [(c) => delete c[0].compliance.B_2_B, '0.compliance.B_2_B'],
      [(c) => (c[0].execution.C_2_C[1].step = 7), '0.execution.C_2_C.1.step'],
      [(c) => (c[0].fee.currency = 'ZAR'), '0.fee.currency'],
      [(c) => (c[0].fee.percentage = 0.5), '0.fee.percentage'],
      [(c) => (c[0].limits[0].duration = 60), '0.limits.0.duration'],
      [(c) => (c[0].limits[0].currency = 'ZAR'), '0.limits.0.currency'],
      [(c) => c[0].limits.shift(), '0.limits'],
      [(c) => (c[0].isActive = false), '0.isActive'],
      [(c) => (c[0].fees = []), '0'],
      [
        (c) => (c[0].compliance.C_2_C.sender[0].vocabulary = 'shoeSizes'),
        '0.compliance.C_2_C.sender.0.vocabulary',
      ],
    ];
    for (const [edit, path] of cases) {
      const file = clone();
      edit(file);
      assert.ok(issuesOf(file).includes(path), `${path}: ${issuesOf(file).join(', ')}`);
    }
  });
});

describe('transaction types', () => {
  it('parses C2C, c2b and C_2_C forms to the connector form', () => {
    assert.equal(transactionTypeParam.parse('C2C'), 'C_2_C');
    assert.equal(transactionTypeParam.parse('c2b'), 'C_2_B');
    assert.equal(transactionTypeParam.parse('b_2_c'), 'B_2_C');
    for (const bad of ['', 'C2X', 'CC', 'C-2-C', 'B2B2', 'P2P'])
      assert.equal(transactionTypeParam.safeParse(bad).success, false);
  });

  it('puts the payer first', () => {
    assert.equal(transactionTypeOf('business', 'individual'), 'B_2_C');
    assert.equal(transactionTypeOf('individual', 'business'), 'C_2_B');
  });
});

describe('connector list filters', () => {
  it('normalises case and the MOBILE_MONEY alias', () => {
    assert.deepEqual(
      listConnectorsQuery.parse({
        countryIsoCode2: 'ke',
        method: 'mobile_money',
        direction: 'off_ramp',
        flow: 'standard',
      }),
      { limit: 20, countryIsoCode2: 'KE', method: 'MOMO', direction: 'OFF_RAMP', flow: 'STANDARD' },
    );
  });
});
