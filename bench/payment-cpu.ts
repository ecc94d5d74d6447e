import { loadavg } from 'node:os';
import { addCounts, type CallCounts } from './aws-calls.ts';
import type { InvocationFigures } from './hosted-function.ts';
import { runIfMain, runSectionProcess, startHostedStack } from './hosted-stack.ts';
import { httpClient } from './latency.ts';
import { fixed, percentile, table } from './stats.ts';
import { ownWallet, payOwn, startReceiver, tenantApi, until } from './webhooks.ts';

const WALLETS = 4;
const FUND_EACH = 1000;
const WARM_UP = 3;
const PAYMENTS = 40;
const SETTLE_CAP_MS = 30_000;
/** No webhook for this long: the payments' fan-out is over. */
const QUIET_MS = 2_000;
const QUIET_CAP_MS = 60_000;
/** The run, build and stack included; past it the run is stopped. */
const RUN_CAP_MS = 300_000;
const KILL_GRACE_MS = 20_000;
export const PAYMENT_CPU_CAP_MS = RUN_CAP_MS + KILL_GRACE_MS;
/** The issue's goal for the ledger-submitter's CPU per payment (p50 of its invocations). */
export const SUBMITTER_CPU_GOAL_MS = 10;
/** The functions the section is about, first in the table. */
const PAYMENT_PATH = [
  'workers/ledger-submitter',
  'streams/outbox',
  'workers/webhook-dispatcher',
  'api/payments',
];

/** The bench's polling of each payment (GET /transactions/{id}): left out of the figures. */
const READS = 'api/transactions';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the payments cost one function: invocations, CPU, calls, all since the warm-up. */
function costOf(name: string, invocations: InvocationFigures[], payments: number) {
  const cpu = invocations.map((i) => i.cpuMs).sort((a, b) => a - b);
  const calls: CallCounts = {};
  for (const i of invocations) addCounts(calls, i.calls);
  const totalCalls = Object.values(calls).reduce((a, b) => a + b, 0);
  return {
    row: [
      name,
      fixed(invocations.length / payments, 2),
      fixed(cpu.reduce((a, b) => a + b, 0) / payments, 1),
      fixed(percentile(cpu, 50), 1),
      fixed(percentile(cpu, 99), 1),
      fixed(totalCalls / payments, 1),
    ],
    calls,
    cpuP50: percentile(cpu, 50),
    cpuPerPayment: cpu.reduce((a, b) => a + b, 0) / payments,
    callsPerPayment: totalCalls / payments,
  };
}

async function measureHere(): Promise<void> {
  const { stack, hosted, stop } = await startHostedStack('payment-cpu');
  const client = httpClient(1);
  const receiver = await startReceiver(true);
  try {
    const api = await tenantApi(stack, client, 'Bench payment CPU');
    await api('POST', '/webhooks', { url: receiver.url, events: ['*'], description: 'bench: all' }, 201);
    const wallets: string[] = [];
    for (let i = 0; i < WALLETS; i++) wallets.push(await ownWallet(api, FUND_EACH));
    const pay = async (i: number) => {
      const transactionRecordId = await payOwn(
        api,
        wallets[i % WALLETS] as string,
        wallets[(i + 1) % WALLETS] as string,
        1.5,
      );
      const deadline = performance.now() + SETTLE_CAP_MS;
      while ((await api('GET', `/transactions/${transactionRecordId}`)).status === 'initiated') {
        if (performance.now() > deadline)
          throw new Error(`payment ${i} did not settle in ${SETTLE_CAP_MS} ms`);
        await pause(20);
      }
    };
    const quiet = async () => {
      let seen = -1;
      let since = performance.now();
      await until(() => {
        if (receiver.arrivals.length !== seen) [seen, since] = [receiver.arrivals.length, performance.now()];
        return performance.now() - since > QUIET_MS;
      }, performance.now() + QUIET_CAP_MS);
    };
    for (let i = 0; i < WARM_UP; i++) await pay(i);
    await quiet();
    const before = new Map([...hosted].map(([name, h]) => [name, h.invocations.length]));
    const load = loadavg();
    for (let i = 0; i < PAYMENTS; i++) await pay(WARM_UP + i);
    await quiet();

    const costs = [...hosted]
      .map(([name, h]) => ({ name, invocations: h.invocations.slice(before.get(name) ?? 0) }))
      // The bench's own reads of each payment until settled are not the payment's cost.
      .filter(({ name, invocations }) => invocations.length > 0 && name !== READS)
      .sort((a, b) => {
        const rank = (n: string) =>
          PAYMENT_PATH.includes(n) ? PAYMENT_PATH.indexOf(n) : PAYMENT_PATH.length;
        return rank(a.name) - rank(b.name) || a.name.localeCompare(b.name);
      })
      .map(({ name, invocations }) => ({ name, ...costOf(name, invocations, PAYMENTS) }));
    const all = costs.reduce((sum, c) => sum + c.cpuPerPayment, 0);
    const allCalls = costs.reduce((sum, c) => sum + c.callsPerPayment, 0);
    console.log(
      `\n== 7b. CPU and AWS calls per settled payment, by function (${PAYMENTS} P2P payments one at a time, each bundle in a process of its own)`,
    );
    console.log(
      table(
        ['function', 'invocations/payment', 'cpu ms/payment', 'cpu p50', 'cpu p99', 'calls/payment'],
        [...costs.map((c) => c.row), ['all', '', fixed(all, 1), '', '', fixed(allCalls, 1)]],
      ),
    );
    const submitter = costs.find((c) => c.name === 'workers/ledger-submitter');
    const lines = [
      '',
      "cpu = CPU of the function's process (all threads) over each invocation, ms; p50 / p99 over its invocations.",
      "calls = requests the function sent (AWS by X-Amz-Target, the ledger's Horizon API by method and path), per payment:",
      ...costs.map(
        (c) =>
          `  ${c.name}: ${Object.entries(c.calls)
            .sort((a, b) => b[1] - a[1])
            .map(([call, n]) => `${call} ${fixed(n / PAYMENTS, 1)}`)
            .join(', ')}`,
      ),
      `Goal: ledger-submitter CPU p50 <= ${SUBMITTER_CPU_GOAL_MS} ms per payment: ${fixed(submitter?.cpuP50 ?? Number.NaN, 1)} ms, ${
        (submitter?.cpuP50 ?? Number.POSITIVE_INFINITY) <= SUBMITTER_CPU_GOAL_MS ? 'MET' : 'NOT MET'
      }.`,
      `load average ${load.map((l) => fixed(l, 2)).join(' ')} at the start, ${loadavg()
        .map((l) => fixed(l, 2))
        .join(' ')} at the end.`,
    ];
    console.log(lines.join('\n'));
  } finally {
    client.close();
    await receiver.close();
    await stop();
  }
}

/** The section, in a process of its own (the stack's configuration is read once per process). */
export const measurePaymentCpu = (): Promise<void> =>
  runSectionProcess(import.meta.url, RUN_CAP_MS, KILL_GRACE_MS, '7b. Payment CPU');

await runIfMain(import.meta.url, measureHere);
