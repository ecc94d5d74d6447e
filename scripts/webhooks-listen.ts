// `npm run webhooks:listen` (in the spirit of `stripe listen`): a webhook receiver on loopback, registered
// for the sandbox tenant of .local/credentials.json, that checks both signatures of every delivery the way
// a receiver should (its own node:crypto code, not the service's signing module) and prints each event.
// Ctrl-C (SIGINT) or SIGTERM deactivates the registration and exits 0. The registration's secret is held
// in this process's memory only.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { show, summary } from './webhook-summary.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const defaultCredentials = join(root, '.local', 'credentials.json');

const usage = `Usage: npm run webhooks:listen -- [options]

Starts a webhook receiver on 127.0.0.1, registers it (POST /webhooks) for the tenant of the credentials
file, verifies both signatures of every delivery (X-Service-Signature keyed on the webhook id it
registered, never the X-Webhook-Id header, and Standard Webhooks' webhook-signature with the
registration's secret; timestamps within 5 minutes on both), answers 204 (400 when a check fails) and
prints each event. Ctrl-C deactivates the registration (DELETE /webhooks/{id}).

Options:
  --port <n>            Port to listen on (default 0: any free port).
  --events <a,b>        Event types to subscribe to (default: *, every type).
  --credentials <file>  Credentials file: baseUrl, apiKey, clientId, clientSecret
                        (default: .local/credentials.json, written by npm start).
  --base-url <url>      The API's base URL, ending in /v1 (default: the credentials file's baseUrl).
  --print-json          Also print each event's whole body.
  --help                This text.`;

/** Deliveries older (or later) than this are refused, as the API reference's Webhooks tag tells receivers to. */
const TOLERANCE_MS = 5 * 60_000;
/** Larger bodies are refused: no event comes near it. */
const MAX_BODY_BYTES = 1024 * 1024;

class CliError extends Error {}

function parseOptions() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '0' },
        events: { type: 'string', default: '*' },
        credentials: { type: 'string' },
        'base-url': { type: 'string' },
        'print-json': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
}

interface Credentials {
  baseUrl: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
}

/** `npm run` starts us in the repository's root: a relative path is the user's, from where they typed it. */
const userPath = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

function readCredentials(file: string | undefined, baseUrl: string | undefined): Credentials {
  const path = file ? userPath(file) : defaultCredentials;
  if (!existsSync(path)) {
    throw new CliError(
      file
        ? `No credentials file at ${path}.`
        : 'No .local/credentials.json: start the local stack with `npm start` first (it writes the credentials), or pass --credentials.',
    );
  }
  let parsed: Partial<Credentials>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CliError(`${path} is not JSON: ${(error as Error).message}`);
  }
  const credentials = { ...parsed, baseUrl: baseUrl ?? parsed.baseUrl };
  for (const member of ['baseUrl', 'apiKey', 'clientId', 'clientSecret'] as const) {
    if (typeof credentials[member] !== 'string' || !credentials[member])
      throw new CliError(`${path} has no ${member}${member === 'baseUrl' ? ' (pass --base-url)' : ''}.`);
  }
  return { ...(credentials as Credentials), baseUrl: (credentials.baseUrl as string).replace(/\/+$/, '') };
}

/** True when `error` (fetch's, or one of its causes) is a refused connection. */
function refused(error: unknown): boolean {
  if (error instanceof AggregateError) return error.errors.length > 0 && error.errors.every(refused);
  if (!(error instanceof Error)) return false;
  return (error as { code?: unknown }).code === 'ECONNREFUSED' || refused(error.cause);
}

/** The gateway's API: each call with the key and, once we have it, a token. */
function api(credentials: Credentials) {
  let token: string | undefined;
  const request = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { 'x-service-auth': credentials.apiKey };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(`${credentials.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      if (refused(error))
        throw new CliError(
          `The local stack is not running at ${credentials.baseUrl}: start it with \`npm start\` (or pass --base-url).`,
        );
      const cause = (error as Error).cause;
      const why = cause instanceof Error ? cause.message : (error as Error).message;
      throw new CliError(`${method} ${credentials.baseUrl}${path}: no answer (${why}).`);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as Record<string, unknown> };
  };
  const failure = (what: string, answer: { status: number; body: unknown }) => {
    const problem = answer.body as { detail?: string; title?: string; errors?: unknown[] } | undefined;
    const errors = problem?.errors?.length ? ` ${JSON.stringify(problem.errors)}` : '';
    return new CliError(
      `${what} failed: HTTP ${answer.status} ${problem?.detail ?? problem?.title ?? JSON.stringify(answer.body)}${errors}`,
    );
  };
  return {
    /** A new token (each one lives 15 minutes: the deactivation at exit asks for its own). */
    async authenticate() {
      token = undefined;
      const answer = await request('POST', '/auth/token', {
        clientId: credentials.clientId,
        clientSecret: credentials.clientSecret,
      });
      if (answer.status !== 200) throw failure('POST /auth/token', answer);
      token = answer.body.accessToken as string;
    },
    async register(url: string, events: string[]) {
      const answer = await request('POST', '/webhooks', { url, events, description: 'webhooks:listen' });
      if (answer.status !== 201) throw failure('POST /webhooks', answer);
      return answer.body as { id: string; secret: string; events: string[] };
    },
    async deactivate(webhookId: string) {
      const answer = await request('DELETE', `/webhooks/${webhookId}`);
      if (answer.status !== 200) throw failure(`DELETE /webhooks/${webhookId}`, answer);
      return answer.body as { status: string };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Verification, as a receiver does it (the Webhooks tag, openapi/webhook-docs.ts): both schemes, constant-time comparisons.

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Why a timestamp (ms) is refused, or null. */
function staleness(ms: number, now: number, name: string): string | null {
  if (!Number.isFinite(ms)) return `${name} is missing or not a number`;
  if (now - ms > TOLERANCE_MS)
    return `${name} is ${Math.round((now - ms) / 1000)} s old (more than 5 minutes)`;
  if (ms - now > TOLERANCE_MS) return `${name} is ${Math.round((ms - now) / 1000)} s in the future`;
  return null;
}

/**
 * The contract's signature: hex HMAC-SHA256 over `${X-Webhook-Ts}.${body}`, keyed on the webhook id this
 * listener registered, never on the X-Webhook-Id header: anyone can send a made-up id with a signature
 * keyed on it, so a delivery naming another id is refused before any HMAC.
 */
function checkServiceSignature(req: IncomingMessage, body: string, webhookId: string, now: number) {
  const id = header(req, 'x-webhook-id');
  const ts = header(req, 'x-webhook-ts') ?? '';
  const signature = header(req, 'x-service-signature') ?? '';
  if (id !== webhookId) return `X-Webhook-Id is ${id ?? 'missing'}, not this registration (${webhookId})`;
  const stale = staleness(/^\d+$/.test(ts) ? Number(ts) : Number.NaN, now, 'X-Webhook-Ts');
  if (stale) return stale;
  const expected = createHmac('sha256', webhookId).update(`${ts}.${body}`).digest('hex');
  return sameText(signature, expected) ? null : 'X-Service-Signature does not match';
}

/** Standard Webhooks v1: base64 HMAC-SHA256 keyed on the secret's bytes over `${id}.${timestamp}.${body}`. */
function checkStandardSignature(req: IncomingMessage, body: string, secret: string, now: number) {
  const id = header(req, 'webhook-id');
  const timestamp = header(req, 'webhook-timestamp') ?? '';
  const signatures = header(req, 'webhook-signature') ?? '';
  if (!id) return 'webhook-id is missing';
  const stale = staleness(
    /^\d+$/.test(timestamp) ? Number(timestamp) * 1000 : Number.NaN,
    now,
    'webhook-timestamp',
  );
  if (stale) return stale;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  // Several space-separated signatures may come (a secret being rotated): one v1 match is enough.
  const match = signatures
    .split(' ')
    .some((entry) => entry.startsWith('v1,') && sameText(entry.slice(3), expected));
  return match ? null : 'webhook-signature does not match the registration secret';
}

// ---------------------------------------------------------------------------------------------
// Printing

// ---------------------------------------------------------------------------------------------

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => done(size <= MAX_BODY_BYTES ? Buffer.concat(chunks).toString('utf8') : null));
    req.on('error', fail);
  });
}

async function main(): Promise<void> {
  const options = parseOptions();
  if (options.help) {
    console.log(usage);
    return;
  }
  if (!/^\d{1,5}$/.test(options.port) || Number(options.port) > 65_535)
    throw new CliError(`--port must be a port number (0 for any free port), got ${options.port}`);
  const events = options.events
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (events.length === 0) throw new CliError('--events names no event type');
  const credentials = readCredentials(options.credentials, options['base-url']);
  const gateway = api(credentials);

  // Set once registered; a delivery that beats the registration's answer waits for it.
  let registration: { id: string; secret: string } | undefined;
  let registered: (value: { id: string; secret: string }) => void = () => {};
  const ready = new Promise<{ id: string; secret: string }>((resolveReady) => {
    registered = resolveReady;
  });
  const seen = new Set<string>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const reply = (status: number, text?: string) => {
      if (!res.headersSent) res.writeHead(status, text ? { 'content-type': 'text/plain' } : {}).end(text);
    };
    if (req.method !== 'POST') return reply(405, 'webhooks:listen takes POST deliveries\n');
    const body = await readBody(req);
    const arrived = new Date();
    if (body === null) return reply(413, 'body too large\n');
    const { id, secret } = registration ?? (await ready);
    const now = arrived.getTime();
    const refusal =
      checkServiceSignature(req, body, id, now) ?? checkStandardSignature(req, body, secret, now);
    if (refusal) {
      console.log(`${arrived.toISOString()}  REJECTED (400): ${refusal}`);
      return reply(400, `${refusal}\n`);
    }
    let event: { id?: string; type?: string; source?: string; data?: unknown; metaData?: unknown };
    try {
      event = JSON.parse(body);
    } catch {
      console.log(`${arrived.toISOString()}  REJECTED (400): signed, but the body is not JSON`);
      return reply(400, 'body is not JSON\n');
    }
    const again = seen.has(String(event.id)) ? '  (again: an event already received, dedupe on id)' : '';
    seen.add(String(event.id));
    console.log(
      `${arrived.toISOString()}  ${show(event.type)}  id ${show(event.id)}  source ${show(event.source)}  ` +
        `verified (X-Service-Signature, webhook-signature)${again}`,
    );
    console.log(`    ${summary(event)}`);
    if (options['print-json']) console.log(JSON.stringify(event, null, 2));
    reply(204);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      console.error(`webhooks:listen: ${error.message}`);
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((listening, failed) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      failed(
        error.code === 'EADDRINUSE'
          ? new CliError(
              `Port ${options.port} is in use: pass another --port (or --port 0 for any free one).`,
            )
          : error,
      ),
    );
    server.listen(Number(options.port), '127.0.0.1', () => listening());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  let webhook: { id: string; secret: string; events: string[] };
  try {
    await gateway.authenticate();
    webhook = await gateway.register(url, events);
  } catch (error) {
    server.close();
    throw error;
  }
  registration = { id: webhook.id, secret: webhook.secret };
  registered(registration);
  console.log(`Listening on ${url} for ${credentials.baseUrl}`);
  console.log(`Registered webhook ${webhook.id} for ${webhook.events.join(', ')}`);
  console.log('Its signing secret is held in memory only (never printed or written).');
  console.log('Ctrl-C deactivates the registration and exits.');

  let stoppingSince: number | undefined;
  const stop = async (signal: string) => {
    if (stoppingSince !== undefined) {
      // One Ctrl-C can arrive twice (from the terminal and relayed by npm or the toolchain): a second
      // signal only forces the exit once the first has had its moment.
      if (performance.now() - stoppingSince < 2000) return;
      console.error(`${signal} again: exiting without deactivating webhook ${webhook.id}.`);
      process.exit(130);
    }
    stoppingSince = performance.now();
    server.close();
    server.closeAllConnections();
    try {
      // A fresh token: the first may have expired while we listened.
      await gateway.authenticate();
      const record = await gateway.deactivate(webhook.id);
      console.log(`\n${signal}: webhook ${webhook.id} is ${record.status}. Bye.`);
      process.exit(0);
    } catch (error) {
      console.error(
        `\n${signal}: could not deactivate webhook ${webhook.id}: ${(error as Error).message}\n` +
          `Deactivate it with DELETE /webhooks/${webhook.id}.`,
      );
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

try {
  await main();
} catch (error) {
  if (!(error instanceof CliError)) throw error;
  console.error(error.message);
  process.exit(1);
}
