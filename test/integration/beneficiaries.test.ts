// Beneficiaries through the real local gateway: create, read, list, PATCH (RFC 7396), classification.
import assert from 'node:assert/strict';
import { beforeAll, describe, it } from 'vitest';
import {
  type ApiResponse,
  as,
  assertAnsweredAsMissing,
  assertFieldError,
  type Caller,
  newCaller,
} from '../support/api.ts';

const thandi = { firstName: 'Thandi', lastName: 'Nkosi' };
const thandiComplete = {
  ...thandi,
  dateOfBirth: '1990-04-12',
  idType: 'NATIONAL_ID',
  idNumber: '9004120000000',
  idCountryIsoCode2: 'za',
  email: 'thandi@example.com',
  mobile: '+27821234567',
};
const acme = {
  registeredName: 'Acme Trading Ltd',
  registrationNumber: '2019/123456/07',
  countryIsoCode2: 'gb',
};
const address = { line1: '1 Long Street', city: 'Cape Town', postalCode: '8001', countryIsoCode2: 'za' };

const create = (caller: Caller, body: unknown) => as(caller, '/beneficiaries', { method: 'POST', body });
const patch = (caller: Caller, id: string, body: unknown) =>
  as(caller, `/beneficiaries/${id}`, { method: 'PATCH', body });

describe('beneficiaries', () => {
  let alice: Caller;
  let bob: Caller;
  beforeAll(async () => {
    [alice, bob] = await Promise.all([newCaller(), newCaller()]);
  });

  it('creates an individual beneficiary: 201, countries upper-cased, Unverified TIER_1 when identity is complete', async () => {
    const created = await create(alice, {
      individual: thandiComplete,
      addresses: [address],
      tags: [{ key: 'segment', value: 'retail' }],
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const b = created.body;
    assert.match(b.id, /^[0-9a-f-]{36}$/);
    assert.equal(b.kind, 'individual');
    assert.deepEqual(b.individual, { ...thandiComplete, idCountryIsoCode2: 'ZA' });
    assert.equal(b.business, undefined);
    assert.deepEqual(b.addresses, [{ ...address, countryIsoCode2: 'ZA' }]);
    assert.deepEqual(b.tags, [{ key: 'segment', value: 'retail' }]);
    assert.equal(b.classification, 'Unverified');
    assert.equal(b.unverifiedTier, 'TIER_1');
    assert.ok(!Number.isNaN(Date.parse(b.createdAt)));
    assert.equal(b.createdAt, b.updatedAt);
    assert.equal(b.displayName, undefined);

    const read = await as(alice, `/beneficiaries/${b.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, { ...b, paymentDestinations: [] });
  });

  it('derives the tier from identity completeness: TIER_0 until every identity detail is there', async () => {
    const minimal = await create(alice, { individual: thandi });
    assert.equal(minimal.status, 201);
    assert.equal(minimal.body.unverifiedTier, 'TIER_0');
    assert.deepEqual(minimal.body.addresses, []);
    assert.deepEqual(minimal.body.tags, []);
    const { idCountryIsoCode2: _, ...almost } = thandiComplete;
    assert.equal((await create(alice, { individual: almost })).body.unverifiedTier, 'TIER_0');

    const business = await create(alice, { business: acme });
    assert.equal(business.status, 201);
    assert.equal(business.body.kind, 'business');
    assert.equal(business.body.business.countryIsoCode2, 'GB');
    assert.equal(business.body.classification, 'Unverified');
    assert.equal(business.body.unverifiedTier, 'TIER_1');
    const noNumber = await create(alice, { business: { registeredName: 'Acme', countryIsoCode2: 'GB' } });
    assert.equal(noNumber.body.unverifiedTier, 'TIER_0');
  });

  it("classifies the caller's own business and own person as Me, without a tier", async () => {
    const company = await newCaller({ name: 'Umoja Logistics (Pty) Ltd', kind: 'business' });
    const own = await create(company, { business: { registeredName: '  umoja LOGISTICS (pty) ltd ' } });
    assert.equal(own.status, 201);
    assert.equal(own.body.classification, 'Me');
    assert.equal('unverifiedTier' in own.body, false);
    const similar = await create(company, { business: { registeredName: 'Umoja Logistics' } });
    assert.equal(similar.body.classification, 'Unverified');
    // A person is never the business association itself, whatever the name.
    const person = await create(company, {
      individual: { firstName: 'Umoja', lastName: 'Logistics (Pty) Ltd' },
    });
    assert.equal(person.body.classification, 'Unverified');

    const individual = await newCaller({ name: 'Lindiwe Dube', kind: 'individual' });
    const me = await create(individual, { individual: { firstName: 'LINDIWE', lastName: ' dube ' } });
    assert.equal(me.body.classification, 'Me');
    assert.equal('unverifiedTier' in me.body, false);
    const namesake = await create(individual, { business: { registeredName: 'Lindiwe Dube' } });
    assert.equal(namesake.body.classification, 'Unverified');
    assert.equal(namesake.body.unverifiedTier, 'TIER_0');
    assert.equal((await create(individual, { individual: thandi })).body.classification, 'Unverified');
  });

  it('refuses malformed beneficiaries with 400 naming the field, and writes nothing', async () => {
    const count = async () => (await as(alice, '/beneficiaries?limit=100')).body.data.length;
    const before = await count();
    const cases: [unknown, string[]][] = [
      [{}, ['individual', 'business']],
      [{ individual: thandi, business: acme }, ['individual', 'business']],
      [{ addresses: [address] }, ['individual', 'business']],
      [{ individual: thandi, displayName: 'Thandi' }, ['displayName']],
      [{ individual: thandi, nickname: 'T' }, ['nickname']],
      [{ individual: { ...thandi, shoeSize: 42 } }, ['individual.shoeSize']],
      [{ individual: thandi, classification: 'Me' }, ['classification']],
      [{ individual: thandi, unverifiedTier: 'TIER_1' }, ['unverifiedTier']],
      [{ individual: thandi, id: crypto.randomUUID() }, ['id']],
      [{ individual: { firstName: 'Thandi' } }, ['individual.lastName']],
      [{ individual: { ...thandi, firstName: '   ' } }, ['individual.firstName']],
      [{ individual: { ...thandi, dateOfBirth: '12/04/1990' } }, ['individual.dateOfBirth']],
      [{ individual: { ...thandi, dateOfBirth: '2999-01-01' } }, ['individual.dateOfBirth']],
      [{ individual: { ...thandi, idType: 'LIBRARY_CARD' } }, ['individual.idType']],
      [{ individual: { ...thandi, idCountryIsoCode2: 'ZAF' } }, ['individual.idCountryIsoCode2']],
      [{ individual: { ...thandi, email: 'not-an-email' } }, ['individual.email']],
      [{ individual: { ...thandi, mobile: '0821234567' } }, ['individual.mobile']],
      [{ individual: { ...thandi, mobile: '+2782' } }, ['individual.mobile']],
      [{ business: { registrationNumber: '1' } }, ['business.registeredName']],
      [{ business: { ...acme, countryIsoCode2: 'G' } }, ['business.countryIsoCode2']],
      [{ individual: thandi, addresses: [{ line1: 'x', countryIsoCode2: 'ZA' }] }, ['addresses.0.city']],
      [{ individual: thandi, addresses: [{ ...address, floor: 3 }] }, ['addresses.0.floor']],
      [{ individual: thandi, addresses: 'Cape Town' }, ['addresses']],
      [{ individual: thandi, tags: ['vip'] }, ['tags.0']],
      [{ individual: thandi, tags: [{ key: 'has space', value: 'x' }] }, ['tags.0.key']],
      [
        {
          individual: thandi,
          tags: [
            { key: 'a', value: '1' },
            { key: 'a', value: '2' },
          ],
        },
        ['tags.1.key'],
      ],
      [[thandi], ['body']],
    ];
    for (const [body, fields] of cases) {
      const response = await create(alice, body);
      for (const field of fields) assertFieldError(response, 400, field);
    }
    assertFieldError(await create(alice, '{"individual":'), 400, 'body');
    assert.equal(await count(), before);
  });

  it('refuses well-formed country codes that name no country with 422', async () => {
    assertFieldError(
      await create(alice, { individual: { ...thandi, idCountryIsoCode2: 'xx' } }),
      422,
      'individual.idCountryIsoCode2',
    );
    assertFieldError(
      await create(alice, { business: { ...acme, countryIsoCode2: 'QQ' } }),
      422,
      'business.countryIsoCode2',
    );
    assertFieldError(
      await create(alice, {
        individual: thandi,
        addresses: [address, { ...address, countryIsoCode2: 'ZZ' }],
      }),
      422,
      'addresses.1.countryIsoCode2',
    );
  });

  it('lists only the caller’s beneficiaries, cursor-paginated', async () => {
    const mine = await newCaller();
    const names = ['Ada', 'Bea', 'Cy'];
    for (const firstName of names) await create(mine, { individual: { firstName, lastName: 'X' } });
    const all = await as(mine, '/beneficiaries');
    assert.equal(all.status, 200);
    assert.equal(all.body.data.length, 3);
    assert.deepEqual(all.body.pagination, { nextCursor: null, hasMore: false });
    assert.equal(all.body.data[0].paymentDestinations, undefined);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: ApiResponse = await as(
        mine,
        `/beneficiaries?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      assert.equal(page.status, 200);
      assert.equal(page.body.data.length, 1);
      seen.push(...page.body.data.map((b: { individual: { firstName: string } }) => b.individual.firstName));
      cursor = page.body.pagination.nextCursor;
      assert.equal(page.body.pagination.hasMore, cursor !== null);
      pages += 1;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(seen.sort(), names);

    const first = await as(mine, '/beneficiaries?limit=1');
    assertFieldError(
      await as(bob, `/beneficiaries?limit=1&cursor=${encodeURIComponent(first.body.pagination.nextCursor)}`),
      400,
      'cursor',
    );
    assertFieldError(await as(mine, '/beneficiaries?cursor=forged'), 400, 'cursor');
    assertFieldError(await as(mine, '/beneficiaries?limit=0'), 400, 'limit');
    assertFieldError(await as(mine, '/beneficiaries?limit=ten'), 400, 'limit');
    assertFieldError(await as(mine, '/beneficiaries?kind=business'), 400, 'kind');
    assert.equal((await create(bob, { business: acme })).status, 201);
    const bobs = (await as(bob, '/beneficiaries?limit=100')).body.data.map((b: { id: string }) => b.id);
    assert.ok(bobs.length > 0);
    for (const b of all.body.data) assert.equal(bobs.includes(b.id), false);
  });

  it('treats a limit above 100 as 100', async () => {
    const many = await newCaller();
    // 101 beneficiaries: more than one capped page.
    for (let batch = 0; batch < 101; batch += 20) {
      const size = Math.min(20, 101 - batch);
      const created = await Promise.all(
        Array.from({ length: size }, (_, i) =>
          create(many, { individual: { firstName: `N${batch + i}`, lastName: 'X' } }),
        ),
      );
      for (const response of created) assert.equal(response.status, 201);
    }
    const page = await as(many, '/beneficiaries?limit=1000');
    assert.equal(page.status, 200);
    assert.equal(page.body.data.length, 100);
    assert.equal(page.body.pagination.hasMore, true);
    const rest = await as(
      many,
      `/beneficiaries?limit=1000&cursor=${encodeURIComponent(page.body.pagination.nextCursor)}`,
    );
    assert.equal(rest.body.data.length, 1);
    assert.deepEqual(rest.body.pagination, { nextCursor: null, hasMore: false });
  });

  it("answers another tenant's beneficiary exactly like a missing one, and a non-UUID id with 400", async () => {
    const created = await create(alice, { individual: thandi });
    const id = created.body.id;
    const unknown = crypto.randomUUID();
    const theirs = await as(bob, `/beneficiaries/${id}`);
    const missing = await as(bob, `/beneficiaries/${unknown}`);
    assertAnsweredAsMissing(theirs, id, missing, unknown);
    const before = (await as(alice, `/beneficiaries/${id}`)).body;
    const change = { tags: [{ key: 'owner', value: 'bob' }], individual: { firstName: 'Mallory' } };
    assert.equal((await patch(bob, id, change)).status, 404);
    assert.equal((await patch(bob, crypto.randomUUID(), change)).status, 404);
    assert.deepEqual((await as(alice, `/beneficiaries/${id}`)).body, before);
    assertFieldError(await as(alice, '/beneficiaries/not-a-uuid'), 400, 'beneficiaryId');
    assertFieldError(await patch(alice, 'not-a-uuid', {}), 400, 'beneficiaryId');
  });

  describe('PATCH (RFC 7396 merge patch)', () => {
    let id: string;
    beforeAll(async () => {
      const created = await create(alice, {
        individual: { ...thandi, email: 'thandi@example.com', mobile: '+27821234567' },
        addresses: [address],
        tags: [
          { key: 'segment', value: 'retail' },
          { key: 'ref', value: 'A1' },
        ],
      });
      id = created.body.id;
    });

    it('replaces present members, removes null ones, keeps absent ones, and merges nested objects', async () => {
      const before = (await as(alice, `/beneficiaries/${id}`)).body;
      await new Promise((r) => setTimeout(r, 5));
      const patched = await patch(alice, id, { individual: { firstName: 'Thandeka', email: null } });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.deepEqual(patched.body.individual, {
        firstName: 'Thandeka',
        lastName: 'Nkosi',
        mobile: '+27821234567',
      });
      assert.deepEqual(patched.body.addresses, before.addresses);
      assert.deepEqual(patched.body.tags, before.tags);
      assert.equal(patched.body.id, id);
      assert.equal(patched.body.createdAt, before.createdAt);
      assert.ok(patched.body.updatedAt > before.updatedAt);
      assert.deepEqual((await as(alice, `/beneficiaries/${id}`)).body, {
        ...patched.body,
        paymentDestinations: [],
      });
    });

    it('replaces arrays whole and clears them with null', async () => {
      const second = { line1: '2 Main Road', city: 'Nairobi', countryIsoCode2: 'ke' };
      const replaced = await patch(alice, id, { addresses: [second], tags: [{ key: 'vip', value: 'yes' }] });
      assert.equal(replaced.status, 200);
      assert.deepEqual(replaced.body.addresses, [{ ...second, countryIsoCode2: 'KE' }]);
      assert.deepEqual(replaced.body.tags, [{ key: 'vip', value: 'yes' }]);
      const cleared = await patch(alice, id, { tags: null });
      assert.deepEqual(cleared.body.tags, []);
      assert.equal(cleared.body.addresses.length, 1);
      const empty = await patch(alice, id, {});
      assert.equal(empty.status, 200);
      assert.equal(empty.body.individual.firstName, 'Thandeka');
    });

    it('recomputes the tier and the classification', async () => {
      const complete = await patch(alice, id, {
        individual: {
          dateOfBirth: '1990-04-12',
          idType: 'PASSPORT',
          idNumber: 'A123',
          idCountryIsoCode2: 'za',
        },
      });
      assert.equal(complete.status, 200);
      assert.equal(complete.body.unverifiedTier, 'TIER_1');
      assert.equal(complete.body.individual.idCountryIsoCode2, 'ZA');
      const incomplete = await patch(alice, id, { individual: { idNumber: null } });
      assert.equal(incomplete.body.unverifiedTier, 'TIER_0');
      assert.equal(incomplete.body.individual.idType, 'PASSPORT');

      const company = await newCaller({ name: 'Baobab Foods', kind: 'business' });
      const supplier = await create(company, { business: { registeredName: 'Baobab Supplies' } });
      assert.equal(supplier.body.classification, 'Unverified');
      const renamed = await patch(company, supplier.body.id, {
        business: { registeredName: 'BAOBAB FOODS' },
      });
      assert.equal(renamed.body.classification, 'Me');
      assert.equal('unverifiedTier' in renamed.body, false);
      assert.equal((await as(company, `/beneficiaries/${supplier.body.id}`)).body.classification, 'Me');
      const back = await patch(company, supplier.body.id, {
        business: { registeredName: 'Baobab Supplies', registrationNumber: 'R1', countryIsoCode2: 'KE' },
      });
      assert.equal(back.body.classification, 'Unverified');
      assert.equal(back.body.unverifiedTier, 'TIER_1');
    });

    it('refuses read-only and unknown members, removing required members, and changing kind, changing nothing', async () => {
      const before = (await as(alice, `/beneficiaries/${id}`)).body;
      const cases: [unknown, string][] = [
        [{ classification: 'Me' }, 'classification'],
        [{ unverifiedTier: 'TIER_1' }, 'unverifiedTier'],
        [{ id: crypto.randomUUID() }, 'id'],
        [{ kind: 'business' }, 'kind'],
        [{ createdAt: '2020-01-01T00:00:00Z' }, 'createdAt'],
        [{ updatedAt: '2020-01-01T00:00:00Z' }, 'updatedAt'],
        [{ paymentDestinations: [] }, 'paymentDestinations'],
        [{ displayName: 'T' }, 'displayName'],
        [{ individual: { firstName: null } }, 'individual.firstName'],
        [{ individual: null }, 'individual'],
        [{ individual: 'Thandi' }, 'individual'],
        [{ individual: { nickname: 'T' } }, 'individual.nickname'],
        [{ individual: { mobile: '12345' } }, 'individual.mobile'],
        [{ business: acme }, 'business'],
        [{ addresses: [{ line1: 'x' }] }, 'addresses.0.city'],
        [
          {
            tags: [
              { key: 'a', value: '1' },
              { key: 'a', value: '2' },
            ],
          },
          'tags.1.key',
        ],
        [[], 'body'],
      ];
      for (const [body, field] of cases) assertFieldError(await patch(alice, id, body), 400, field);
      assertFieldError(
        await patch(alice, id, { individual: { idCountryIsoCode2: 'XX' } }),
        422,
        'individual.idCountryIsoCode2',
      );
      assertFieldError(
        await patch(alice, id, { addresses: [{ ...address, countryIsoCode2: 'QZ' }] }),
        422,
        'addresses.0.countryIsoCode2',
      );
      assert.deepEqual((await as(alice, `/beneficiaries/${id}`)).body, before);

      const business = await create(alice, { business: acme });
      assertFieldError(await patch(alice, business.body.id, { individual: thandi }), 400, 'individual');
      assertFieldError(
        await patch(alice, business.body.id, { business: { registeredName: null } }),
        400,
        'business.registeredName',
      );
      // Removing an optional member the other kind would have is a no-op, as RFC 7396 says.
      assert.equal((await patch(alice, business.body.id, { individual: null })).status, 200);
    });
  });
});
