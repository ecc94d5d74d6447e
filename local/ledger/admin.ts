// The ledger's own control routes under /_admin: close a ledger now, set the clock, inject faults, look at
// the pool. They exist only on this loopback server (nothing in the gateway routes to them) and answer even
// while the `unavailable` fault makes every Horizon route a 503.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from './core.ts';
import { checkFaults, FaultsError } from './faults.ts';
import { type CommonHeaders, readBody, sendJson, sendProblem } from './http.ts';
import { badRequest, methodNotAllowed, notFound } from './problems.ts';
import { isoTime } from './resources.ts';

export const ADMIN_PREFIX = '/_admin/';

const iso = (ms: number) => new Date(ms).toISOString();

function clockOf(core: Core) {
  return { offsetMs: core.clock.offsetMs, now: iso(core.clock.nowMs()) };
}

function statusOf(core: Core) {
  return {
    closeIntervalMs: core.closeIntervalMs,
    clock: clockOf(core),
    latestLedger: core.ledger.state.latest.sequence,
    ingestedLedger: core.latestIngested(),
    pending: core.pool.hashes(),
    nextCloseAt: core.closeIntervalMs > 0 ? iso(core.nextCloseAt()) : null,
  };
}

/** The JSON body as a value; a FaultsError naming `body` when it is not JSON. */
async function jsonBody(req: IncomingMessage): Promise<unknown> {
  const text = await readBody(req);
  if (text === null) throw new FaultsError('body', 'is over 1 MiB');
  try {
    return JSON.parse(text || '{}');
  } catch {
    throw new FaultsError('body', 'is not JSON');
  }
}

function offsetOf(body: unknown): number {
  const offset = (body as { offsetMs?: unknown } | null)?.offsetMs;
  if (typeof body !== 'object' || body === null || Object.keys(body).some((key) => key !== 'offsetMs'))
    throw new FaultsError('body', 'must be {"offsetMs": <whole milliseconds>}');
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset))
    throw new FaultsError('offsetMs', 'must be a whole number of milliseconds');
  return offset;
}

export async function handleAdmin(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  core: Core,
  headers: CommonHeaders,
): Promise<void> {
  const ok = (body: unknown) => sendJson(res, 200, body, headers, 'application/json');
  const method = req.method ?? 'GET';
  const allow = (methods: string[]) => {
    if (methods.includes(method)) return true;
    sendProblem(res, methodNotAllowed(), headers, { Allow: methods.join(', ') });
    return false;
  };
  try {
    switch (path.slice(ADMIN_PREFIX.length)) {
      case 'status':
        if (allow(['GET'])) ok(statusOf(core));
        return;
      case 'close': {
        if (!allow(['POST'])) return;
        const { header } = core.closeLedger();
        ok({
          sequence: header.sequence,
          closedAt: isoTime(header.closeTime),
          transactionCount: header.successfulTransactionCount + header.failedTransactionCount,
        });
        return;
      }
      case 'clock':
        if (!allow(['GET', 'POST'])) return;
        if (method === 'POST') core.clock.set(offsetOf(await jsonBody(req)));
        ok(clockOf(core));
        return;
      case 'faults':
        if (!allow(['GET', 'POST', 'DELETE'])) return;
        if (method === 'POST') core.faults.set(checkFaults(await jsonBody(req)));
        if (method === 'DELETE') core.clearFaults();
        ok(core.faults.current());
        return;
      default:
        sendProblem(res, notFound(), headers);
    }
  } catch (error) {
    if (!(error instanceof FaultsError)) throw error;
    sendProblem(res, badRequest(error.field, error.reason), headers);
  }
}
