// Section 10c (issue #40): what an off-ramp costs on AWS, end to end, counted as section 7d counts a P2P
// payment (bench/payment-cost.ts): its quote and its acceptance through the gateway, the outbox, the
// ledger leg and the payout instruction, the provider's notification through the provider route, one
// webhook (a registration taking payment.completed), and the event sources' SQS receives and deletes;
// by function, then in US dollars per million off-ramps beside the floor (bench/cost-model.ts).

import { functionOutputPath } from '../local/function-output.ts';
import { INVOCATION_CHANNEL, invokedFunction } from '../local/invocation.ts';
import type { LocalStack } from '../local/stack.ts';
import { countCalls, countedSends, OUTSIDE } from './aws-calls.ts';
import { offrampFloorOf } from './cost-model.ts';
import { tableAccess } from './floor.ts';
import { fileSize, logsOver } from './function-logs.ts';
import { costByFunctionLines } from './payment-cost.ts';
import { recordReader } from './payment-records.ts';
import { fixed } from './stats.ts';
import { startReceiver } from './webhooks.ts';

/** Off-ramps counted: enough that the outbox's and the pollers' batching averages out, a minute at most. */
export const OFFRAMP_COST_COUNT = 20;
const CONCURRENCY = 4;
const SETTLE_CAP_MS = 90_000;
const WEBHOOK_CAP_MS = 30_000;
const POLL_MS = 250;
/** The most the section takes: the off-ramps' acceptance, their settling and their webhooks. */
export const OFFRAMP_COST_CAP_MS = 30_000 + SETTLE_CAP_MS + WEBHOOK_CAP_MS;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface OfframpCostRun {
  /** POSTs a webhook registration (201 expected) for the tenant, returning its id. */
  register(body: unknown): Promise<string>;
  /** Deactivates a registration. */
  deactivate(webhookId: string): Promise<void>;
  /** One off-ramp through the gateway, its quote first: the record's id. */
  offramp(): Promise<string>;
}

export async function measureOfframpCost(stack: LocalStack, run: OfframpCostRun): Promise<void> {
  const receiver = await startReceiver(true);
  const webhookId = await run.register({
    url: receiver.url,
    events: ['payment.completed'],
    description: 'bench: one webhook an off-ramp',
  });
  const { db, TableName } = tableAccess(stack);
  // The bench's own reads of the records are not the off-ramps' calls: counted here, taken off below.
  const ownReads = countedSends(db);
  const reader = recordReader(db, TableName, stack.seededTenant);
  const logsAtStart = fileSize(functionOutputPath(stack.dataDir));
  const counting = countCalls({ functionOf: invokedFunction, invocationChannel: INVOCATION_CHANNEL });
  try {
    const ids: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < OFFRAMP_COST_COUNT) {
          next += 1;
          ids.push(await run.offramp());
        }
      }),
    );
    const { records, capped } = await reader.waitSettled(ids, { pollMs: POLL_MS, capMs: SETTLE_CAP_MS });
    const completed = [...records.values()].filter((r) => r.status === 'completed').length;
    const failed = [...records.values()].filter((r) => r.status === 'failed').length;
    const webhookDeadline = performance.now() + WEBHOOK_CAP_MS;
    while (receiver.arrivals.length < completed && performance.now() < webhookDeadline) await pause(POLL_MS);
    counting.stop();
    const outside = counting.functions[OUTSIDE]?.counts ?? {};
    for (const [name, n] of Object.entries(ownReads)) outside[name] = (outside[name] ?? 0) - n;
    // The gateway's requests, every one counted as it left this process: the bench's quotes and
    // off-ramps, and the provider simulator's notifications to the provider route.
    const apiRequests = Object.entries(counting.counts)
      .filter(([name]) => / \/v1$/.test(name))
      .reduce((sum, [, n]) => sum + n, 0);
    const counted = {
      calls: Object.fromEntries(
        Object.entries(counting.counts).map(([name, n]) => [name, n - (ownReads[name] ?? 0)]),
      ),
      tally: { counts: counting.counts, units: counting.units, functions: counting.functions },
      logs: logsOver(functionOutputPath(stack.dataDir), logsAtStart),
      completed,
      failed,
      apiRequests,
    };
    // At least once: a delivery may come twice; how many off-ramps had theirs says whether one is missing.
    const webhooked = new Set(
      receiver.arrivals.map((a) => a.data.transactionRecordId).filter((id) => ids.includes(id as string)),
    ).size;
    console.log(
      [
        `\n== 10c. Cost per settled off-ramp (issue #40), end to end: ${OFFRAMP_COST_COUNT} off-ramps of the bench's payee, ${CONCURRENCY} at a time,`,
        `each its quote and its POST, the ledger leg and payout, the provider's notification, one webhook (payment.completed).`,
        `${completed} completed, ${failed} failed${capped ? ' (the count stopped at its cap)' : ''}; webhooks ${receiver.arrivals.length} (for ${webhooked} of the off-ramps); gateway requests ${fixed(apiRequests / (completed + failed), 1)} an off-ramp.`,
        ...costByFunctionLines([counted], offrampFloorOf, 'off-ramps'),
      ].join('\n'),
    );
  } finally {
    counting.stop();
    await run.deactivate(webhookId).catch(() => undefined);
    await receiver.close();
    db.destroy();
  }
}
