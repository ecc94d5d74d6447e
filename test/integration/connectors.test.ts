// Connectors, requirements and vocabularies through the real local gateway; the catalogue is the seed
// file every local start loads. The admin CLI's `connectors load` runs as a real process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, it } from 'vitest';
import { type ApiResponse, as, assertFieldError, type Caller, call, newCaller } from '../support/api.ts';

const run = promisify(execFile);
const admin = async (...args: string[]) =>
  JSON.parse((await run(process.execPath, ['scripts/admin.ts', ...args], { env: process.env })).stdout);

// biome-ignore lint/suspicious/noExplicitAny: catalogue entries are compared member by member.
type Entry = any;
const SEED: Entry[] = JSON.parse(
  readFileSync(new URL('../../seed/connectors.json', import.meta.url), 'utf8'),
);
const seedIds = (pick: (c: Entry) => boolean = () => true) =>
  SEED.filter(pick)
    .map((c) => c.id)
    .sort();

const PUBLIC_MEMBERS = [
  'acceptedAsset',
  'description',
  'destinationAsset',
  'direction',
  'flow',
  'id',
  'isActive',
  'limits',
  'method',
  'methodProvider',
  'name',
  'region',
  'requiresQuote',
  'status',
  'supportedTransactionType',
  'transactionTypes',
];

/** Nothing internal in a response: no fee members, settlement or compliance data, at any depth. */
const INTERNAL_MEMBERS = ['fee', 'fees', 'settlement', 'compliance', 'percentage', 'fixed'];
function assertNoInternals(body: unknown) {
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, `${path}.${i}`);
    } else if (value && typeof value === 'object')
      for (const [key, v] of Object.entries(value)) {
        assert.ok(!INTERNAL_MEMBERS.includes(key), `response carries ${path}.${key}`);
        walk(v, `${path}.${key}`);
      }
  };
  walk(body, 'body');
  const text = JSON.stringify(body);
  for (const c of SEED)
    assert.ok(!text.includes(c.settlement.account), `settlement account of ${c.id} leaked`);
}

async function listAll(caller: Caller, query = ''): Promise<Entry[]> {
  const items: Entry[] = [];
  let cursor: string | null = null;
  do {
    const page: ApiResponse = await as(
      caller,
      `/connectors?limit=3${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    assert.equal(page.status, 200, JSON.stringify(page.body));
    items.push(...page.body.data);
    cursor = page.body.pagination.nextCursor;
    assert.equal(page.body.pagination.hasMore, cursor !== null);
  } while (cursor);
  return items;
}

describe('connectors', () => {
  let alice: Caller;
  let bob: Caller;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([newCaller(), newCaller()]);
  });

  it('lists the catalogue without execution steps or internals', async () => {
    const response = await as(alice, '/connectors?limit=100');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.pagination, { nextCursor: null, hasMore: false });
    const listed = response.body.data.filter((c: Entry) => seedIds().includes(c.id));
    assert.deepEqual(listed.map((c: Entry) => c.id).sort(), seedIds());
    for (const connector of listed) {
      assert.deepEqual(Object.keys(connector).sort(), PUBLIC_MEMBERS);
      const seed = SEED.find((c) => c.id === connector.id);
      for (const member of PUBLIC_MEMBERS) assert.deepEqual(connector[member], seed[member], member);
    }
    assertNoInternals(response.body);
  });

  it('filters by country, method, direction and flow, in any case', async () => {
    const ids = async (query: string) =>
      (await listAll(alice, query))
        .map((c) => c.id)
        .filter((id) => seedIds().includes(id))
        .sort();
    assert.deepEqual(
      await ids('&countryIsoCode2=ke'),
      seedIds((c) => c.region.iso === 'KE'),
    );
    assert.deepEqual(
      await ids('&countryIsoCode2=ZA'),
      seedIds((c) => c.region.iso === 'ZA'),
    );
    assert.deepEqual(
      await ids('&method=momo'),
      seedIds((c) => c.method === 'MOMO'),
    );
    assert.deepEqual(
      await ids('&method=MOBILE_MONEY'),
      seedIds((c) => c.method === 'MOMO'),
    );
    assert.deepEqual(
      await ids('&method=Cash'),
      seedIds((c) => c.method === 'CASH'),
    );
    assert.deepEqual(
      await ids('&direction=on_ramp'),
      seedIds((c) => c.direction === 'ON_RAMP'),
    );
    assert.deepEqual(
      await ids('&direction=OFF_RAMP'),
      seedIds((c) => c.direction === 'OFF_RAMP'),
    );
    assert.deepEqual(
      await ids('&flow=bespoke'),
      seedIds((c) => c.flow === 'BESPOKE'),
    );
    assert.deepEqual(
      await ids('&flow=STANDARD'),
      seedIds((c) => c.flow === 'STANDARD'),
    );
    assert.deepEqual(
      await ids('&countryIsoCode2=KE&method=MOMO&direction=ON_RAMP'),
      seedIds((c) => c.region.iso === 'KE' && c.method === 'MOMO' && c.direction === 'ON_RAMP'),
    );
    assert.deepEqual(await ids('&countryIsoCode2=FR'), []);
    assert.deepEqual(await ids('&method=CRYPTO'), []);
    const onRampStandard = await listAll(alice, '&direction=on_ramp&flow=standard');
    assert.deepEqual(
      onRampStandard
        .map((c) => c.id)
        .filter((id) => seedIds().includes(id))
        .sort(),
      seedIds((c) => c.direction === 'ON_RAMP' && c.flow === 'STANDARD'),
    );
    assert.ok(onRampStandard.length > 0, 'the seed has standard on-ramps');
    for (const c of onRampStandard) {
      assert.equal(c.direction, 'ON_RAMP');
      assert.equal(c.flow, 'STANDARD');
    }
  });

  it('refuses malformed filters and unknown query members with 400 naming them', async () => {
    const cases: [string, string][] = [
      ['countryIsoCode2=KEN', 'countryIsoCode2'],
      ['countryIsoCode2=K1', 'countryIsoCode2'],
      ['countryIsoCode2=', 'countryIsoCode2'],
      ['method=MO-MO', 'method'],
      ['method=', 'method'],
      ['direction=SIDEWAYS', 'direction'],
      ['direction=ONRAMP', 'direction'],
      ['flow=CUSTOM', 'flow'],
      ['country=KE', 'country'],
      ['colour=red', 'colour'],
      ['limit=0', 'limit'],
      ['limit=ten', 'limit'],
      ['cursor=forged', 'cursor'],
    ];
    for (const [query, field] of cases) assertFieldError(await as(alice, `/connectors?${query}`), 400, field);
  });

  it('pages through the catalogue with cursors bound to the tenant and the query', async () => {
    const paged = await listAll(alice);
    const ids = paged.map((c) => c.id);
    assert.equal(new Set(ids).size, ids.length);
    assert.deepEqual(
      ids.filter((id) => seedIds().includes(id)),
      seedIds(),
    );
    const first = await as(alice, '/connectors?limit=2');
    assert.equal(first.body.data.length, 2);
    assert.equal(first.body.pagination.hasMore, true);
    const cursor = encodeURIComponent(first.body.pagination.nextCursor);
    const second = await as(alice, `/connectors?limit=2&cursor=${cursor}`);
    assert.equal(second.status, 200);
    // The cursor continues where the first page ended (the same order listAll paged in).
    assert.deepEqual(
      [...first.body.data, ...second.body.data].map((c: Entry) => c.id),
      ids.slice(0, 4),
    );
    assertFieldError(await as(bob, `/connectors?limit=2&cursor=${cursor}`), 400, 'cursor');
    assertFieldError(await as(alice, `/connectors?limit=2&flow=STANDARD&cursor=${cursor}`), 400, 'cursor');
  });

  it('reads one connector with the execution steps of the requested transaction type', async () => {
    const id = 'za-bank-offramp-usdc-zar';
    const seed = SEED.find((c) => c.id === id);
    const byDefault = await as(alice, `/connectors/${id}`);
    assert.equal(byDefault.status, 200);
    assert.deepEqual(Object.keys(byDefault.body).sort(), [...PUBLIC_MEMBERS, 'execution'].sort());
    assert.deepEqual(byDefault.body.execution, seed.execution.C_2_C);
    for (const [query, type] of [
      ['C2C', 'C_2_C'],
      ['b2c', 'B_2_C'],
      ['C2b', 'C_2_B'],
      ['B_2_B', 'B_2_B'],
    ] as const) {
      const read = await as(alice, `/connectors/${id}?transactionType=${query}`);
      assert.equal(read.status, 200);
      assert.deepEqual(read.body.execution, seed.execution[type], query);
      assertNoInternals(read.body);
    }
    assert.notDeepEqual(seed.execution.C_2_C, seed.execution.B_2_B);
    const step = byDefault.body.execution[0];
    assert.deepEqual(Object.keys(step).sort(), [
      'additionalInstructions',
      'method',
      'name',
      'path',
      'requestDefinition',
      'responseDefinition',
      'step',
    ]);

    // A type the connector does not list has no steps; the bespoke on-ramp has its own flow.
    const kenya = await as(alice, '/connectors/ke-momo-offramp-usdc-kes?transactionType=B2B');
    assert.equal(kenya.status, 200);
    assert.deepEqual(kenya.body.execution, []);
    const bespoke = await as(alice, '/connectors/za-bank-onramp-zar-usdc?transactionType=c2b');
    assert.equal(bespoke.body.flow, 'BESPOKE');
    assert.deepEqual(
      bespoke.body.execution.map((s: { path: string }) => s.path),
      SEED.find((c) => c.id === 'za-bank-onramp-zar-usdc').execution.C_2_B.map(
        (s: { path: string }) => s.path,
      ),
    );
    // Ids are matched case-insensitively.
    assert.equal((await as(alice, `/connectors/${id.toUpperCase()}`)).body.id, id);
  });

  it('answers unknown connectors with 404 and malformed input with 400', async () => {
    const missing = await as(alice, '/connectors/zz-nowhere-offramp');
    assert.equal(missing.status, 404);
    assert.match(missing.body.type, /\/not-found$/);
    assertFieldError(await as(alice, '/connectors/not_a_slug'), 400, 'connectorId');
    for (const bad of ['X2Y', 'C2', 'P2P', ''])
      assertFieldError(
        await as(alice, `/connectors/ke-momo-offramp-usdc-kes?transactionType=${bad}`),
        400,
        'transactionType',
      );
    assertFieldError(await as(alice, '/connectors/ke-momo-offramp-usdc-kes?expand=fees'), 400, 'expand');
  });

  it('serves the same catalogue to production applications', async () => {
    const production = await newCaller({ environment: 'production' });
    const listed = (await listAll(production)).map((c) => c.id).filter((id) => seedIds().includes(id));
    assert.deepEqual(listed.sort(), seedIds());
  });
});

describe('payment requirements and vocabularies', () => {
  let alice: Caller;
  beforeAll(async () => {
    alice = await newCaller();
  });

  it('returns the compliance fields a connector needs, by party, for the transaction type', async () => {
    const id = 'ke-momo-offramp-usdc-kes';
    const seed = SEED.find((c) => c.id === id);
    const byDefault = await as(alice, `/payments/requirements?connectorId=${id}`);
    assert.equal(byDefault.status, 200, JSON.stringify(byDefault.body));
    assert.deepEqual(byDefault.body, { connectorId: id, transactionType: 'C2C', ...seed.compliance.C_2_C });
    const b2c = await as(alice, `/payments/requirements?connectorId=${id.toUpperCase()}&transactionType=b2c`);
    assert.deepEqual(b2c.body, { connectorId: id, transactionType: 'B2C', ...seed.compliance.B_2_C });
    for (const item of [...b2c.body.sender, ...b2c.body.beneficiary, ...b2c.body.destination]) {
      assert.equal(typeof item.field, 'string');
      assert.equal(typeof item.required, 'boolean');
      assert.equal(item.type === 'enum', typeof item.vocabulary === 'string');
    }
    assert.ok(b2c.body.destination.some((d: { field: string }) => d.field === 'mobileNumber'));

    // Business beneficiaries need company fields.
    const b2b = await as(
      alice,
      '/payments/requirements?connectorId=za-bank-offramp-usdc-zar&transactionType=B2B',
    );
    assert.ok(b2b.body.beneficiary.some((d: { field: string }) => d.field === 'business.registeredName'));
  });

  it('refuses unsupported types with 422, unknown connectors with 404 and bad input with 400', async () => {
    const unsupported = await as(
      alice,
      '/payments/requirements?connectorId=ke-momo-offramp-usdc-kes&transactionType=C2B',
    );
    assertFieldError(unsupported, 422, 'transactionType');
    assert.match(unsupported.body.detail, /C2B/);
    assert.equal((await as(alice, '/payments/requirements?connectorId=zz-none')).status, 404);
    assertFieldError(await as(alice, '/payments/requirements'), 400, 'connectorId');
    assertFieldError(await as(alice, '/payments/requirements?connectorId=a_b'), 400, 'connectorId');
    assertFieldError(
      await as(alice, '/payments/requirements?connectorId=ke-momo-offramp-usdc-kes&transactionType=X'),
      400,
      'transactionType',
    );
    assertFieldError(
      await as(alice, '/payments/requirements?connectorId=ke-momo-offramp-usdc-kes&country=KE'),
      400,
      'country',
    );
  });

  it('publishes the vocabularies every requirement refers to', async () => {
    const enums = await as(alice, '/payments/enums');
    assert.equal(enums.status, 200);
    for (const name of ['purposeOfRemittance', 'sourceOfFunds', 'idTypes']) {
      assert.ok(Array.isArray(enums.body[name]) && enums.body[name].length > 0, name);
      for (const entry of enums.body[name]) {
        assert.deepEqual(Object.keys(entry).sort(), ['code', 'label']);
        assert.match(entry.code, /^[A-Z_]+$/);
      }
    }
    assert.deepEqual(
      enums.body.idTypes.map((e: { code: string }) => e.code),
      ['NATIONAL_ID', 'PASSPORT', 'DRIVERS_LICENSE'],
    );
    for (const connector of SEED)
      for (const set of Object.values(connector.compliance) as Entry[])
        for (const item of [...set.sender, ...set.beneficiary, ...set.destination])
          if (item.vocabulary) assert.ok(enums.body[item.vocabulary], `${connector.id}: ${item.vocabulary}`);
    assertFieldError(await as(alice, '/payments/enums?lang=fr'), 400, 'lang');
  });

  it('needs authentication like every route', async () => {
    assert.equal((await call('/payments/enums')).status, 401);
    assert.equal((await call('/connectors', { apiKey: alice.tenant.apiKey })).status, 401);
  });
});

describe('admin CLI: connectors load', () => {
  it('validates the whole file before writing any of it, then adds or replaces entries', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'connectors-'));
    const kenya = SEED.find((c) => c.id === 'ke-momo-offramp-usdc-kes');
    const added = {
      ...structuredClone(kenya),
      id: 'tz-momo-offramp-usdc-tzs',
      name: 'Tanzania M-Pesa payout',
    };
    added.region = { iso: 'TZ' };
    added.destinationAsset = 'TZS';

    // One bad entry (an asset the production registry does not have) refuses the whole file.
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify([
        added,
        {
          ...structuredClone(kenya),
          id: 'zz-bad',
          acceptedAsset: 'DOGE',
          fee: { ...kenya.fee, currency: 'DOGE' },
          limits: kenya.limits.map((l: Entry) => ({ ...l, currency: l.currency && 'DOGE' })),
        },
      ]),
    );
    await assert.rejects(
      admin('connectors', 'load', '--environment', 'production', '--file', bad),
      /1\.acceptedAsset: DOGE is not in the production asset registry/,
    );
    const malformed = join(dir, 'malformed.json');
    writeFileSync(
      malformed,
      JSON.stringify([added, { ...structuredClone(kenya), id: 'zz-bad', region: { iso: 'ke' } }]),
    );
    await assert.rejects(
      admin('connectors', 'load', '--environment', 'production', '--file', malformed),
      /1\.region\.iso/,
    );
    const production = await newCaller({ environment: 'production' });
    assert.equal((await as(production, `/connectors/${added.id}`)).status, 404);

    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify([added]));
    assert.deepEqual(await admin('connectors', 'load', '--environment', 'production', '--file', good), {
      environment: 'production',
      loaded: [added.id],
    });
    const read = await as(production, `/connectors/${added.id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.destinationAsset, 'TZS');
    assert.deepEqual(read.body.region, { iso: 'TZ' });
    assertNoInternals(read.body);
    // Loaded into production only.
    assert.equal((await as(await newCaller(), `/connectors/${added.id}`)).status, 404);

    // Loading again replaces the entry.
    writeFileSync(good, JSON.stringify([{ ...added, status: 'MAINTENANCE', isActive: false }]));
    await admin('connectors', 'load', '--environment', 'production', '--file', good);
    assert.equal((await as(production, `/connectors/${added.id}`)).body.isActive, false);

    const { stdout } = await run(process.execPath, ['scripts/admin.ts', '--help']);
    for (const command of ['connectors load', 'fees set', 'fees clear'])
      assert.ok(stdout.includes(command), command);
  });
});
