// The HTTP side: a node:http server on loopback that speaks Horizon's wire format, so `Horizon.Server` (with
// allowHttp) works against it unchanged. Every answer carries `Latest-Ledger` and a `Date` on the ledger
// clock (the SDK reads Date for its time bounds, fetchTimebounds). Submissions go to core.ts, reads to
// routes.ts, /friendbot to friendbot.ts and the control routes to admin.ts.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Networks } from '@stellar/stellar-sdk';
import { ADMIN_PREFIX, handleAdmin } from './admin.ts';
import { LedgerClock } from './clock.ts';
import { Core, type Submission } from './core.ts';
import { Faults } from './faults.ts';
import { Friendbot, friendbotKeys, withFriendbot } from './friendbot.ts';
import { type CommonHeaders, formField, readBody, sendJson, sendProblem } from './http.ts';
import { Ledger } from './ledger.ts';
import {
  badRequest,
  methodNotAllowed,
  notFound,
  serverError,
  serviceUnavailable,
  transactionFailed,
  transactionMalformed,
  transactionTryAgainLater,
} from './problems.ts';
import { transactionResource } from './resources.ts';
import { routeGet } from './routes.ts';
import type { LocalLedger, LocalLedgerOptions } from './types.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function answerSubmission(
  res: ServerResponse,
  base: string,
  envelopeXdr: string,
  submission: Exclude<Submission, { kind: 'pending' }>,
  headers: CommonHeaders,
): void {
  switch (submission.kind) {
    case 'malformed':
      sendProblem(res, transactionMalformed(envelopeXdr, submission.error), headers);
      return;
    case 'rejected':
      sendProblem(
        res,
        transactionFailed(submission.envelope.envelopeXdr, submission.outcome, submission.resultXdr),
        headers,
      );
      return;
    case 'tryAgainLater':
      sendProblem(res, transactionTryAgainLater(envelopeXdr, submission.envelope.hash), headers, {
        'Retry-After': String(Math.max(1, Math.ceil(submission.retryAfterMs / 1000))),
      });
      return;
    case 'recorded': {
      const record = submission.record;
      // A failed transaction is in the ledger (fee charged) yet answered as a failure, as Horizon does.
      if (record.successful) sendJson(res, 200, transactionResource(base, record, submission.hash), headers);
      else
        sendProblem(
          res,
          transactionFailed(record.envelope.envelopeXdr, record.outcome, record.resultXdr),
          headers,
        );
    }
  }
}

export function startLocalLedger(options: LocalLedgerOptions): Promise<LocalLedger> {
  const clock = new LedgerClock(options.clockOffsetMs ?? 0);
  // The public network has no friendbot.
  const keys =
    (options.friendbot ?? options.networkPassphrase !== Networks.PUBLIC) ? friendbotKeys() : undefined;
  const ledger = new Ledger({
    networkPassphrase: options.networkPassphrase,
    genesis: keys ? withFriendbot(options.genesis, keys) : options.genesis,
    baseFee: options.baseFee ?? 100,
    baseReserve: options.baseReserve ?? '0.5',
    genesisTime: clock.nowSeconds(),
  });
  const faults = new Faults();
  const core = new Core(ledger, clock, faults, options.closeIntervalMs ?? 0, options.maxTxSetOperations);
  const friendbot = keys && new Friendbot(core, keys);
  let base = '';

  const headers: CommonHeaders = () => ({
    'Latest-Ledger': String(core.latestIngested()),
    Date: new Date(clock.nowMs()).toUTCString(),
  });

  async function submit(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const envelopeXdr = body === null ? undefined : formField(req, body, 'tx');
    if (envelopeXdr === undefined) {
      sendProblem(res, badRequest('tx', 'a base64 TransactionEnvelope is required in the tx field'), headers);
      return;
    }
    const answerFault = faults.takeSubmissionAnswer();
    let submission = core.submit(envelopeXdr);
    if (answerFault?.mode === 'drop') {
      // Taken (applied or pooled), but the client never hears back: like a gateway timeout.
      req.socket.destroy();
      return;
    }
    if (submission.kind === 'pending') submission = await submission.settled;
    if (answerFault?.mode === 'late') await pause(answerFault.delayMs);
    answerSubmission(res, base, envelopeXdr, submission as Exclude<Submission, { kind: 'pending' }>, headers);
  }

  async function fund(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!friendbot) {
      sendProblem(res, notFound(), headers);
      return;
    }
    let address = url.searchParams.get('addr');
    if (address === null && req.method === 'POST') {
      const body = await readBody(req);
      address = (body === null ? undefined : formField(req, body, 'addr')) ?? null;
    }
    let answer = await friendbot.fund(address);
    if ('status' in answer) {
      sendProblem(res, answer, headers);
      return;
    }
    if (answer.kind === 'pending') answer = await answer.settled;
    answerSubmission(res, base, '', answer as Exclude<Submission, { kind: 'pending' }>, headers);
  }

  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', base);
      const path = url.pathname.replace(/\/+$/, '') || '/';
      if (path.startsWith(ADMIN_PREFIX)) {
        await handleAdmin(req, res, path, core, headers);
        return;
      }
      if (faults.unavailable) {
        sendProblem(res, serviceUnavailable(), headers);
        return;
      }
      if (path === '/transactions' && req.method === 'POST') {
        await submit(req, res);
        return;
      }
      if (path === '/friendbot' && (req.method === 'GET' || req.method === 'POST')) {
        await fund(req, res, url);
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendProblem(res, methodNotAllowed(), headers);
        return;
      }
      const reply = routeGet(core.view(), base, url);
      if (!reply) sendProblem(res, notFound(), headers);
      else if ('problem' in reply) sendProblem(res, reply.problem, headers);
      else sendJson(res, 200, reply.body, headers);
    } catch (error) {
      console.error('[local-ledger] request failed', error);
      if (!res.headersSent) sendProblem(res, serverError(), headers);
      else res.destroy();
    }
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
      base = `http://127.0.0.1:${port}`;
      core.start();
      resolve({
        url: base,
        networkPassphrase: options.networkPassphrase,
        closeIntervalMs: core.closeIntervalMs,
        friendbotUrl: friendbot ? `${base}/friendbot` : undefined,
        closeLedgerNow: async () => {
          core.closeLedger();
        },
        setClockOffsetMs: (ms) => clock.set(ms),
        faults: {
          set: (next) => faults.set(next),
          clear: () => core.clearFaults(),
          current: () => faults.current(),
        },
        dropNextSubmissionResponse: () => faults.set({ submissionAnswer: { mode: 'drop', count: 1 } }),
        stop: () =>
          new Promise<void>((done) => {
            core.stop();
            // fetch keeps connections alive; close them or close() waits for their idle timeout.
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
