// One run of the payment burst, in a process of its own (bench/payment-burst.ts forks it): it starts a
// whole local stack whose ledgers close at the run's cadence (LOCAL_LEDGER_CLOSE_MS), so the gateway, the
// outbox, the ledger-submitter and the channel pool all run against that ledger; the functions read their
// configuration once per process, hence a process per run.
//
// Setup: own USDC wallets created, opened and funded through the API. On a ledger with a cadence the run
// closes a ledger every setupCloseMs meanwhile (the ledger's /_admin/close), so setup does not wait out a
// close per funding; the burst itself runs on the cadence alone. Then the burst: payment i is a P2P from
// wallet i % n to wallet (i + 1) % n (a ring), through POST /v1/payments/p2p/own at the run's concurrency,
// its memo naming it; the run waits until every record has settled, reads the records and their
// submission records from the table, counts every payment on the ledger and sends the figures back.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { config } from '../lib/config.ts';
import { functionOutputPath } from '../local/function-output.ts';
import { INVOCATION_CHANNEL, invokedFunction } from '../local/invocation.ts';
import { type LocalStack, startStack } from '../local/stack.ts';
import { type CallCounts, type CallTally, countCalls, countedSends, OUTSIDE } from './aws-calls.ts';
import { ledgerPaymentsByMemo } from './burst-census.ts';
import { tableAccess } from './floor.ts';
import { type FunctionLogs, fileSize, logsOver } from './function-logs.ts';
import { expectStatus, httpClient, issueAccessToken, tokenHeaders } from './latency.ts';
import { type Acceptance, type FundedWallet, fundedWallet, p2pPayer } from './payment-api.ts';
import { type AcceptedPayment, type PaymentCensus, paymentCensus } from './payment-census.ts';
import { recordReader } from './payment-records.ts';
import { percentile } from './stats.ts';
import { startReceiver } from './webhooks.ts';

/** What the parent hands the run (JSON in PAYMENT_BURST_RUN). */
export interface PaymentBurstSpec {
  /** `immediate` or `cadence`: part of every memo. */
  run: string;
  closeIntervalMs: number;
  /** The stack's data folder (the parent removes it, and what a killed run left running). */
  dataDir: string;
  dynamoDbDir: string;
  /** DynamoDB Local's database folder (-dbPath); absent, in memory. */
  dynamoDbData?: string;
  wallets: number;
  /** USDC each wallet is funded with. */
  fundEach: number;
  payments: number;
  /** USDC each payment moves. */
  amount: number;
  concurrency: number;
  /** Concurrent invocations of the ledger-submitter (its queue's maxConcurrency). */
  submitters: number;
  /** No payment is sent after this many ms from the first. */
  sendCapMs: number;
  /** After the last 202, the most the run waits for the records to settle. */
  settleCapMs: number;
  /** Wallet setup (create, open, fund). */
  setupCapMs: number;
  /** On a ledger with a cadence, a ledger is closed this often during setup (not during the burst). */
  setupCloseMs: number;
  /** Concurrent wallet-activator invocations (its queue's maxConcurrency). */
  activators: number;
  /**
   * A webhook registration taking `payment.completed` (one delivery a payment, to a receiver in this
   * process that answers 204 at once): the end-to-end cost of a payment counts its webhook.
   */
  webhook: boolean;
}

/** What the run sends back. */
export interface PaymentBurstFigures extends PaymentCensus {
  spec: PaymentBurstSpec;
  /** The stack's start, ms. */
  stackMs: number;
  /** Wallet setup, ms. */
  setupMs: number;
  /** Channel accounts in the pool (LEDGER_CHANNELS). */
  channels: number;
  accepted: number;
  /** Requests answered anything but 202 (or not at all). */
  refused: number;
  /** Payments never sent: the send cap came first. */
  notSent: number;
  /** First request sent → last 202, ms. */
  acceptMs: number;
  completed: number;
  failed: number;
  /** First 202 → the last record's settlement (its updatedAt), ms. */
  settleWallMs: number;
  /** Per record, createdAt → updatedAt (settled), ms. */
  settleP50: number;
  settleP99: number;
  /** True when the settle cap came first. */
  settleCapped: boolean;
  /** Submission records with attempt > 1 (an envelope was replaced). */
  replacedIntents: number;
  /** Envelopes built beyond each intent's first (sum of envelopes.length - 1). */
  extraEnvelopes: number;
  /** Submission records missing for settled payments (there should be one per payment). */
  missingSubmissions: number;
  /** Failed records by errorCode. */
  failures: Record<string, number>;
  /** CPU over the burst (first request → every record settled), ms: this process (the whole stack but DynamoDB Local) and DynamoDB Local. */
  cpuMs: { stack: number; dynamoDb: number };
  /** Calls this process sent over the burst, by name, with DynamoDB's units and by function (bench/aws-calls.ts). */
  calls: CallCounts;
  tally: CallTally;
  /** Webhook deliveries the receiver took (payment.completed), and when the count stopped waiting for them. */
  webhooks: { received: number; capped: boolean };
  /**
   * What the functions printed over the count (local/function-output.ts keeps it as CloudWatch Logs
   * would: every line at INFO and above, the metrics' EMF lines included): bytes, and the metric series
   * (name and dimensions) the EMF lines named.
   */
  logs: FunctionLogs;
  /** The load average (1 min) as the burst started and as it ended. */
  load: [number, number];
  firstError: string | undefined;
  /** DynamoDB Local after the wallets' setup and after the burst settled (bench/dynamodb-growth.ts). */
  dynamoDb: { before: DynamoDbSize; after: DynamoDbSize };
}

/** DynamoDB Local's resident memory (KiB, /proc) and its database files (bytes; 0 in memory). */
export interface DynamoDbSize {
  rssKiB: number;
  diskBytes: number;
}

function dynamoDbSize(pid: number, dbPath: string | undefined): DynamoDbSize {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKiB = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN);
  const files =
    dbPath === undefined ? [] : readdirSync(dbPath).map((name) => statSync(join(dbPath, name)).size);
  return { rssKiB, diskBytes: files.reduce((sum, size) => sum + size, 0) };
}

const SETUP_CONCURRENCY = 8;
const SETTLE_POLL_MS = 500;
/** After the last settlement, the most the count waits for the payments' webhooks. */
const WEBHOOK_CAP_MS = 30_000;
const STOP_CAP_MS = 15_000;

const spec = JSON.parse(process.env.PAYMENT_BURST_RUN ?? 'null') as PaymentBurstSpec | null;
const send = process.send?.bind(process);
if (!spec || !send) throw new Error('bench/payment-burst-run.ts is forked by bench/payment-burst.ts');

let stack: LocalStack | undefined;
const stop = async (code: number) => {
  const running = stack;
  stack = undefined;
  if (running) await Promise.race([running.stop(), new Promise((r) => setTimeout(r, STOP_CAP_MS))]);
  rmSync(spec.dataDir, { recursive: true, force: true });
  process.exit(code);
};
process.on('SIGTERM', () => void stop(143));
process.on('SIGINT', () => void stop(130));
// The parent went away (its own cap, a signal): nothing will read the figures.
process.on('disconnect', () => void stop(1));

/** CPU ms a process has used (utime + stime of /proc/<pid>/stat, at 100 ticks a second); 0 when unreadable. */
function processCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** Runs `task` over 0..n-1 with `concurrency` workers, taking no new index past `deadline`. */
async function overIndices(
  n: number,
  concurrency: number,
  deadline: number,
  task: (i: number) => Promise<void>,
): Promise<{ taken: number }> {
  let next = 0;
  const worker = async () => {
    while (next < n && performance.now() < deadline) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { taken: next };
}

async function burst(running: LocalStack, stackMs: number): Promise<PaymentBurstFigures> {
  if (!spec) throw new Error('no spec');
  const accessToken = await issueAccessToken(running);
  const closeNow = () =>
    fetch(`${running.horizonUrl}/_admin/close`, { method: 'POST' }).then((r) => r.body?.cancel());
  const closer =
    spec.closeIntervalMs > 0
      ? setInterval(() => void closeNow().catch(() => {}), spec.setupCloseMs)
      : undefined;

  const setupStart = performance.now();
  const wallets: FundedWallet[] = [];
  let firstError: string | undefined;
  const setupClient = httpClient(SETUP_CONCURRENCY * 2);
  try {
    await overIndices(spec.wallets, SETUP_CONCURRENCY, setupStart + spec.setupCapMs, async (i) => {
      try {
        wallets[i] = await fundedWallet(running, setupClient, accessToken, spec.fundEach, spec.setupCapMs);
      } catch (error) {
        firstError ??= `setup: ${(error as Error).message}`;
      }
    });
  } finally {
    clearInterval(closer);
    setupClient.close();
  }
  const setupMs = performance.now() - setupStart;
  const ring = wallets.filter(Boolean);
  if (ring.length < 2) throw new Error(`only ${ring.length} wallet(s) set up: ${firstError}`);

  const receiver = await startReceiver(true);
  if (spec.webhook) {
    const text = JSON.stringify({
      url: receiver.url,
      events: ['payment.completed'],
      description: 'bench: one webhook a payment',
    });
    const headers = {
      ...tokenHeaders(running, accessToken),
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    };
    const registering = httpClient(1);
    await expectStatus(
      registering.send(`${running.baseUrl}/webhooks`, { method: 'POST', headers, body: text }),
      201,
    ).finally(() => registering.close());
  }

  const before = dynamoDbSize(running.dynamoDbPid, spec.dynamoDbData);
  const client = httpClient(spec.concurrency);
  const pay = p2pPayer(running, client, accessToken);
  const memoOf = (i: number) => `pb:${spec.run}:${i}`;
  const accepted: AcceptedPayment[] = [];
  let refused = 0;
  let firstAcceptedAt = Number.POSITIVE_INFINITY;
  let lastAcceptedAt = 0;
  const dynamoDb = running.dynamoDbPid;
  const cpuAtStart = { stack: process.cpuUsage(), dynamoDb: processCpuMs(dynamoDb) };
  const loadAtStart = loadavg()[0] ?? Number.NaN;
  const logsAtStart = fileSize(functionOutputPath(spec.dataDir));
  const counting = countCalls({ functionOf: invokedFunction, invocationChannel: INVOCATION_CHANNEL });
  const sendStart = performance.now();
  const { taken } = await overIndices(
    spec.payments,
    spec.concurrency,
    sendStart + spec.sendCapMs,
    async (i) => {
      const from = ring[i % ring.length] as FundedWallet;
      const to = ring[(i + 1) % ring.length] as FundedWallet;
      let answer: Acceptance;
      try {
        answer = await pay({ from, to, amount: spec.amount, memo: memoOf(i) });
      } catch (error) {
        refused++;
        firstError ??= `payment ${i}: ${(error as Error).message}`;
        return;
      }
      const now = Date.now();
      firstAcceptedAt = Math.min(firstAcceptedAt, now);
      lastAcceptedAt = Math.max(lastAcceptedAt, now);
      accepted.push({ transactionRecordId: answer.transactionRecordId, memo: memoOf(i) });
    },
  );
  const acceptMs = performance.now() - sendStart;
  client.close();

  const { db, TableName } = tableAccess(running);
  // The bench's own reads of the records are not the payments' calls: counted here, taken off below.
  const ownReads = countedSends(db);
  const reader = recordReader(db, TableName, running.seededTenant);
  try {
    const ids = accepted.map((p) => p.transactionRecordId);
    const waited = await reader.waitSettled(ids, { pollMs: SETTLE_POLL_MS, capMs: spec.settleCapMs });
    const stackCpu = process.cpuUsage(cpuAtStart.stack);
    const cpuMs = {
      stack: (stackCpu.user + stackCpu.system) / 1000,
      dynamoDb: processCpuMs(dynamoDb) - cpuAtStart.dynamoDb,
    };
    const load: [number, number] = [loadAtStart, loadavg()[0] ?? Number.NaN];
    // The calls go on counting until every completed payment's webhook arrived (or the cap): its cost is
    // the payment's. Neither the settle wall nor the CPU above waits for it.
    const webhookDeadline = performance.now() + WEBHOOK_CAP_MS;
    const completedNow = [...waited.records.values()].filter((r) => r.status === 'completed').length;
    while (spec.webhook && receiver.arrivals.length < completedNow && performance.now() < webhookDeadline)
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    counting.stop();
    const logs = logsOver(functionOutputPath(spec.dataDir), logsAtStart);
    await receiver.close();
    const webhooks = {
      received: receiver.arrivals.length,
      capped: spec.webhook && receiver.arrivals.length < completedNow,
    };
    const readsOfOwn = { ...ownReads };
    const outside = counting.functions[OUTSIDE]?.counts ?? {};
    for (const [name, n] of Object.entries(readsOfOwn)) outside[name] = (outside[name] ?? 0) - n;
    // Whatever still waits in the pool lands (or not) now, so the count sees everything that can land.
    let records = waited.records;
    if (spec.closeIntervalMs > 0 && waited.capped) {
      await closeNow();
      records = await reader.records(ids);
    }
    const settled = [...records.values()].filter((r) => r.status !== 'initiated');
    const settleTimes = settled
      .map((r) => Date.parse(r.updatedAt) - Date.parse(r.createdAt))
      .sort((a, b) => a - b);
    const lastSettledAt = Math.max(0, ...settled.map((r) => Date.parse(r.updatedAt)));
    const submissions = await reader.submissions(settled.map((r) => r.intentId));
    const failures: Record<string, number> = {};
    for (const r of settled)
      if (r.status === 'failed') failures[r.errorCode ?? '?'] = (failures[r.errorCode ?? '?'] ?? 0) + 1;
    const after = dynamoDbSize(running.dynamoDbPid, spec.dynamoDbData);
    const byMemo = await ledgerPaymentsByMemo(
      running.horizonUrl,
      ring.map((w) => w.publicKey),
    );
    return {
      spec,
      stackMs,
      setupMs,
      channels: config().LEDGER_CHANNELS,
      accepted: accepted.length,
      refused,
      notSent: spec.payments - taken,
      acceptMs,
      completed: settled.filter((r) => r.status === 'completed').length,
      failed: settled.filter((r) => r.status === 'failed').length,
      settleWallMs: settled.length ? lastSettledAt - firstAcceptedAt : Number.NaN,
      settleP50: percentile(settleTimes, 50),
      settleP99: percentile(settleTimes, 99),
      settleCapped: waited.capped,
      replacedIntents: [...submissions.values()].filter((s) => s.attempt > 1).length,
      extraEnvelopes: [...submissions.values()].reduce(
        (sum, s) => sum + Math.max(0, s.envelopes.length - 1),
        0,
      ),
      missingSubmissions: settled.length - submissions.size,
      failures,
      cpuMs,
      calls: Object.fromEntries(
        Object.entries(counting.counts).map(([name, n]) => [name, n - (readsOfOwn[name] ?? 0)]),
      ),
      tally: { counts: counting.counts, units: counting.units, functions: counting.functions },
      webhooks,
      logs,
      load,
      firstError,
      dynamoDb: { before, after },
      ...paymentCensus(accepted, records, byMemo),
    };
  } finally {
    db.destroy();
  }
}

const stackStart = performance.now();
try {
  process.env.LOCAL_LEDGER_CLOSE_MS = String(spec.closeIntervalMs);
  stack = await startStack({
    port: 0,
    dataDir: spec.dataDir,
    dynamoDbDir: spec.dynamoDbDir,
    dynamoDbData: spec.dynamoDbData,
  });
  const figures = await burst(stack, performance.now() - stackStart);
  await new Promise((resolve) => send(figures, undefined, {}, resolve));
} catch (error) {
  console.error(`payment burst (${spec.run}): ${(error as Error).stack ?? error}`);
  await stop(1);
}
await stop(0);
