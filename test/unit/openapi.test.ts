// The OpenAPI document covers lib/routes.ts completely: every route, its success response and every
// problem status it documents have schemas; its examples are what the API accepts and answers.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import type { ProblemStatus } from '../../lib/http/problem.ts';
import { operationFor } from '../../lib/operations/index.ts';
import { routes } from '../../lib/routes.ts';
import { openApiDocument } from '../../openapi/document.ts';
import { operationDocs } from '../../openapi/operation-docs.ts';
import type { OpenApiResponse } from '../../openapi/types.ts';
import { Contract } from '../support/contract.ts';

const document = openApiDocument();
const contract = new Contract(document);

const operationOf = (path: string, method: string) => document.paths[path]?.[method.toLowerCase()];

function resolved(response: unknown): OpenApiResponse {
  const ref = (response as { $ref?: string }).$ref;
  if (!ref) return response as OpenApiResponse;
  const target = document.components.responses[ref.replace('#/components/responses/', '')];
  assert.ok(target, `${ref} does not resolve`);
  return target;
}

/** Every `$ref` anywhere in the document, with where it was found. */
function refsIn(value: unknown, at = '#'): { ref: string; at: string }[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => refsIn(item, `${at}/${i}`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, member]) =>
    key === '$ref' && typeof member === 'string' ? [{ ref: member, at }] : refsIn(member, `${at}/${key}`),
  );
}

function pointerTarget(ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, segment) => (node as Record<string, unknown> | undefined)?.[segment], document);
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with both security schemes; POST /auth/token needs only x-service-auth', () => {
    assert.match(String(document.openapi), /^3\.1\./);
    const schemes = document.components.securitySchemes as Record<string, Record<string, string>>;
    assert.deepEqual(schemes.serviceAuth, {
      ...schemes.serviceAuth,
      type: 'apiKey',
      in: 'header',
      name: 'x-service-auth',
    });
    assert.deepEqual(schemes.bearerAuth, {
      ...schemes.bearerAuth,
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
    for (const route of routes) {
      const expected = {
        apiKey: [{ serviceAuth: [] }],
        token: [{ serviceAuth: [], bearerAuth: [] }, { personBearer: [] }],
        providerSignature: [],
        none: [],
        session: [{ portalSession: [] }],
        person: [{ personBearer: [] }],
      }[route.auth];
      assert.deepEqual(
        operationOf(route.path, route.method)?.security,
        expected,
        `${route.method} ${route.path}`,
      );
    }
  });

  it('has every route of lib/routes.ts, and nothing else', () => {
    for (const route of routes) {
      const operation = operationOf(route.path, route.method);
      assert.ok(operation, `${route.method} ${route.path} is missing`);
      assert.equal(operation.operationId, route.operation);
    }
    const documented = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    assert.deepEqual(documented.sort(), routes.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('gives every route a success response with a JSON schema, and a 202 only where one is documented', () => {
    for (const route of routes) {
      const responses = operationOf(route.path, route.method)?.responses ?? {};
      const success = Object.keys(responses).filter((status) => /^2\d\d$/.test(status));
      const expected = [String(operationDocs[route.operation].success.status)];
      if (operationDocs[route.operation].alsoOk) expected.push('200');
      if (operationDocs[route.operation].accepted) expected.push('202');
      assert.deepEqual(success.sort(), expected.sort(), `${route.method} ${route.path} successes`);
      for (const status of success) {
        const schema = resolved(responses[status]).content?.['application/json']?.schema;
        assert.ok(schema?.$ref, `${route.method} ${route.path} has no ${status} schema`);
        assert.ok(pointerTarget(String(schema.$ref)), `${schema.$ref} does not resolve`);
      }
    }
  });

  it('lists the Idempotency-Key header exactly on the operations that honour it', () => {
    for (const route of routes) {
      const parameters = (operationOf(route.path, route.method)?.parameters ?? []) as { $ref?: string }[];
      const listed = parameters.some((p) => p.$ref === '#/components/parameters/IdempotencyKey');
      assert.equal(listed, operationFor(route).idempotencyKey === true, `${route.method} ${route.path}`);
    }
    assert.ok(operationFor({ fn: 'sandbox', operation: 'fundWallet' }).idempotencyKey);
  });

  it('gives every documented problem status a problem+json schema fixed to that status', () => {
    const errorResponses = [
      ...routes.map((r) => ({
        where: `${r.method} ${r.path}`,
        responses: operationOf(r.path, r.method)?.responses,
      })),
      { where: 'unmatched requests', responses: document['x-unmatched-requests'].responses },
    ];
    for (const { where, responses } of errorResponses) {
      const statuses = Object.keys(responses ?? {}).filter((status) => /^[45]\d\d$/.test(status));
      assert.ok(statuses.length > 0, `${where} documents no problem`);
      for (const status of statuses) {
        const schema = resolved(responses?.[status]).content?.['application/problem+json']?.schema as
          | { properties?: { status?: { const?: number } } }
          | undefined;
        assert.ok(schema, `${where} ${status} has no problem schema`);
        assert.equal(schema.properties?.status?.const, Number(status), `${where} ${status}`);
      }
    }
    const unmatched = Object.keys(document['x-unmatched-requests'].responses).map(Number) as ProblemStatus[];
    assert.deepEqual(unmatched, [400, 404, 405]);
  });

  it('documents the problems every route shares, and 403 on every token and person route', () => {
    for (const route of routes) {
      const statuses = Object.keys(operationOf(route.path, route.method)?.responses ?? {});
      for (const status of ['400', '401', '413', '415', '500', '503', '504'])
        assert.ok(statuses.includes(status), `${route.method} ${route.path} lacks ${status}`);
      if (route.auth === 'token' || route.auth === 'person')
        assert.ok(statuses.includes('403'), `${route.method} ${route.path} 403`);
      if (route.auth === 'apiKey' || route.auth === 'providerSignature')
        assert.ok(!statuses.includes('403'), `${route.method} ${route.path} 403`);
    }
  });

  it('has a parameter for every segment of each path template, with the shared pagination parameters', () => {
    for (const route of routes) {
      const parameters = (operationOf(route.path, route.method)?.parameters ?? []) as {
        name?: string;
        in?: string;
        $ref?: string;
      }[];
      const inPath = parameters.filter((p) => p.in === 'path').map((p) => p.name);
      const inTemplate = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      assert.deepEqual(inPath, inTemplate, `${route.method} ${route.path}`);
    }
    const listWallets = (operationOf('/wallets', 'GET')?.parameters ?? []) as { $ref?: string }[];
    assert.deepEqual(
      listWallets.slice(0, 2).map((p) => p.$ref),
      ['#/components/parameters/Limit', '#/components/parameters/Cursor'],
    );
  });

  it('has no $ref that does not resolve', () => {
    for (const { ref, at } of refsIn(document)) {
      assert.ok(ref.startsWith('#/'), `${at}: ${ref} is not local`);
      assert.ok(pointerTarget(ref) !== undefined, `${at}: ${ref} does not resolve`);
    }
  });

  it('has request examples for every body route, each accepted by the operation’s own schema', () => {
    for (const route of routes) {
      const op = operationFor(route);
      const content = (
        operationOf(route.path, route.method)?.requestBody as
          | { content: Record<string, { examples?: Record<string, { value: unknown }> }> }
          | undefined
      )?.content['application/json'];
      assert.equal(
        content !== undefined,
        op.body !== undefined,
        `${route.method} ${route.path} request body`,
      );
      if (!op.body) continue;
      const examples = Object.entries(content?.examples ?? {});
      assert.ok(examples.length > 0, `${route.method} ${route.path} has no request example`);
      for (const [name, { value }] of examples) {
        const parsed = op.body.safeParse(value);
        assert.ok(
          parsed.success,
          `${route.operation} example ${name}: ${JSON.stringify(parsed.error?.issues)}`,
        );
        const pointer = `/components/schemas/${route.operation[0]?.toUpperCase()}${route.operation.slice(1)}Request`;
        assert.deepEqual(contract.schemaViolations(pointer, value), [], `${route.operation} example ${name}`);
      }
    }
  });

  it('has response examples that satisfy their own schemas', () => {
    let checked = 0;
    const check = (pointer: string, response: OpenApiResponse) => {
      for (const [mediaType, { examples }] of Object.entries(response.content ?? {})) {
        const schemaPointer = `${pointer}/content/${mediaType.replace('/', '~1')}/schema`;
        for (const [name, { value }] of Object.entries(examples ?? {})) {
          assert.deepEqual(contract.schemaViolations(schemaPointer, value), [], `${pointer} example ${name}`);
          checked++;
        }
      }
    };
    for (const route of routes) {
      for (const [status, response] of Object.entries(
        operationOf(route.path, route.method)?.responses ?? {},
      )) {
        if ('$ref' in response) continue;
        check(
          `/paths/${route.path.replaceAll('/', '~1')}/${route.method.toLowerCase()}/responses/${status}`,
          response,
        );
      }
    }
    for (const [name, response] of Object.entries(document.components.responses))
      check(`/components/responses/${name}`, response);
    assert.ok(checked >= routes.length, `only ${checked} examples`);
  });
});
