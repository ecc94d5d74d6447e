// The OpenAPI document's request rules, probed against the server: for every request body schema, the
// test derives from the schema itself values at and just past each stated bound (numbers: minimum,
// exclusiveMinimum, maximum, multipleOf; strings: minLength, maxLength; arrays: minItems, maxItems;
// members: required), puts each into the operation's first documented example, and sends it. A value the
// document allows must never be refused for that member (no 400 naming it: a 404 for a made-up wallet,
// or a 422 from a business rule such as a connector's limits, is not the schema's business); a value it
// forbids must be a 400 naming the member. Strings with a pattern, a format, an enum or a per-country
// format (`x-format-by-country`, stated in their description) are probed only for being required: their
// bounds are not lengths a generator can fill. Numbers are JSON doubles: a step finer than a double can
// tell apart at the bound (1e-7 at 9e11) is widened until the value differs.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, it } from 'vitest';
import { MAX_AMOUNT } from '../../lib/ledger/amounts.ts';
import { routes } from '../../lib/routes.ts';
import { openApiDocument } from '../../openapi/document.ts';
import { requestExamples } from '../../openapi/request-examples.ts';
import { as, type Caller, newCaller } from '../support/api.ts';

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema keywords are read one by one.
type Schema = Record<string, any>;
interface Probe {
  field: string;
  value: unknown;
  allowed: boolean;
  bound: string;
}

const document = openApiDocument();
const schemas = document.components.schemas as Record<string, Schema>;
const deref = (schema: Schema): Schema =>
  schema.$ref ? deref(schemas[String(schema.$ref).split('/').pop() as string] as Schema) : schema;

/** The branch of an anyOf/oneOf the example takes: its type, and its const members, match. */
function branchOf(schema: Schema, value: unknown): Schema | undefined {
  // A typed schema's anyOf is a condition on it (CreateWalletRequest's), not a union of alternatives.
  const branches = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (!branches || schema.type) return schema;
  return branches.map(deref).find((branch) => {
    if (branch.type === 'null') return value === null;
    if (branch.type === 'object')
      return (
        typeof value === 'object' &&
        value !== null &&
        Object.entries(branch.properties ?? {}).every(
          ([name, member]) =>
            (member as Schema).const === undefined || (member as Schema).const === (value as Schema)[name],
        )
      );
    if (branch.type === 'array') return Array.isArray(value);
    return value === undefined || typeof value === (branch.type === 'integer' ? 'number' : branch.type);
  });
}

/** `base` cut or padded (with `a`) to `length` characters. */
const sized = (base: unknown, length: number) =>
  (typeof base === 'string' ? base : '').slice(0, length).padEnd(length, 'a');

/** Probes for one member: `value` is what the example holds there (undefined: not in it). */
function probesOf(raw: Schema, value: unknown, field: string): Probe[] {
  const schema = branchOf(deref(raw), value);
  if (!schema || (value === undefined && schema.type === 'object')) return [];
  const at = (bound: string, v: unknown, allowed: boolean): Probe => ({ field, value: v, allowed, bound });
  const probes: Probe[] = [];
  const types = [schema.type].flat();
  if (types.includes('number') || types.includes('integer')) {
    const step = schema.multipleOf ?? 1;
    if (schema.exclusiveMinimum !== undefined) {
      probes.push(at('exclusiveMinimum', schema.exclusiveMinimum, false));
      probes.push(at('exclusiveMinimum', schema.exclusiveMinimum + step, true));
    }
    if (schema.minimum !== undefined) {
      probes.push(at('minimum', schema.minimum, true), at('minimum', schema.minimum - step, false));
    }
    if (schema.maximum !== undefined) {
      let past = step;
      while (schema.maximum + past <= schema.maximum) past *= 10;
      probes.push(at('maximum', schema.maximum, true), at('maximum', schema.maximum + past, false));
    }
    if (schema.multipleOf !== undefined) {
      probes.push(at('multipleOf', 1 + step, true), at('multipleOf', 1 + step / 10, false));
    }
  } else if (
    types.includes('string') &&
    !schema.pattern &&
    !schema.format &&
    !schema.enum &&
    !schema['x-format-by-country']
  ) {
    if (schema.minLength) {
      probes.push(at('minLength', sized(value, schema.minLength), true));
      probes.push(at('minLength', sized(value, schema.minLength - 1), false));
    }
    if (schema.maxLength !== undefined) {
      probes.push(at('maxLength', sized(value, schema.maxLength), true));
      probes.push(at('maxLength', sized(value, schema.maxLength + 1), false));
    }
  } else if (types.includes('array') && Array.isArray(value) && value.length > 0) {
    const items = (n: number) => Array.from({ length: n }, () => value[0]);
    if (schema.minItems !== undefined) {
      probes.push(at('minItems', items(schema.minItems), true));
      if (schema.minItems > 0) probes.push(at('minItems', items(schema.minItems - 1), false));
    }
    if (schema.maxItems !== undefined) {
      probes.push(
        at('maxItems', items(schema.maxItems), true),
        at('maxItems', items(schema.maxItems + 1), false),
      );
    }
    probes.push(...probesOf(schema.items ?? {}, value[0], `${field}.0`));
  } else if (types.includes('object')) {
    for (const [name, member] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
      const inner = (value as Schema)[name];
      const path = field ? `${field}.${name}` : name;
      if (schema.required?.includes(name) && inner !== undefined)
        probes.push({ field: path, value: undefined, allowed: false, bound: 'required' });
      probes.push(...probesOf(member, inner, path));
    }
  }
  return probes;
}

/** `example` with `field` (a dotted path) set to `value`, or removed when `value` is undefined. */
function withMember(example: unknown, field: string, value: unknown): unknown {
  const copy = structuredClone(example) as Schema;
  const names = field.split('.');
  const last = names.pop() as string;
  const parent = names.reduce<Schema>((node, name) => node[name], copy);
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

const bodied = routes.filter(
  // A portal person's routes take a person's token or the session cookie, not an application's: portal-auth
  // probes them.
  (route) =>
    !['providerSignature', 'person', 'session'].includes(route.auth) && requestExamples[route.operation],
);
let caller: Caller;
beforeAll(async () => {
  caller = await newCaller({ name: 'Bounds tenant' });
});

describe('the OpenAPI request schemas, probed at their bounds', () => {
  it.each(bodied.map((route) => [route.operation, route] as const))(
    '%s',
    { timeout: 120_000 },
    async (_, route) => {
      const op = document.paths[route.path]?.[route.method.toLowerCase()] as Schema;
      const bodyRef = op.requestBody.content['application/json'].schema;
      const example = Object.values(requestExamples[route.operation] ?? {})[0]?.value as Schema;
      const probes = probesOf(bodyRef, example, '');
      assert.ok(probes.length > 0, `${route.operation}: no bound to probe`);
      const path = route.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
        name === 'assetCode' ? 'USDC' : name === 'connectorId' ? 'za-bank-offramp-usdc-zar' : randomUUID(),
      );
      const disagreements: string[] = [];
      for (const probe of probes) {
        const body = withMember(example, probe.field, probe.value) as Schema;
        if ('transactionId' in body) body.transactionId = randomUUID();
        const response = await as(caller, path, { method: route.method, body });
        const named =
          response.status === 400 &&
          (response.body.errors ?? []).some((e: { field: string }) => e.field === probe.field);
        if (named === probe.allowed)
          disagreements.push(
            `${probe.field} ${probe.bound} ${JSON.stringify(probe.value)?.slice(0, 40)}: documented ${probe.allowed ? 'allowed' : 'forbidden'}, server ${response.status} ${JSON.stringify(response.body.errors ?? response.body.detail)}`,
          );
      }
      assert.deepEqual(disagreements, []);
    },
  );

  it('states the amount and memo rules on every request member that takes them, X-Request-Id everywhere', () => {
    const members = (schema: Schema, at: string): [string, Schema][] =>
      Object.entries(schema).flatMap(([key, value]) =>
        typeof value === 'object' && value !== null
          ? [
              [`${at}/${key}`, value as Schema] as [string, Schema],
              ...members(value as Schema, `${at}/${key}`),
            ]
          : [],
      );
    const requestMembers = Object.entries(schemas)
      .filter(([name]) => name.endsWith('Request'))
      .flatMap(([name, schema]) => members(schema, name));
    const amounts = requestMembers.filter(([at]) => /\/properties\/amount$/.test(at));
    assert.ok(amounts.length >= 7);
    for (const [at, amount] of amounts) {
      // A provider's notification states its amount as a decimal string: its pattern is the rule.
      if (amount.type === 'string') {
        assert.ok(amount.pattern, at);
        continue;
      }
      // A customer paying into a reference (sandbox) pays fiat: cents, up to the helper's cap.
      if (at.startsWith('PayIntoReferenceRequest/')) {
        assert.deepEqual([amount.exclusiveMinimum, amount.multipleOf, amount.maximum], [0, 0.01, 1e9], at);
        continue;
      }
      assert.deepEqual(
        [amount.exclusiveMinimum, amount.multipleOf, amount.maximum],
        [0, 1e-7, Number(MAX_AMOUNT)],
        at,
      );
    }
    const memos = requestMembers.filter(([at]) => /\/properties\/memo$/.test(at));
    assert.ok(memos.length >= 2);
    for (const [at, memo] of memos) {
      assert.equal(memo.maxLength, 28, at);
      assert.match(memo.description, /28 bytes of UTF-8/, at);
    }
    // A member whose schema is only null vanishes from generated types.
    const nullOnly = members(document.components as Schema, 'components').filter(
      ([at, schema]) => /\/properties\/[^/]+$/.test(at) && schema.type === 'null',
    );
    assert.deepEqual(
      nullOnly.map(([at]) => at),
      [],
    );
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, op] of Object.entries(item))
        assert.ok(
          (op.parameters as { $ref?: string }[]).some((p) => p.$ref === '#/components/parameters/RequestId'),
          `${method} ${path}`,
        );
  });

  it('CreateWalletRequest: metadata is required unless ownAccount is true, as its anyOf says', async () => {
    const schema = schemas.CreateWalletRequest as Schema;
    assert.deepEqual(schema.anyOf, [
      { properties: { ownAccount: { const: true } }, required: ['ownAccount'] },
      { required: ['metadata'] },
    ]);
    for (const ownAccount of [false, undefined]) {
      const response = await as(caller, '/wallets', {
        method: 'POST',
        body: { walletName: 'No metadata', assetCode: 'USDC', ownAccount },
      });
      assert.equal(response.status, 400);
      assert.ok(response.body.errors.some((e: { field: string }) => e.field === 'metadata'));
    }
    const own = await as(caller, '/wallets', {
      method: 'POST',
      body: { walletName: 'Own', assetCode: 'USDC', ownAccount: true },
    });
    assert.equal(own.status, 201, JSON.stringify(own.body));
  });

  it('limit: the integer bounds of the Limit parameter hold on a list route', async () => {
    const limit = (document.components.parameters as Record<string, Schema>).Limit?.schema as Schema;
    assert.deepEqual(limit, { type: 'integer', minimum: 1, maximum: 999_999_999 });
    const status = async (value: number) => (await as(caller, `/wallets?limit=${value}`)).status;
    assert.equal(await status(limit.minimum), 200);
    assert.equal(await status(limit.minimum - 1), 400);
    assert.equal(await status(limit.maximum), 200);
    assert.equal(await status(limit.maximum + 1), 400);
  });
});
