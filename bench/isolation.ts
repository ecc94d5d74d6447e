// Issue #36 §3 on the bench's stack: one tenant cannot spend another's capacity. Tenant B runs its normal
// mix (reads, writes, a sandbox helper, a customer registration, tokens: 40 % of each limit) alone, then again
// while tenant A sends ten times its limit on every route group (token, reads, writes, sandbox,
// registrations). Both have the default limits of lib/limits/policies.ts, set as their own (the bench
// lifts the defaults for its other sections: RATE_LIMIT_SCALE). Printed: B's requests, 429s, p50 and p99
// alone and beside A, and what A sent and was refused per group.
// Alone: `node scripts/toolchain.mjs node bench/isolation.ts`.
import { randomUUID } from 'node:crypto';
import type { LocalStack } from '../local/stack.ts';
import { isMain, runAlone } from './alone.ts';
import { type HttpClient, httpClient } from './latency.ts';
import { fixed, percentile, table } from './stats.ts';

export const ISOLATION_SECTION_CAP_MS = 120_000;
/** How long B runs its mix in each phase. */
const PHASE_MS = Number(process.env.ISOLATION_PHASE_MS ?? 20_000);
/** How many of A's requests may be in flight at once: past it, a request A's pace asks for is not sent. */
const FLOOD_IN_FLIGHT = 32;
/**
 * Both tenants' limits (and B's mix) as a fraction of the defaults: ten times every default limit is some
 * 835 requests a second, beyond what the local stack serves on 2 CPUs (the bench's stack, its functions
 * and DynamoDB Local share them). ISOLATION_LIMIT_SCALE=1 runs the defaults themselves.
 */
const LIMIT_SCALE = Number(process.env.ISOLATION_LIMIT_SCALE ?? 0.1);
const BESPOKE_CONNECTOR_ID = 'za-bank-onramp-zar-usdc';

type Group = 'token' | 'reads' | 'writes' | 'sandbox' | 'registrations';

interface Tenant {
  name: string;
  apiKey: string;
  clientId: string;
  clientSecret: string;
  applicationId: string;
  token: string;
}

/** One request of a group as `tenant` sends it, and the status it expects when not refused. */
function requestOf(stack: LocalStack, client: HttpClient, tenant: Tenant, group: Group) {
  const auth = { 'x-service-auth': tenant.apiKey, authorization: `Bearer ${tenant.token}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const base = stack.baseUrl;
  switch (group) {
    case 'token':
      return {
        expected: 200,
        send: () =>
          client.send(`${base}/auth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-service-auth': tenant.apiKey },
            body: JSON.stringify({ clientId: tenant.clientId, clientSecret: tenant.clientSecret }),
          }),
      };
    case 'reads':
      return { expected: 200, send: () => client.send(`${base}/assets`, { method: 'GET', headers: auth }) };
    case 'writes':
      return {
        expected: 201,
        send: () =>
          client.send(`${base}/beneficiaries`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({
              individual: { firstName: 'Lerato', lastName: `Bench${randomUUID().slice(0, 8)}` },
            }),
          }),
      };
    case 'sandbox':
      // A wallet of no one: counted, then answered 404 (the helper's own work is not what is measured).
      return {
        expected: 404,
        send: () =>
          client.send(`${base}/sandbox/wallets/${randomUUID()}/kyc`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify({ decision: 'Verified' }),
          }),
      };
    case 'registrations':
      // Counted, then refused for its body before the provider is asked.
      return {
        expected: 400,
        send: () =>
          client.send(
            `${base}/customers/bench-${randomUUID()}/connectors/${BESPOKE_CONNECTOR_ID}/register/individual`,
            {
              method: 'PUT',
              headers: json,
              body: '{}',
            },
          ),
      };
  }
}

interface Outcome {
  group: Group;
  status: number;
  ms: number;
}

/**
 * Sends `perSecond` requests of each group, evenly paced (open loop) for `durationMs`; at most `inFlight`
 * at once (a request the pace asks for beyond it is counted as not sent).
 */
async function paced(
  send: (group: Group) => { expected: number; send: () => Promise<{ status: number }> },
  rates: Partial<Record<Group, number>>,
  durationMs: number,
  inFlight = Number.POSITIVE_INFINITY,
): Promise<{ outcomes: Outcome[]; unsent: number; errors: string[] }> {
  const outcomes: Outcome[] = [];
  const errors: string[] = [];
  const pending = new Set<Promise<void>>();
  let unsent = 0;
  const begin = performance.now();
  const start = (group: Group) => {
    if (pending.size >= inFlight) {
      unsent += 1;
      return;
    }
    const request = send(group);
    const t0 = performance.now();
    const done = request
      .send()
      .then(({ status }) => {
        outcomes.push({ group, status, ms: performance.now() - t0 });
        if (status !== 429 && status !== request.expected && errors.length < 3)
          errors.push(`${group}: HTTP ${status}`);
      })
      .catch((error: Error) => {
        if (errors.length < 3) errors.push(`${group}: ${error.message}`);
      })
      .finally(() => pending.delete(done));
    pending.add(done);
  };
  // Every 10 ms, each group catches up with its pace: timers late under load still send the rate asked.
  const started = new Map<Group, number>();
  const timer = setInterval(() => {
    const seconds = (performance.now() - begin) / 1000;
    for (const [group, perSecond] of Object.entries(rates) as [Group, number][]) {
      const due = Math.floor(perSecond * seconds) + 1;
      for (let n = started.get(group) ?? 0; n < due; n++) start(group);
      started.set(group, Math.max(due, started.get(group) ?? 0));
    }
  }, 10);
  await new Promise((resolve) => setTimeout(resolve, durationMs - (performance.now() - begin)));
  clearInterval(timer);
  await Promise.all(pending);
  return { outcomes, unsent, errors };
}

/** B's normal mix: this share of each group's steady rate (quota / window), every group at once. */
const B_SHARE = 0.4;

export async function measureIsolation(stack: LocalStack): Promise<void> {
  // After the stack set the environment: the admin modules read it when loaded.
  const { createTenant } = await import('../lib/admin/tenants.ts');
  const { putApplicationLimits } = await import('../lib/limits/repo.ts');
  const { DEFAULT_LIMITS, LIMIT_GROUPS } = await import('../lib/limits/policies.ts');
  const client = httpClient(256);
  const limits = Object.fromEntries(
    LIMIT_GROUPS.map((group) => [
      group,
      { ...DEFAULT_LIMITS[group], quota: Math.max(1, Math.round(DEFAULT_LIMITS[group].quota * LIMIT_SCALE)) },
    ]),
  ) as typeof DEFAULT_LIMITS;
  const rateOf = (group: Group) => limits[group].quota / limits[group].windowSeconds;
  const mix = Object.fromEntries(LIMIT_GROUPS.map((group) => [group, B_SHARE * rateOf(group)])) as Record<
    Group,
    number
  >;
  const tenantNamed = async (name: string): Promise<Tenant> => {
    const created = await createTenant({
      name: `Bench tenant ${name}`,
      environment: 'sandbox',
      kind: 'business',
    });
    // Set as the tenant's own: the bench's stack lifts the defaults for its other sections.
    await putApplicationLimits({
      applicationId: created.applicationId,
      limits,
      updatedAt: new Date().toISOString(),
    });
    const answer = await requestOf(stack, client, { ...created, name, token: '' }, 'token').send();
    if (answer.status !== 200) throw new Error(`tenant ${name}: token HTTP ${answer.status}`);
    return { ...created, name, token: (JSON.parse(answer.body) as { accessToken: string }).accessToken };
  };
  try {
    const [a, b] = [await tenantNamed('A'), await tenantNamed('B')];
    const bSends = (group: Group) => requestOf(stack, client, b, group);
    const aSends = (group: Group) => requestOf(stack, client, a, group);
    // Ten times each group's steady rate (quota / window), per second.
    const flood = Object.fromEntries(LIMIT_GROUPS.map((group) => [group, 10 * rateOf(group)])) as Record<
      Group,
      number
    >;
    const alone = await paced(bSends, mix, PHASE_MS);
    const [beside, flooding] = await Promise.all([
      paced(bSends, mix, PHASE_MS),
      paced(aSends, flood, PHASE_MS, FLOOD_IN_FLIGHT),
    ]);
    const row = (label: string, run: Awaited<ReturnType<typeof paced>>) => {
      const latencies = run.outcomes.map((o) => o.ms).sort((x, y) => x - y);
      return [
        label,
        String(run.outcomes.length),
        String(run.outcomes.filter((o) => o.status === 429).length),
        String(run.errors.length),
        fixed(percentile(latencies, 50), 1),
        fixed(percentile(latencies, 99), 1),
      ];
    };
    const [bAlone, bBeside] = [row('B alone', alone), row('B beside A (A at 10× every limit)', beside)];
    console.log(
      `\n13. Tenant isolation (issue #36 §3): both tenants' limits at ${LIMIT_SCALE} × the defaults (ISOLATION_LIMIT_SCALE); tenant B's mix (${B_SHARE} × each limit) a second (${Object.entries(
        mix,
      )
        .map(([g, n]) => `${g} ${fixed(n, 2)}`)
        .join(
          ', ',
        )}) for ${PHASE_MS / 1000} s alone, then beside tenant A sending 10× its limit on every group`,
    );
    console.log(
      table(['tenant B', 'requests', '429s', 'other errors', 'p50 ms', 'p99 ms'], [bAlone, bBeside]),
    );
    const ratio = Number(bBeside[5]) / Number(bAlone[5]);
    console.log(`B's p99 beside A / alone: ${fixed(ratio, 2)} (goal: at most 1.5; B's 429s goal: 0)`);
    const aRows = LIMIT_GROUPS.map((group) => {
      const mine = flooding.outcomes.filter((o) => o.group === group);
      const limit = limits[group];
      return [
        group,
        `${limit.quota} / ${limit.windowSeconds} s`,
        fixed(flood[group], 1),
        fixed(mine.length / (PHASE_MS / 1000), 1),
        String(mine.filter((o) => o.status === 429).length),
        String(mine.filter((o) => o.status !== 429).length),
      ];
    });
    console.log(table(['A: group', 'limit', 'asked /s', 'answered /s', '429s', 'admitted'], aRows));
    console.log(
      `A: ${flooding.unsent} request(s) its pace asked for were not sent (${FLOOD_IN_FLIGHT} in flight at most); first errors: ${[...alone.errors, ...beside.errors, ...flooding.errors].join('; ') || 'none'}`,
    );
  } finally {
    client.close();
  }
}

if (isMain(import.meta.url)) await runAlone('isolation', ISOLATION_SECTION_CAP_MS, measureIsolation);
