// Regression tests for the hardening of the HTTP chain (issue #7): malformed path escapes, JSON nesting
// depth, amounts beyond what a double or the ledger holds, invalid UTF-8 and lone surrogates, and query
// members no route takes. Every request is otherwise valid for the caller's own resources (see
// test/support/fixtures.ts), so a refusal can only come from what the test changed.
import assert from 'node:assert/strict';
import { beforeAll, describe, it } from 'vitest';
import { operationFor } from '../../lib/operations/index.ts';
import { type ApiResponse, as, baseUrl, newCaller, send } from '../support/api.ts';
import {
  activationDone,
  allRoutes,
  bodyWith,
  CONNECTOR_ID,
  credentials,
  type Fixture,
  membersOf,
  nested,
  newFixture,
  PAGED_ROUTES,
  partitionItems,
  type RequestSpec,
  validRequest,
  withQuery,
} from '../support/fixtures.ts';

/** A 4xx problem+json answer with X-Request-Id whose field errors name `field`. */
function assertRefused(response: ApiResponse, field: string, statuses: number[] = [400]) {
  const context = JSON.stringify(response.body);
  assert.ok(statuses.includes(response.status), `status ${response.status}, not ${statuses}: ${context}`);
  assert.equal(response.headers.get('content-type'), 'application/problem+json', context);
  assert.ok(response.headers.get('x-request-id'), 'X-Request-Id');
  const fields = (response.body?.errors ?? []).map((e: { field: string }) => e.field);
  assert.ok(fields.includes(field), `expected a field error on ${field}, got [${fields.join(', ')}]`);
}

/** Sends `spec` as the fixture's caller, with `body` (raw text or bytes) instead of its JSON body. */
const sendAs = (f: Fixture, spec: RequestSpec, body?: string | Uint8Array) =>
  send(spec.path, {
    method: spec.method,
    ...credentials(spec, f),
    ...(body !== undefined ? { body } : spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
  });

const routeNamed = (key: string) => {
  const found = allRoutes().find((r) => r.key === key);
  assert.ok(found, key);
  return found.route;
};

/**
 * The routes whose body the chain parses and checks. Not the provider route: its signature is checked on
 * the raw bytes first, so a body its signature does not cover is the fixed 401 (tested below).
 */
const BODY_ROUTES = allRoutes().filter(
  ({ route }) => operationFor(route).body !== undefined && route.auth !== 'providerSignature',
);

/**
 * The fixture every describe below shares: each sends it only requests that must be refused, and each
 * check of what was written looks at its own part (a wallet's balance, the quotes, the partition around
 * one request). The partition checks (invalid UTF-8) come before the cases that write on purpose (a
 * funded wallet, a wallet named with a surrogate pair). The control of the query cases spends its
 * fixture's valid requests, so it has one of its own.
 */
let f: Fixture;
beforeAll(async () => {
  f = await newFixture();
});

describe('hardening: malformed percent-escapes in the path', () => {
  const paths = [
    '/assets/%FF',
    '/assets/%',
    '/assets/%zz',
    '/assets/%E0%A4%A',
    '/assets/%C0%AF',
    '/wallets/%E0%A4%A',
    '/zz-no-such-route/%zz',
  ];
  for (const path of paths) {
    it(`answers GET /v1${path} with 400 naming path, without authentication`, async () => {
      const response = await send(path);
      assertRefused(response, 'path');
      assert.match(response.body.type, /\/bad-request$/);
      assert.equal(response.body.requestId, response.headers.get('x-request-id'));
    });
  }

  it('keeps serving afterwards: /healthz and an authenticated GET /v1/assets', async () => {
    const health = await fetch(`${baseUrl().replace(/\/v1$/, '')}/healthz`, {
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(health.status, 200);
    const caller = await newCaller();
    const assets = await as(caller, '/assets');
    assert.equal(assets.status, 200);
    assert.ok(assets.body.data.length > 0);
  });
});

describe('hardening: JSON nesting depth (at most 32 levels; `{}` is 1 level, `{"a":[]}` is 2)', () => {
  for (const { key, route } of BODY_ROUTES) {
    for (const kind of ['array', 'object'] as const) {
      it(`${key}: a body nested 33 levels (${kind}s in its first member) is a 400 naming body`, async () => {
        const spec = validRequest(route, f);
        const [member] = membersOf(spec.body);
        assert.ok(member);
        // The body object is level 1, so the member's value holds the other 32.
        const response = await sendAs(f, spec, bodyWith(spec.body, member.path, nested(32, kind)));
        assertRefused(response, 'body');
      });
    }
    it(`${key}: a body that is 33 nested arrays is a 400 naming body`, async () => {
      const spec = validRequest(route, f);
      assertRefused(await sendAs(f, spec, nested(33, 'array')), 'body');
    });
  }

  it('PATCH /v1/beneficiaries/{id} with a member nested 9,000 levels (~54 KB) is a 400 naming body; the beneficiary is unchanged', async () => {
    const spec = validRequest(routeNamed('PATCH /v1/beneficiaries/{beneficiaryId}'), f);
    const before = await as(f.caller, `/beneficiaries/${f.beneficiary}`);
    assert.equal(before.status, 200);
    for (const kind of ['object', 'array'] as const) {
      const body = `{"individual":${nested(9000, kind)}}`;
      assert.ok(body.length < 64 * 1024, 'under the 64 KB body limit');
      assertRefused(await sendAs(f, spec, body), 'body');
    }
    assert.deepEqual((await as(f.caller, `/beneficiaries/${f.beneficiary}`)).body, before.body);
  });

  it('does not refuse a body nested 32 levels for its depth: the member is named instead', async () => {
    const wallets = validRequest(routeNamed('POST /v1/wallets'), f);
    const arrays = await sendAs(f, wallets, bodyWith(wallets.body, ['walletName'], nested(31, 'array')));
    assertRefused(arrays, 'walletName');
    assert.ok(!arrays.body.errors.some((e: { field: string }) => e.field === 'body'), 'not for depth');

    const patch = validRequest(routeNamed('PATCH /v1/beneficiaries/{beneficiaryId}'), f);
    const objects = await sendAs(f, patch, `{"individual":${nested(31, 'object')}}`);
    assert.equal(objects.status, 400, JSON.stringify(objects.body));
    const fields = objects.body.errors.map((e: { field: string }) => e.field);
    assert.ok(!fields.includes('body'), `not for depth: ${fields}`);
    assert.ok(
      fields.some((field: string) => field.startsWith('individual')),
      `names the member: ${fields}`,
    );
  });
});

describe('hardening: invalid UTF-8 and lone surrogates in JSON bodies', () => {
  /** The routes and the string member each one is tried with. */
  const targets = [
    { key: 'POST /v1/wallets', member: ['walletName'] },
    { key: 'POST /v1/beneficiaries', member: ['individual', 'firstName'] },
    { key: 'POST /v1/beneficiaries/{beneficiaryId}/payment-destinations', member: ['accountHolderName'] },
  ];
  const invalidUtf8: [string, number[]][] = [
    ['FF', [0xff]],
    ['C0 AF (overlong /)', [0xc0, 0xaf]],
    ['ED A0 80 (an encoded surrogate)', [0xed, 0xa0, 0x80]],
    ['E2 82 (truncated)', [0xe2, 0x82]],
  ];

  /** Runs `request` and asserts the tenant's partition holds exactly what it held before. */
  async function writesNothing(request: () => Promise<void>) {
    const before = await partitionItems(f.caller);
    await request();
    assert.deepEqual(await partitionItems(f.caller), before, 'nothing stored');
  }

  for (const { key, member } of targets) {
    for (const [name, bytes] of invalidUtf8) {
      it(`${key}: bytes ${name} inside ${member.join('.')} are a 400 naming body, nothing stored`, async () => {
        const spec = validRequest(routeNamed(key), f);
        await writesNothing(async () => {
          const raw = Buffer.concat([Buffer.from('"T'), Buffer.from(bytes), Buffer.from('"')]);
          assertRefused(await sendAs(f, spec, bodyWith(spec.body, member, raw)), 'body');
        });
      });
    }
    for (const surrogate of ['\\ud800', '\\udc00', 'a\\udfffb']) {
      it(`${key}: the lone surrogate "${surrogate}" in ${member.join('.')} is a 400 naming it, nothing stored`, async () => {
        const spec = validRequest(routeNamed(key), f);
        await writesNothing(async () => {
          assertRefused(
            await sendAs(f, spec, bodyWith(spec.body, member, `"${surrogate}"`)),
            member.join('.'),
          );
        });
      });
    }
  }

  it('still takes a well-formed surrogate pair (😀) and other non-ASCII text', async () => {
    const spec = validRequest(routeNamed('POST /v1/wallets'), f);
    const response = await sendAs(f, spec, bodyWith(spec.body, ['walletName'], '"Zoë \\ud83d\\ude00 Ngũgĩ"'));
    assert.equal(response.status, 201, JSON.stringify(response.body));
    assert.equal(response.body.walletName, 'Zoë 😀 Ngũgĩ');
  });
});

describe('hardening: amounts', () => {
  // Raw JSON number texts: JSON.stringify of a JS number could not even write most of them.
  const refused = [
    '922337203686',
    '9007199254740993',
    '1e21',
    '123456789012345678901234567890',
    '1e-8',
    '0.00000001',
    '-1',
    '0',
    '922337203685.4775808',
    '0.10000000000000001',
  ];
  /** Numbers a double cannot hold exactly are malformed input (400), not a rule a value breaks (422). */
  const inexact = new Set(['9007199254740993', '0.10000000000000001']);
  /** What the fixture left in its wallet, before any refused funding. */
  let before: string;
  beforeAll(async () => {
    before = await usdcBalance(f.wallet);
  });

  const fund = (walletId: string, amount: string) =>
    send(`/sandbox/wallets/${walletId}/fund`, {
      method: 'POST',
      ...credentials({ auth: 'token' }, f),
      body: `{"assetCode":"USDC","amount":${amount}}`,
      timeoutMs: 15_000,
    });
  const usdcBalance = async (walletId: string) => {
    const wallet = await as(f.caller, `/wallets/${walletId}`);
    return wallet.body.balances.find((b: { assetCode: string }) => b.assetCode === 'USDC')?.balance;
  };

  for (const amount of refused) {
    const statuses = inexact.has(amount) ? [400] : [400, 422];
    it(`POST /v1/sandbox/wallets/{id}/fund refuses amount ${amount} with ${statuses.join(' or ')} naming amount`, async () => {
      assertRefused(await fund(f.wallet, amount), 'amount', statuses);
    });
  }

  it('moved no money for any refused amount: the wallet still holds what it held', async () => {
    assert.equal(await usdcBalance(f.wallet), before);
  });

  // A JSON number carries what a double holds exactly (about 15 significant digits): near the int64
  // ceiling that is 4 decimals, so the largest amount the ledger could take is 922337203685.4775, and the
  // ceiling itself written to the stroop is refused as inexact rather than silently rounded. Since issue
  // 36 one sandbox call funds at most 10,000: that amount is a 422 naming amount and the cap, and the cap
  // less a stroop is funded to the stroop.
  it('refuses 922337203685.4775 (the largest exact amount) by the call cap, and funds 9999.9999999 to the stroop', async () => {
    const created = await as(f.caller, '/wallets', {
      method: 'POST',
      body: { walletName: 'Largest', assetCode: 'USDC', ownAccount: true },
    });
    assert.equal(created.status, 201);
    await activationDone(f.caller, created.body.id);
    assertRefused(await fund(created.body.id, '922337203685.4775807'), 'amount', [400]);
    const capped = await fund(created.body.id, '922337203685.4775');
    assertRefused(capped, 'amount', [422]);
    assert.match(
      capped.body.detail,
      /922337203685\.4775 USDC is more than one sandbox call may ask: at most 10000/,
    );
    const funded = await fund(created.body.id, '9999.9999999');
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
    assert.equal(await usdcBalance(created.body.id), '9999.9999999');
  });

  const quote = (amount: string) =>
    send('/quotes', {
      method: 'POST',
      ...credentials({ auth: 'token' }, f),
      body: `{"amount":${amount},"connectorId":"${CONNECTOR_ID}","transactionType":"B2C"}`,
    });

  for (const amount of refused) {
    const statuses = inexact.has(amount) ? [400] : [400, 422];
    it(`POST /v1/quotes refuses amount ${amount} with ${statuses.join(' or ')} naming amount`, async () => {
      assertRefused(await quote(amount), 'amount', statuses);
    });
  }

  it('stored no quote for any refused amount', async () => {
    // The fixture's own ramp quotes aside.
    const quotes = (await partitionItems(f.caller)).filter(
      (item) =>
        String(item.sk).startsWith('QUOTE#') && ![f.offramp.quoteId, f.onramp.quoteId].includes(item.quoteId),
    );
    assert.deepEqual(quotes, []);
  });
});

describe('hardening: query members no route takes', () => {
  it('every route’s request is valid without them (the control for the tests below)', async () => {
    const control = await newFixture();
    for (const { key, route } of allRoutes()) {
      const response = await sendAs(control, validRequest(route, control));
      assert.ok(response.status >= 200 && response.status < 300, `${key}: ${JSON.stringify(response.body)}`);
    }
  });

  for (const { key, route } of allRoutes()) {
    it(`${key} refuses ?zzUnknown=1 with 400 naming zzUnknown`, async () => {
      const spec = validRequest(route, f);
      assertRefused(await sendAs(f, { ...spec, path: withQuery(spec.path, 'zzUnknown=1') }), 'zzUnknown');
    });
    it(`${key} refuses ?limit=1e309 with 400 naming limit`, async () => {
      const spec = validRequest(route, f);
      assertRefused(await sendAs(f, { ...spec, path: withQuery(spec.path, 'limit=1e309') }), 'limit');
    });
    it(`${key} refuses ?cursor=garbage with 400 naming cursor`, async () => {
      const spec = validRequest(route, f);
      assertRefused(await sendAs(f, { ...spec, path: withQuery(spec.path, 'cursor=garbage') }), 'cursor');
    });
    if (PAGED_ROUTES.has(key)) {
      it(`${key} refuses a repeated member (?limit=1&limit=2) with 400 naming limit`, async () => {
        const spec = validRequest(route, f);
        assertRefused(await sendAs(f, { ...spec, path: withQuery(spec.path, 'limit=1&limit=2') }), 'limit');
      });
    }
  }

  it('GET /v1/wallets refuses a repeated member (?networkName=a&networkName=b) with 400 naming networkName', async () => {
    assertRefused(await as(f.caller, '/wallets?networkName=a&networkName=b'), 'networkName');
    // Each alone is a filter like any other.
    assert.equal((await as(f.caller, '/wallets?networkName=a')).status, 200);
  });

  it('GET /v1/payments/requirements refuses a repeated connectorId with 400 naming it', async () => {
    assertRefused(
      await as(f.caller, `/payments/requirements?connectorId=${CONNECTOR_ID}&connectorId=${CONNECTOR_ID}`),
      'connectorId',
    );
  });

  it('POST /v1/sandbox/wallets/{id}/kyc?limit=1e309 writes nothing: the wallet stays Pending', async () => {
    const spec = validRequest(routeNamed('POST /v1/sandbox/wallets/{walletId}/kyc'), f);
    assertRefused(await sendAs(f, { ...spec, path: withQuery(spec.path, 'limit=1e309') }), 'limit');
    const wallet = await as(f.caller, `/wallets/${f.pendingWallet}`);
    assert.equal(wallet.body.status, 'Pending');
  });
});

describe('hardening: nothing unsigned is read on the provider route', () => {
  it('answers an unsigned, forged or stale body, whatever it holds, with one fixed 401 of under 300 bytes, before reading it', async () => {
    const spec = validRequest(routeNamed('POST /v1/provider-notifications/{environment}/{connectorId}'), f);
    const signed = JSON.stringify(spec.body);
    // What used to be parsed and checked against the schema first (a 60 KB body answered ~1 MB).
    const members = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`m${i}`, i]));
    const bodies: [string, string | Uint8Array, Record<string, string>][] = [
      ['60 KB of unknown members', JSON.stringify({ kind: 'payout', ...members }), {}],
      ['malformed JSON', '{"kind":', {}],
      ['nested 33 levels', nested(33, 'array'), {}],
      ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]), {}],
      ['not JSON at all', 'kind=payout', { 'content-type': 'text/plain' }],
      ['the valid body, signed with another secret', signed, {}],
    ];
    const answers: { what: string; response: ApiResponse; bytes: number }[] = [];
    for (const [what, body, headers] of bodies) {
      const unsigned = await send(spec.path, { method: 'POST', body, headers });
      const forged = await send(spec.path, {
        method: 'POST',
        body,
        headers: { ...headers, 'x-provider-signature': `t=${Date.now()},v1=${'0'.repeat(64)}` },
      });
      for (const response of [unsigned, forged]) {
        const bytes = Buffer.byteLength(JSON.stringify(response.body));
        answers.push({ what, response, bytes });
      }
    }
    for (const { what, response, bytes } of answers) {
      assert.equal(response.status, 401, `${what}: ${JSON.stringify(response.body).slice(0, 300)}`);
      assert.ok(bytes < 300, `${what}: ${bytes} bytes`);
    }
    // Fixed: the same body every time but for the request's own id.
    const shapes = new Set(
      answers.map(({ response }) => JSON.stringify({ ...response.body, requestId: '' })),
    );
    assert.equal(shapes.size, 1, [...shapes].join('\n'));
    // The valid request, signed, is still received.
    assert.equal((await sendAs(f, spec)).status, 200);
  });

  it('answers an unsigned request with the same fixed 401 whatever its path and query: the signature is checked before either is validated', async () => {
    const spec = validRequest(routeNamed('POST /v1/provider-notifications/{environment}/{connectorId}'), f);
    const body = JSON.stringify(spec.body);
    const forged = { 'x-provider-signature': `t=${Date.now()},v1=${'0'.repeat(64)}` };
    const requests: [string, string, string | Uint8Array, Record<string, string>][] = [
      ['an environment the route does not know', spec.path.replace('/sandbox/', '/staging/'), body, {}],
      ['a connector id that is not one', spec.path.replace(CONNECTOR_ID, 'Not_A_Connector!'), body, {}],
      ['a connector id of 200 characters', spec.path.replace(CONNECTOR_ID, 'c'.repeat(200)), body, {}],
      ['a query member no route takes', withQuery(spec.path, 'debug=1&limit=x'), body, {}],
      [
        'all of them, forged',
        withQuery(spec.path.replace('/sandbox/', '/staging/'), 'debug=1'),
        body,
        forged,
      ],
      ['a body over the size limit', spec.path, JSON.stringify({ kind: 'x'.repeat(70 * 1024) }), {}],
    ];
    const answers: { what: string; response: ApiResponse }[] = [];
    for (const [what, path, requestBody, headers] of requests)
      answers.push({ what, response: await send(path, { method: 'POST', body: requestBody, headers }) });
    for (const { what, response } of answers) {
      assert.equal(response.status, 401, `${what}: ${JSON.stringify(response.body).slice(0, 300)}`);
      assert.ok(Buffer.byteLength(JSON.stringify(response.body)) < 300, what);
      assert.equal(response.body.errors, undefined, `${what}: no schema or field is named`);
    }
    const shapes = new Set(
      answers.map(({ response }) => JSON.stringify({ ...response.body, requestId: '', instance: '' })),
    );
    assert.equal(shapes.size, 1, [...shapes].join('\n'));
    // Signed, the same query is read and refused by name: only what the provider signed is validated.
    assertRefused(await sendAs(f, { ...spec, path: withQuery(spec.path, 'debug=1') }), 'debug');
  });
});

describe('hardening: a problem lists at most 20 field errors', () => {
  it('answers a body with 3,000 faults with the first 20 and how many more, in a few KiB', async () => {
    const spec = validRequest(routeNamed('POST /v1/wallets'), f);
    const members = Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`m${i}`, i]));
    const response = await sendAs(f, spec, JSON.stringify({ ...(spec.body as object), ...members }));
    assertRefused(response, 'm0');
    assert.equal(response.body.errors.length, 20);
    assert.equal(response.body.moreErrors, 2980);
    assert.ok(JSON.stringify(response.body).length < 4096, `${JSON.stringify(response.body).length} bytes`);
    // Twenty or fewer: all of them, and no count.
    const few = await sendAs(f, spec, JSON.stringify({ ...(spec.body as object), m0: 0, m1: 1 }));
    assert.equal(few.body.errors.length, 2);
    assert.equal(few.body.moreErrors, undefined);
  });
});
