// Real HTTP against the test stack's gateway, and tenants made through the same admin code the CLI uses.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { JWK } from 'jose';
import { createTenant, type NewTenant } from '../../lib/admin/tenants.ts';
import type { SigningKeyRing } from '../../lib/auth/signing-keys.ts';
import { secretNames } from '../../lib/secret-names.ts';
import type { Environment } from '../../lib/tenant.ts';
import { secretFileName } from '../../local/secrets-manager.ts';
import { assertConforms } from './contract.ts';

export const baseUrl = (): string => {
  const url = process.env.TEST_BASE_URL;
  if (!url) throw new Error('TEST_BASE_URL is not set: run the tests with npm test (it starts the stack)');
  return url;
};

export interface ApiResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are asserted on field by field.
  body: any;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A value to send as JSON, or a raw string sent as is. */
  body?: unknown;
  apiKey?: string;
  token?: string;
}

export async function call(path: string, options: CallOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['x-service-auth'] = options.apiKey;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const url = `${baseUrl()}${path}`;
  const method = options.method ?? 'GET';
  const response = await fetch(url, { method, headers, body });
  const text = await response.text();
  const parsed = text ? JSON.parse(text) : undefined;
  // Every answer is held to the OpenAPI document: each test that calls the API is a contract test too.
  await assertConforms(method, url, baseUrl(), {
    status: response.status,
    headers: response.headers,
    body: parsed,
  });
  return { status: response.status, headers: response.headers, body: parsed };
}

export interface SendOptions {
  method?: string;
  headers?: Record<string, string>;
  /** Sent exactly as given: raw JSON text, or bytes (which need not be valid UTF-8). */
  body?: string | Uint8Array;
  apiKey?: string;
  token?: string;
  /** A gateway that never answers fails the request after this long instead of hanging the test. */
  timeoutMs?: number;
}

/**
 * A request sent byte for byte as given, with a deadline. Answers that are not JSON keep their text
 * as `body`; a request the gateway never answers rejects with a TimeoutError naming it.
 */
export async function send(path: string, options: SendOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.apiKey) headers['x-service-auth'] = options.apiKey;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const method = options.method ?? 'GET';
  let response: Response;
  try {
    response = await fetch(`${baseUrl()}${path}`, {
      method,
      headers,
      body: options.body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 5000),
    });
  } catch (error) {
    throw new Error(`${method} ${path}: no answer (${(error as Error).name}: ${(error as Error).message})`);
  }
  const text = await response.text();
  let body: unknown = text || undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: the text itself
  }
  return { status: response.status, headers: response.headers, body };
}

export const newTenant = (environment: Environment = 'sandbox'): Promise<NewTenant> =>
  createTenant({ name: `Test ${environment} tenant`, environment, kind: 'business' });

export async function tokenFor(
  tenant: Pick<NewTenant, 'apiKey' | 'clientId' | 'clientSecret'>,
): Promise<string> {
  const { status, body } = await call('/auth/token', {
    method: 'POST',
    apiKey: tenant.apiKey,
    body: { clientId: tenant.clientId, clientSecret: tenant.clientSecret },
  });
  if (status !== 200) throw new Error(`token request failed: ${status} ${JSON.stringify(body)}`);
  return body.accessToken;
}

/** An own USDC wallet the tenant creates through POST /wallets (201): its id (its account opens later). */
export async function createdWalletId(
  tenant: Pick<NewTenant, 'apiKey'>,
  token: string,
  walletName: string,
): Promise<string> {
  const created = await call('/wallets', {
    method: 'POST',
    apiKey: tenant.apiKey,
    token,
    body: { walletName, assetCode: 'USDC', ownAccount: true },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id;
}

/** The test stack's private signing ring, for minting tokens the way an attacker with a leaked key could. */
export function testSigningKeyRing(): SigningKeyRing {
  const dataDir = process.env.TEST_DATA_DIR ?? '';
  const file = join(dataDir, 'secrets', secretFileName(secretNames('test').signingKeys));
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The test stack's public JWKS (what its signing ring's rotation published). */
export function testJwks(): { keys: (JWK & { kid: string })[] } {
  const dataDir = process.env.TEST_DATA_DIR ?? '';
  return JSON.parse(
    readFileSync(join(dataDir, 'secrets', secretFileName(secretNames('test').tokenJwks)), 'utf8'),
  );
}

/** A resource of the test stack's sandbox ledger, read over its Horizon-compatible API. */
// biome-ignore lint/suspicious/noExplicitAny: Horizon resources are asserted on field by field.
export async function horizon(path: string): Promise<any> {
  const response = await fetch(`${process.env.TEST_HORIZON_URL}${path}`);
  return response.json();
}

/** A tenant with a token: who a test calls the API as. */
export interface Caller {
  tenant: NewTenant;
  token: string;
}

export async function newCaller(
  options: { environment?: Environment; name?: string; kind?: 'business' | 'individual' } = {},
): Promise<Caller> {
  const environment = options.environment ?? 'sandbox';
  const tenant = await createTenant({
    name: options.name ?? `Test ${environment} tenant`,
    environment,
    kind: options.kind ?? 'business',
  });
  return { tenant, token: await tokenFor(tenant) };
}

/** A call made as `caller` (its key and token). */
export const as = (
  caller: Caller,
  path: string,
  options: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
) => call(path, { ...options, apiKey: caller.tenant.apiKey, token: caller.token });

/** The pages a list route answers for `query`, walked with its cursors to the end. */
// biome-ignore lint/suspicious/noExplicitAny: resources are asserted on member by member.
export async function pagesAt(caller: Caller, path: string, query: string): Promise<any[][]> {
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  const pages: any[][] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    if (cursor) params.set('cursor', cursor);
    const page: ApiResponse = await as(caller, `${path}?${params}`);
    assert.equal(page.status, 200, JSON.stringify(page.body));
    assert.equal(page.body.pagination.hasMore, page.body.pagination.nextCursor !== null);
    pages.push(page.body.data);
    cursor = page.body.pagination.nextCursor;
  } while (cursor);
  return pages;
}

/** A problem+json answer of `status` with a field error on `field` (and, for 422, the validation slug). */
export function assertFieldError(response: ApiResponse, status: number, field: string, message?: RegExp) {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.headers.get('content-type'), 'application/problem+json');
  const error = response.body.errors?.find((e: { field: string }) => e.field === field);
  assert.ok(error, `expected a field error on ${field}: ${JSON.stringify(response.body.errors)}`);
  if (message) assert.match(error.message, message);
  if (status === 422) assert.match(response.body.type, /\/validation-error$/);
}

/** A problem body as two requests may share it: without their own requestId and instance, `id` as `{id}`. */
function problemShape(body: Record<string, unknown>, id: string): unknown {
  const { requestId: _, instance: __, ...shared } = body;
  return JSON.parse(JSON.stringify(shared).replaceAll(id, '{id}'));
}

/**
 * Another tenant's resource answered exactly like a missing one: both 404 problem+json, every member of
 * the body alike but the echoed id (`theirId` in one, `missingId` in the other) and each request's own
 * requestId and instance, so not even a detail tells that the id exists.
 */
export function assertAnsweredAsMissing(
  theirs: ApiResponse,
  theirId: string,
  missing: ApiResponse,
  missingId: string,
  label = '',
): void {
  for (const response of [theirs, missing]) {
    assert.equal(response.status, 404, `${label} ${JSON.stringify(response.body)}`);
    assert.equal(response.headers.get('content-type'), 'application/problem+json', label);
  }
  assert.deepEqual(problemShape(theirs.body, theirId), problemShape(missing.body, missingId), label);
}
