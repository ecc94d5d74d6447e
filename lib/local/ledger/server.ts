// The HTTP side: a node:http server on loopback that speaks Horizon's wire format, so `Horizon.Server` (with
// allowHttp) works against it unchanged. Node sends a `Date` header on every response, which the SDK reads
// for its time bounds (fetchTimebounds).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Ledger, type Submission } from './ledger.ts';
import {
  badRequest,
  methodNotAllowed,
  notFound,
  type Problem,
  serverError,
  transactionFailed,
  transactionMalformed,
} from './problems.ts';
import { transactionResource } from './resources.ts';
import { routeGet } from './routes.ts';
import type { LocalLedger, LocalLedgerOptions } from './types.ts';

const MAX_BODY_BYTES = 1024 * 1024;

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/hal+json; charset=utf-8' }).end(JSON.stringify(body));
}

function sendProblem(res: ServerResponse, problem: Problem): void {
  res
    .writeHead(problem.status, { 'Content-Type': 'application/problem+json; charset=utf-8' })
    .end(JSON.stringify(problem));
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The `tx` field of a form-encoded body (what the SDK sends) or of a JSON one. */
function envelopeOf(req: IncomingMessage, body: string): string | undefined {
  if ((req.headers['content-type'] ?? '').includes('application/json')) {
    try {
      const parsed = JSON.parse(body) as { tx?: unknown };
      return typeof parsed.tx === 'string' ? parsed.tx : undefined;
    } catch {
      return undefined;
    }
  }
  return new URLSearchParams(body).get('tx') ?? undefined;
}

function answerSubmission(
  res: ServerResponse,
  base: string,
  envelopeXdr: string,
  submission: Submission,
): void {
  switch (submission.kind) {
    case 'malformed':
      sendProblem(res, transactionMalformed(envelopeXdr, submission.error));
      return;
    case 'rejected':
      sendProblem(
        res,
        transactionFailed(submission.envelope.envelopeXdr, submission.outcome, submission.resultXdr),
      );
      return;
    case 'recorded': {
      const record = submission.record;
      // A failed transaction is in the ledger (fee charged) yet answered as a failure, as Horizon does.
      if (record.successful) sendJson(res, 200, transactionResource(base, record, submission.hash));
      else sendProblem(res, transactionFailed(record.envelope.envelopeXdr, record.outcome, record.resultXdr));
    }
  }
}

export function startLocalLedger(options: LocalLedgerOptions): Promise<LocalLedger> {
  const ledger = new Ledger({
    networkPassphrase: options.networkPassphrase,
    genesis: options.genesis,
    baseFee: options.baseFee ?? 100,
    baseReserve: options.baseReserve ?? '0.5',
  });
  let base = '';
  let dropNextResponse = false;

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', base);
      if (url.pathname.replace(/\/+$/, '') === '/transactions' && req.method === 'POST') {
        const body = await readBody(req);
        const envelopeXdr = body === null ? undefined : envelopeOf(req, body);
        if (envelopeXdr === undefined) {
          sendProblem(res, badRequest('tx', 'a base64 TransactionEnvelope is required in the tx field'));
          return;
        }
        const submission = ledger.submit(envelopeXdr);
        if (dropNextResponse) {
          // Applied, but the client never hears back: like a gateway timeout after the ledger closed.
          dropNextResponse = false;
          req.socket.destroy();
          return;
        }
        answerSubmission(res, base, envelopeXdr, submission);
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendProblem(res, methodNotAllowed());
        return;
      }
      const reply = routeGet(ledger, base, url);
      if (!reply) sendProblem(res, notFound());
      else if ('problem' in reply) sendProblem(res, reply.problem);
      else sendJson(res, 200, reply.body);
    } catch (error) {
      console.error('[local-ledger] request failed', error);
      if (!res.headersSent) sendProblem(res, serverError());
      else res.destroy();
    }
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
      base = `http://127.0.0.1:${port}`;
      resolve({
        url: base,
        networkPassphrase: options.networkPassphrase,
        dropNextSubmissionResponse: () => {
          dropNextResponse = true;
        },
        stop: () =>
          new Promise<void>((done) => {
            // fetch keeps connections alive; close them or close() waits for their idle timeout.
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
