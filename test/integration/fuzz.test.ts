// A bounded fuzz of every route of lib/routes.ts (and an unknown path), as a fresh tenant with one of
// each resource: each request is the route's valid request (test/support/fixtures.ts) with one thing
// made bad — a malformed escape in a path parameter, a stray or repeated query member, a member nested
// too deep, an extreme number, invalid UTF-8 or a lone surrogate in a string, a wrong type, an unknown
// member, malformed JSON. Only inputs every route must refuse are built. Every answer must be a 4xx
// problem+json with X-Request-Id, the tenant's partition must hold exactly what it held before, and
// the stack must keep serving.
//
// The cases are fixed (no randomness). Where an input is a property of the whole request rather than of
// one member (how deep the body nests, bytes that are not UTF-8) or a member only refuses it by its type
// (an extreme number in a string), each route gets every input of the class, spread over its members so
// each member gets at least one (covering()), instead of every input at every member. A lone surrogate
// is a string member's own check: each string member gets one, each route all three.
import assert from 'node:assert/strict';
import { beforeAll, describe, it } from 'vitest';
import { type Route, routes } from '../../lib/routes.ts';
import { baseUrl, send } from '../support/api.ts';
import {
  allRoutes,
  bodyWith,
  credentials,
  type Fixture,
  type MemberPath,
  membersOf,
  nested,
  newFixture,
  PAGED_ROUTES,
  paramsOf,
  partitionItems,
  pooled,
  type RequestSpec,
  validRequest,
  withQuery,
} from '../support/fixtures.ts';

interface Case {
  /** Which route (route key, or `unknown path`) and what was made bad. */
  route: string;
  what: string;
  method: string;
  path: string;
  body?: string | Uint8Array;
  headers?: Record<string, string>;
  auth: RequestSpec['auth'];
}

const CONCURRENCY = 8;
/** The cases this file may send (3,596 with the portal's and the round's routes): a bound on its run time, raised with care. */
const MAX_CASES = 4000;

const ESCAPES = ['%FF', '%', '%zz', '%E0%A4%A', '%C0%AF'];
/** JSON number texts no amount (or any other member) may be: beyond int64 stroops or a double, too fine, not positive. */
const EXTREME_NUMBERS = [
  '922337203686',
  '922337203685.4775808',
  '9007199254740993',
  '1e21',
  '1E400',
  '123456789012345678901234567890',
  '1e-8',
  '0.00000001',
  '0.10000000000000001',
  '-1e-400',
  '-1',
  '-0',
  '0',
];
const INVALID_UTF8: [string, number[]][] = [
  ['FF', [0xff]],
  ['C0 AF', [0xc0, 0xaf]],
  ['ED A0 80', [0xed, 0xa0, 0x80]],
  ['E2 82', [0xe2, 0x82]],
];
const SURROGATES = ['"\\ud800"', '"\\udc00"', '"x\\udfffx"'];
const MALFORMED_JSON = [
  '{',
  '[',
  '}',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  'NaN',
  '{"a":01}',
  '{"a":"\\x"}',
  '{"a":"\\u12"}',
  '{"a":tru}',
  '{} x',
  '{"a":1}{"b":2}',
  '\uFEFF{}',
  '',
];

/** How deep a member nests: within the chain's bound and far beyond it, in arrays and in objects. */
const NESTINGS: [number, 'array' | 'object'][] = [
  [40, 'array'],
  [40, 'object'],
  [9000, 'array'],
  [9000, 'object'],
];

/**
 * Pairs of `targets` and `inputs` in which every target and every input occurs at least once:
 * max(targets, inputs) pairs instead of targets × inputs. `offset` turns the inputs, so the routes do not
 * all give their first member the first input.
 */
function covering<T, I>(targets: T[], inputs: I[], offset: number): [T, I][] {
  if (targets.length === 0) return [];
  return Array.from(
    { length: Math.max(targets.length, inputs.length) },
    (_, i) => [targets[i % targets.length] as T, inputs[(i + offset) % inputs.length] as I] as [T, I],
  );
}

/** JSON texts of another type than `value`'s: a member of that type cannot take them. */
function otherTypes(value: unknown): string[] {
  if (typeof value === 'string') return ['1', 'true', '[]', '{}'];
  if (typeof value === 'number') return ['"1"', 'true', '[]', '{}'];
  if (typeof value === 'boolean') return ['"true"', '1', '[]', '{}'];
  if (Array.isArray(value)) return ['"x"', '1', 'true', '{}'];
  return ['"x"', '1', 'true', '[]'];
}

/** `body` with an extra member in the object at `path` (the body itself for []). */
function withUnknownMember(body: unknown, path: MemberPath): string {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let target: Record<string | number, unknown> = copy;
  for (const step of path) target = target[step] as Record<string | number, unknown>;
  target.zzUnknown = 1;
  return JSON.stringify(copy);
}

function casesOf(key: string, spec: RequestSpec, route: Route, f: Fixture, offset: number): Case[] {
  const cases: Case[] = [];
  const add = (what: string, change: Partial<Case>) =>
    cases.push({
      route: key,
      what,
      method: spec.method,
      path: spec.path,
      ...(spec.body !== undefined ? { body: JSON.stringify(spec.body) } : {}),
      auth: spec.auth,
      ...change,
    });

  // Path parameters with malformed escapes (routes without any: as an extra, unknown, segment).
  const params = paramsOf(route);
  for (const malformed of ESCAPES) {
    if (params.length === 0) add(`path + /${malformed}`, { path: `${spec.path.split('?')[0]}/${malformed}` });
    for (const param of params) {
      const bad = validRequest(route, f, { [param]: malformed });
      add(`{${param}} = ${malformed}`, { path: bad.path });
    }
  }

  // Stray, repeated and malformed query members. A paged route reads limit as a number: each extreme
  // number is a case of its own there. Elsewhere limit is a member the route does not take, whatever it
  // holds: one extreme number (another for each route) stands for them.
  const extremeLimits = PAGED_ROUTES.has(key)
    ? EXTREME_NUMBERS
    : [EXTREME_NUMBERS[offset % EXTREME_NUMBERS.length] as string];
  const queries = [
    'zzUnknown=1',
    'zzUnknown=1&zzUnknown=2',
    'limit=1e309',
    'limit=%zz',
    'limit=',
    'limit=1&limit=2',
    'cursor=garbage',
    'cursor=%FF',
    'cursor=',
    ...extremeLimits.map((n) => `limit=${encodeURIComponent(n)}`),
  ];
  const own = spec.path.split('?')[1];
  if (own) queries.push(own.replace(/^([^=]+)=(.*)$/, '$1=$2&$1=$2'));
  if (key === 'GET /v1/wallets') queries.push('networkName=a&networkName=b', 'assetCode=USDC&assetCode=USDC');
  for (const query of queries) add(`?${query}`, { path: withQuery(spec.path, query) });

  // Methods the path does not take (another route may take DELETE on it: /webhooks/{webhookId}).
  const taken = new Set(routes.filter((r) => r.path === route.path).map((r) => r.method as string));
  for (const method of ['DELETE', 'PUT'].filter((m) => !taken.has(m)))
    add(`method ${method}`, { method, body: undefined });

  if (spec.body === undefined) return cases;

  // Each member of the body: every other type, and for a number every extreme number, bare and quoted.
  const members = membersOf(spec.body);
  const replace = ({ path }: { path: MemberPath }, what: string, raw: string | Uint8Array) =>
    add(`${path.join('.')} = ${what}`, { body: bodyWith(spec.body, path, raw) });
  for (const member of members) {
    for (const raw of otherTypes(member.value)) replace(member, raw, raw);
    if (typeof member.value === 'number')
      for (const raw of EXTREME_NUMBERS) {
        replace(member, raw, raw);
        replace(member, `"${raw}"`, `"${raw}"`);
      }
  }
  // Every extreme number in the members that are not numbers (refused there by their type), every
  // nesting, and in the string members every invalid byte sequence and every lone surrogate: each
  // input of a class at least once in the route, each member at least once per class.
  const strings = members.filter(({ value }) => typeof value === 'string');
  const others = members.filter(({ value }) => typeof value !== 'number');
  for (const [member, raw] of covering(others, EXTREME_NUMBERS, offset)) replace(member, raw, raw);
  for (const [member, [depth, kind]] of covering(members, NESTINGS, offset))
    replace(member, `${kind}s nested ${depth} deep`, nested(depth, kind));
  for (const [member, [label, bytes]] of covering(strings, INVALID_UTF8, offset))
    replace(
      member,
      `bytes ${label}`,
      Buffer.concat([Buffer.from('"x'), Buffer.from(bytes), Buffer.from('"')]),
    );
  for (const [member, raw] of covering(strings, SURROGATES, offset)) replace(member, raw, raw);

  // Unknown members, at the top and in every nested object. The token request is the one body whose
  // schema takes (and ignores) members it does not know: nothing there is a bad request.
  if (key !== 'POST /v1/auth/token') {
    const objects: MemberPath[] = [
      [],
      ...membersOf(spec.body)
        .filter(({ value }) => value !== null && typeof value === 'object' && !Array.isArray(value))
        .map(({ path }) => path),
    ];
    for (const path of objects)
      add(`unknown member in ${path.join('.') || 'the body'}`, { body: withUnknownMember(spec.body, path) });
  }

  // The whole body: another type, too deep, malformed, or not declared as JSON.
  for (const raw of ['[]', 'null', '"x"', '1', 'true', nested(40, 'array'), nested(40, 'object')])
    add(`body = ${raw.slice(0, 12)}`, { body: raw });
  for (const raw of [...MALFORMED_JSON, JSON.stringify(spec.body).slice(0, -1)])
    add(`malformed body ${JSON.stringify(raw.slice(0, 16))}`, { body: raw });
  for (const type of ['text/plain', 'application/x-www-form-urlencoded'])
    add(`content-type ${type}`, { headers: { 'content-type': type } });
  return cases;
}

function buildCases(f: Fixture): Case[] {
  const cases: Case[] = [];
  for (const [index, { key, route }] of allRoutes().entries())
    cases.push(...casesOf(key, validRequest(route, f), route, f, index));
  const unknown = (what: string, change: Partial<Case>) =>
    cases.push({
      route: 'unknown path',
      what,
      method: 'GET',
      path: '/zz-no-such-route',
      auth: 'token',
      ...change,
    });
  unknown('GET', {});
  unknown('POST with a body', { method: 'POST', body: '{"a":1}' });
  unknown('POST, too deep', { method: 'POST', body: nested(9000, 'array') });
  unknown('POST, invalid UTF-8', { method: 'POST', body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]) });
  unknown('?zzUnknown=1', { path: '/zz-no-such-route?zzUnknown=1' });
  for (const malformed of ESCAPES) unknown(`/${malformed}`, { path: `/zz-no-such-route/${malformed}` });
  return cases;
}

/** What is wrong with an answer, or null when it is a 4xx problem with X-Request-Id. */
async function judge(c: Case, f: Fixture): Promise<string | null> {
  let response: Awaited<ReturnType<typeof send>>;
  try {
    response = await send(c.path, {
      method: c.method,
      ...credentials(c, f),
      ...(c.body !== undefined ? { body: c.body } : {}),
      ...(c.headers ? { headers: c.headers } : {}),
      timeoutMs: 4000,
    });
  } catch (error) {
    return (error as Error).message;
  }
  const problems: string[] = [];
  if (response.status < 400 || response.status > 499) problems.push(`status ${response.status}`);
  const type = response.headers.get('content-type');
  if (type !== 'application/problem+json') problems.push(`content-type ${type}`);
  if (!response.headers.get('x-request-id')) problems.push('no X-Request-Id');
  else if (response.body?.status !== response.status) problems.push('no problem body');
  return problems.length ? `${problems.join(', ')}: ${JSON.stringify(response.body).slice(0, 160)}` : null;
}

describe('fuzz: every route refuses bad requests with a 4xx problem, writes nothing, and keeps serving', () => {
  let f: Fixture;
  let baseline: Record<string, unknown>[];
  let cases: Case[];
  beforeAll(async () => {
    // Resources first, and their activation finished (it updates the wallet items), then the baseline.
    f = await newFixture();
    baseline = await partitionItems(f.caller);
    cases = buildCases(f);
  });

  it('covers every route of lib/routes.ts and an unknown path, within bounds', () => {
    const covered = new Set(cases.map((c) => c.route));
    for (const { key } of allRoutes()) assert.ok(covered.has(key), `no case for ${key}`);
    assert.ok(covered.has('unknown path'));
    assert.ok(cases.length <= MAX_CASES, `${cases.length} cases`);
    // The paged routes are named as lib/routes.ts names them (a renamed route would lose its paging cases).
    assert.ok([...PAGED_ROUTES].every((key) => covered.has(key)));
  });

  it('answers every bad request with a 4xx problem+json and X-Request-Id', async ({ annotate }) => {
    const started = Date.now();
    const verdicts = await pooled(
      cases.map((c) => async () => ({ c, verdict: await judge(c, f) })),
      CONCURRENCY,
    );
    await annotate(`${cases.length} requests in ${Date.now() - started} ms, ${CONCURRENCY} at a time`);
    const failures = verdicts.filter(({ verdict }) => verdict !== null);
    // A few examples per route, so one route's many failures do not hide another's.
    const byRoute = Map.groupBy(failures, ({ c }) => c.route);
    const summary = [...byRoute].flatMap(([route, list]) => [
      `${route}: ${list.length} of ${cases.filter((c) => c.route === route).length}`,
      ...list.slice(0, 4).map(({ c, verdict }) => `    ${c.what}: ${verdict}`),
    ]);
    assert.deepEqual(summary, [], `${failures.length} of ${cases.length} answers were not 4xx problems`);
    // Thousands of requests, each also counted in its tenant's request-limit window (one more write to
    // DynamoDB Local than before issue #36): more than the suite's 60 s on a busy 2-core machine.
  }, 180_000);

  it('wrote nothing: the tenant’s partition holds exactly the items it held before', async () => {
    const after = await partitionItems(f.caller);
    const keys = (items: Record<string, unknown>[]) => items.map((item) => String(item.sk));
    assert.deepEqual(keys(after), keys(baseline), 'the same items');
    assert.deepEqual(after, baseline, 'unchanged');
  });

  it('keeps serving: /healthz and an authenticated GET /v1/assets', async () => {
    const health = await fetch(`${baseUrl().replace(/\/v1$/, '')}/healthz`, {
      signal: AbortSignal.timeout(5000),
    });
    assert.equal(health.status, 200);
    const assets = await send('/assets', { ...credentials({ auth: 'token' }, f) });
    assert.equal(assets.status, 200, JSON.stringify(assets.body));
  });

  it('consumed nothing: the valid request of every route still succeeds afterwards', async () => {
    for (const { key, route } of allRoutes()) {
      const spec = validRequest(route, f);
      // The fuzz may have spent the token client's rate limit: the caller's own client asks instead.
      const body =
        key === 'POST /v1/auth/token'
          ? { clientId: f.caller.tenant.clientId, clientSecret: f.caller.tenant.clientSecret }
          : spec.body;
      const response = await send(spec.path, {
        method: spec.method,
        ...credentials(spec, f),
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        timeoutMs: 15_000,
      });
      assert.ok(response.status >= 200 && response.status < 300, `${key}: ${JSON.stringify(response.body)}`);
    }
  });
});
