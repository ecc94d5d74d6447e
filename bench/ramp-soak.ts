// Issue #35's ramp soak: several sandbox tenants send off-ramps, on-ramps and provider receipts at a
// steady modest rate for RAMP_SOAK_SECONDS (600 by default), with random outcomes and timings (the
// provider simulator's own completion, or held and then completed, failed or returned by the sandbox
// helpers after a random delay), duplicate and stale signed provider reports, and the ledger's faults
// (late and dropped submission answers) now and then. Then it waits until every record is final or
// resting (capped), and counts: per kind and status, and the checks, each with its violations: every
// record final or resting; every record as the ledger shows it (Horizon); every record as the provider
// simulator shows its instruction; every wallet's USDC balance to the stroop; nothing owed
// (lib/admin/owed.ts). It prints figures and exits 1 when a check has a violation.
import { randomUUID } from 'node:crypto';
import BigNumber from 'bignumber.js';
import { listOwed } from '../lib/admin/owed.ts';
import { createTenant, type NewTenant } from '../lib/admin/tenants.ts';
import { findPlatformAccount } from '../lib/ledger/platform-accounts.ts';
import { lifecycleOf, stateOf } from '../lib/payments/lifecycle/records.ts';
import type { TransactionRecord } from '../lib/payments/repo.ts';
import { findProviderSecret } from '../lib/providers/repo.ts';
import { SIGNATURE_HEADER, signNotification } from '../lib/providers/signature.ts';
import type { Tenant } from '../lib/tenant.ts';
import { sendProviderReport } from '../local/provider-reports.ts';
import type { LocalStack } from '../local/stack.ts';
import { isMain, runAlone } from './alone.ts';
import { tableAccess } from './floor.ts';
import { compliantPayee } from './offramp.ts';
import { recordReader } from './payment-records.ts';
import { fixed, table } from './stats.ts';

const OFFRAMP_CONNECTOR = 'za-bank-offramp-usdc-zar';
const ONRAMP_CONNECTOR = 'ke-momo-onramp-kes-usdc';
const BESPOKE_CONNECTOR = 'za-bank-onramp-zar-usdc';
const ASSET = 'USDC';

/** RAMP_SOAK_SECONDS: how long traffic runs (then the drain and the census). */
const SOAK_SECONDS = Number(process.env.RAMP_SOAK_SECONDS ?? '600');
const TENANTS = 3;
const WALLETS_PER_TENANT = 2;
/** Each wallet's sandbox funding, USDC: far more than its off-ramps (5 to 30 USDC each) take. */
const FUND = 5000;
/** Each tenant starts one ramp every 2-8 s (about 0.6 a second in all). */
const GAP_MS: [number, number] = [2000, 8000];
/** A held ramp is completed or failed by the sandbox helper this long after it was accepted. */
const HOLD_MS: [number, number] = [1000, 25_000];
/** A payout that completed is returned (sometimes) this long after. */
const RETURN_MS: [number, number] = [1000, 15_000];
/** Ledger faults: one every 20-60 s while traffic runs. */
const FAULT_GAP_MS: [number, number] = [20_000, 60_000];
const SETUP_CAP_MS = 120_000;
/** After the traffic: the helpers' last delays, then every record final or resting. */
const TAIL_CAP_MS = 90_000;
const DRAIN_CAP_MS = 240_000;
const CENSUS_CAP_MS = 120_000;
/** The most this section can take (bench/run.ts adds it to its hard cap). */
export const RAMP_SOAK_CAP_MS =
  SETUP_CAP_MS + SOAK_SECONDS * 1000 + TAIL_CAP_MS + DRAIN_CAP_MS + CENSUS_CAP_MS;

/**
 * The sandbox's caps on test money, raised before the stack starts (lib/config.ts reads them when the
 * functions load): every tenant's wallets are funded and its references paid into many times.
 */
export function raiseRampSoakCaps(): void {
  const atLeast = (name: string, value: number) => {
    if (Number(process.env[name] ?? 0) < value) process.env[name] = String(value);
  };
  atLeast('SANDBOX_FUND_DAILY_LIMIT', 10_000_000);
  atLeast('SANDBOX_RECEIPT_DAILY_LIMIT', 100_000_000);
  atLeast('TOKEN_RATE_LIMIT', 1000);
}

/** A statement reference the simulator holds (HOLD…), within the API's 16 characters. */
const heldRef = () => `HOLD-${randomUUID().slice(0, 8)}`;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = ([min, max]: [number, number]) => min + Math.floor(Math.random() * (max - min));
const chance = (p: number) => Math.random() < p;
const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)] as T;

// biome-ignore lint/suspicious/noExplicitAny: API bodies are read member by member.
type Json = any;

/** One tenant's caller: its key, a token renewed before it expires, and JSON calls as it. */
function caller(stack: LocalStack, tenant: NewTenant) {
  let token: { value: string; at: number } | undefined;
  const accessToken = async () => {
    if (!token || performance.now() - token.at > 300_000) {
      const answer = await fetch(`${stack.baseUrl}/auth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-service-auth': tenant.apiKey },
        body: JSON.stringify({ clientId: tenant.clientId, clientSecret: tenant.clientSecret }),
      });
      if (answer.status !== 200) throw new Error(`token: HTTP ${answer.status} ${await answer.text()}`);
      token = {
        value: ((await answer.json()) as { accessToken: string }).accessToken,
        at: performance.now(),
      };
    }
    return token.value;
  };
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: Json }> => {
    const answer = await fetch(`${stack.baseUrl}${path}`, {
      method,
      headers: {
        'x-service-auth': tenant.apiKey,
        authorization: `Bearer ${await accessToken()}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : null };
  };
  /** The call's body when it answers `status`; otherwise an error naming both. */
  const expect = async (status: number, method: string, path: string, body?: unknown, headers = {}) => {
    const answer = await call(method, path, body, headers);
    if (answer.status !== status)
      throw new Error(
        `${method} ${path}: HTTP ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`,
      );
    return answer.body;
  };
  return { call, expect };
}
type Caller = ReturnType<typeof caller>;

const individual = {
  firstName: 'Thandi',
  lastName: 'Nkosi',
  dateOfBirth: '1990-04-12',
  idType: 'NATIONAL_ID',
  idNumber: '9004120000000',
};

interface SoakWallet {
  walletId: string;
  publicKey: string;
  funded: string;
}

interface SoakTenant {
  name: string;
  tenant: Tenant;
  api: Caller;
  wallets: SoakWallet[];
  payee: { beneficiaryId: string; paymentDestinationId: string };
  payer: { senderId: string; paymentDestinationId: string };
  /** One on-ramp reference of a verified customer per wallet. */
  references: { reference: string; walletId: string }[];
}

async function openWallet(api: Caller): Promise<SoakWallet> {
  const created = await api.expect(201, 'POST', '/wallets', {
    walletName: 'Ramp soak',
    assetCode: ASSET,
    ownAccount: true,
  });
  const deadline = performance.now() + 60_000;
  for (;;) {
    const { activationStatus } = await api.expect(200, 'GET', `/wallets/${created.id}`);
    if (activationStatus === 'active') break;
    if (activationStatus === 'failed' || performance.now() > deadline)
      throw new Error(`wallet ${created.id} is ${activationStatus}`);
    await pause(100);
  }
  const funded = await api.expect(
    200,
    'POST',
    `/sandbox/wallets/${created.id}/fund`,
    { assetCode: ASSET, amount: FUND },
    { 'idempotency-key': randomUUID() },
  );
  if (funded.status !== 'succeeded') throw new Error(`funding of ${created.id} answered ${funded.status}`);
  return { walletId: created.id, publicKey: created.publicKey, funded: new BigNumber(FUND).toFixed(7) };
}

/** A verified customer of the bespoke connector (the sandbox decision helper) and a reference per wallet. */
async function referencesFor(api: Caller, wallets: SoakWallet[]) {
  const customerId = `soak-${randomUUID().slice(0, 8)}`;
  const path = `/customers/${customerId}/connectors/${BESPOKE_CONNECTOR}`;
  // A lastName starting HOLD leaves the decision to the sandbox helper (no 2 s wait).
  await api.expect(201, 'PUT', `${path}/register/individual`, {
    ...individual,
    lastName: 'Holdsworth',
    idCountryIsoCode2: 'ZA',
  });
  await api.expect(202, 'POST', `/sandbox${path}/decision`, { decision: 'VERIFIED' });
  const deadline = performance.now() + 30_000;
  while ((await api.expect(200, 'GET', path)).status !== 'VERIFIED') {
    if (performance.now() > deadline) throw new Error(`customer ${customerId} not verified in 30 s`);
    await pause(100);
  }
  return Promise.all(
    wallets.map(async ({ walletId }) => {
      const made = await api.expect(201, 'POST', '/onramp/references', {
        connectorId: BESPOKE_CONNECTOR,
        customerId,
        walletId,
      });
      return { reference: made.reference as string, walletId };
    }),
  );
}

async function soakTenant(stack: LocalStack, i: number): Promise<SoakTenant> {
  const name = `Ramp soak ${i + 1}`;
  const created = await createTenant({ name, environment: 'sandbox', kind: 'business' });
  const api = caller(stack, created);
  const wallets: SoakWallet[] = [];
  // One at a time: each activation and funding is a ledger transaction of the platform's accounts.
  for (let w = 0; w < WALLETS_PER_TENANT; w++) wallets.push(await openWallet(api));
  // The off-ramp section's payee: a compliant beneficiary and its approved ZA bank account.
  const payee = await compliantPayee((path, body, status) => api.expect(status, 'POST', path, body));
  const sender = await api.expect(201, 'POST', '/beneficiaries', {
    individual: { ...individual, idCountryIsoCode2: 'KE' },
  });
  const momo = await api.expect(201, 'POST', `/beneficiaries/${sender.id}/payment-destinations`, {
    method: 'MOBILE_MONEY',
    countryIsoCode2: 'KE',
    currencyIsoCode3: 'KES',
    mobileNumber: '+254712345678',
    provider: 'MPESA',
  });
  return {
    name,
    tenant: { environment: 'sandbox', associationId: created.associationId },
    api,
    wallets,
    payee,
    payer: { senderId: sender.id, paymentDestinationId: momo.id },
    references: await referencesFor(api, wallets),
  };
}

/** What the soak did to one ramp record, for the census's notes. */
interface Sent {
  id: string;
  kind: 'offramp' | 'onramp';
  owner: SoakTenant;
  plan: string;
}

/** Counts of what the traffic did, printed under the census. */
const counts = new Map<string, number>();
const count = (what: string, n = 1) => counts.set(what, (counts.get(what) ?? 0) + n);
/** Unexpected answers while sending (not violations: what the soak could not do), the first few kept. */
const trafficErrors: string[] = [];
const trafficError = (what: string, error: unknown) => {
  count(`error: ${what}`);
  if (trafficErrors.length < 20) trafficErrors.push(`${what}: ${(error as Error).message}`);
};

/** The provider's signed report of an instruction, as the simulator sends it (a new notification id). */
const report = (stack: LocalStack, connectorId: string, body: Record<string, unknown>): Promise<number> =>
  sendProviderReport(stack.baseUrl, connectorId, body);

/** The simulator's view of a record's instruction (signed GET, as the tests read it); null when it has none. */
async function atProvider(
  stack: LocalStack,
  connectorId: string,
  reference: string,
): Promise<{ status: string; providerReference: string } | null> {
  const secret = (await findProviderSecret('sandbox', connectorId)) as Buffer;
  const answer = await fetch(
    `${stack.providerUrl}/sandbox/connectors/${connectorId}/instructions/${reference}`,
    {
      headers: { [SIGNATURE_HEADER]: signNotification(secret, '', new Date()) },
    },
  );
  if (answer.status === 404) {
    await answer.text();
    return null;
  }
  if (answer.status !== 200) throw new Error(`simulator GET ${reference}: HTTP ${answer.status}`);
  return (await answer.json()) as { status: string; providerReference: string };
}

/**
 * Sends again what the provider already said of the instruction, out of order: its `pending` and
 * `processing`, and copies of where it stands now, some at once. None may move the record backwards.
 */
async function staleReports(stack: LocalStack, sent: Sent, connectorId: string) {
  const state = await atProvider(stack, connectorId, sent.id);
  if (!state) return;
  const kind = sent.kind === 'offramp' ? 'payout' : 'collection';
  const copy = (status: string) =>
    report(stack, connectorId, {
      kind,
      reference: sent.id,
      providerReference: state.providerReference,
      status,
      reason: null,
    });
  const statuses = ['pending', 'processing', state.status, state.status].sort(() => Math.random() - 0.5);
  const answers = chance(0.5) ? await Promise.all(statuses.map(copy)) : [];
  if (!answers.length) for (const status of statuses) answers.push(await copy(status));
  count('stale or duplicate provider reports', answers.length);
  const refused = answers.filter((s) => s >= 300);
  if (refused.length) trafficError('stale report answered', new Error(refused.join(', ')));
}

/** Asks the sandbox helper for an outcome, again while the provider has no instruction yet (409). */
async function drive(owner: SoakTenant, id: string, outcome: 'complete' | 'fail' | 'return') {
  const deadline = performance.now() + 30_000;
  for (;;) {
    const answer = await owner.api.call('POST', `/sandbox/transactions/${id}/${outcome}`);
    if (answer.status === 202) {
      count(`helper ${outcome}`);
      return true;
    }
    // 409: not instructed yet (try again), or the instruction cannot move that way (the ledger refused
    // the leg, so nothing was instructed; or a payout that did not complete cannot return).
    if (answer.status !== 409 || performance.now() > deadline) {
      count(`helper ${outcome} answered ${answer.status}`);
      if (answer.status !== 409)
        trafficError(`helper ${outcome}`, new Error(`${id}: ${JSON.stringify(answer.body).slice(0, 200)}`));
      return false;
    }
    await pause(500);
  }
}

/** Submits a ramp from or into one of the owner's wallets (held at the provider when `held`), and notes it. */
async function submitRamp(
  owner: SoakTenant,
  kind: Sent['kind'],
  held: boolean,
  sent: Sent[],
  body: Record<string, unknown>,
): Promise<Sent> {
  const accepted = await owner.api.expect(202, 'POST', `/payments/${kind}`, {
    transactionId: randomUUID(),
    walletId: pick(owner.wallets).walletId,
    ...body,
    ...(held ? { toRef: heldRef() } : {}),
  });
  const one: Sent = { id: accepted.transactionRecordId, kind, owner, plan: held ? 'held' : 'simulator' };
  sent.push(one);
  count(`${kind}, ${one.plan}`);
  return one;
}

async function offramp(stack: LocalStack, owner: SoakTenant, sent: Sent[]) {
  const held = chance(0.6);
  const quote = await owner.api.expect(201, 'POST', '/quotes', {
    amount: between([5, 31]),
    connectorId: OFFRAMP_CONNECTOR,
    ...owner.payee,
  });
  const one = await submitRamp(owner, 'offramp', held, sent, {
    ...owner.payee,
    quoteId: quote.quoteId,
    sendingAssetCode: ASSET,
    purpose: 'FAMILY_SUPPORT',
    sourceOfFunds: 'SALARY',
  });
  let completes = !held;
  if (held) {
    await pause(between(HOLD_MS));
    completes = chance(0.6);
    await drive(owner, one.id, completes ? 'complete' : 'fail');
  }
  if (completes && chance(0.25)) {
    // The simulator completes a payout left alone after LOCAL_PROVIDER_COMPLETE_MS (3 s).
    await pause(held ? between(RETURN_MS) : 3000 + between(RETURN_MS));
    await drive(owner, one.id, 'return');
  }
  if (chance(0.3)) {
    await pause(between([0, 5000]));
    await staleReports(stack, one, OFFRAMP_CONNECTOR);
  }
}

async function onramp(stack: LocalStack, owner: SoakTenant, sent: Sent[]) {
  const held = chance(0.6);
  const quote = await owner.api.expect(201, 'POST', '/quotes?type=onramp', {
    amount: between([200, 3001]),
    connectorId: ONRAMP_CONNECTOR,
    beneficiaryId: owner.payer.senderId,
    paymentDestinationId: owner.payer.paymentDestinationId,
  });
  const one = await submitRamp(owner, 'onramp', held, sent, {
    ...owner.payer,
    quoteId: quote.quoteId,
    senderSourceOfFunds: 'SALARY',
  });
  if (held) {
    await pause(between(HOLD_MS));
    await drive(owner, one.id, chance(0.65) ? 'complete' : 'fail');
  }
  if (chance(0.3)) {
    await pause(between([0, 5000]));
    await staleReports(stack, one, ONRAMP_CONNECTOR);
  }
}

/** A customer pays into a reference (the sandbox helper); sometimes its receipt is reported again. */
async function receipt(stack: LocalStack, owner: SoakTenant, receipts: Map<string, SoakTenant>) {
  const { reference } = pick(owner.references);
  const amount = between([100, 3001]);
  const paid = await owner.api.expect(202, 'POST', `/sandbox/onramp/references/${reference}/receipts`, {
    amount,
    currency: 'ZAR',
  });
  receipts.set(paid.receiptId, owner);
  count('receipt');
  if (chance(0.3)) {
    await pause(between([0, 5000]));
    const copy = () =>
      report(stack, BESPOKE_CONNECTOR, {
        kind: 'receipt',
        receiptId: paid.receiptId,
        reference,
        amount: String(amount),
        currency: 'ZAR',
      });
    const answers = await Promise.all(Array.from({ length: between([1, 4]) }, copy));
    count('duplicate receipt reports', answers.length);
    if (answers.some((s) => s >= 300))
      trafficError('duplicate receipt answered', new Error(answers.join(', ')));
  }
}

/** One ledger fault now and then, on the stack's sandbox ledger (local/ledger/faults.ts). */
async function ledgerFaults(stack: LocalStack, until: number) {
  const applied: string[] = [];
  while (performance.now() + FAULT_GAP_MS[0] < until) {
    await pause(between(FAULT_GAP_MS));
    if (performance.now() > until) break;
    const submissionAnswer = chance(0.5)
      ? { mode: 'late', delayMs: between([1000, 4001]), count: between([1, 4]) }
      : { mode: 'drop', count: between([1, 3]) };
    const answer = await fetch(`${stack.horizonUrl}/_admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ submissionAnswer }),
    });
    await answer.text();
    if (answer.status !== 200) throw new Error(`ledger faults: HTTP ${answer.status}`);
    applied.push(JSON.stringify(submissionAnswer));
  }
  return applied;
}

/** Horizon's view of a transaction: whether it landed, and its payments. */
async function onLedger(stack: LocalStack, hash: string) {
  const tx = await fetch(`${stack.horizonUrl}/transactions/${hash}`);
  if (tx.status === 404) {
    await tx.text();
    return { landed: false, payments: [] };
  }
  const { successful } = (await tx.json()) as { successful: boolean };
  const ops = await fetch(`${stack.horizonUrl}/transactions/${hash}/operations?limit=200`);
  const page = (await ops.json()) as { _embedded: { records: Json[] } };
  return {
    landed: successful,
    payments: page._embedded.records.filter((op) => op.type === 'payment') as {
      from: string;
      to: string;
      amount: string;
      asset_code?: string;
    }[],
  };
}

/** The wallet's USDC on the ledger, exactly. */
async function balanceOf(stack: LocalStack, publicKey: string): Promise<string> {
  const answer = await fetch(`${stack.horizonUrl}/accounts/${publicKey}`);
  const account = (await answer.json()) as { balances: { asset_code?: string; balance: string }[] };
  return account.balances.find((b) => b.asset_code === ASSET)?.balance ?? '0';
}

const isFinalOrResting = (record: TransactionRecord) => {
  const info = lifecycleOf(record).states[stateOf(record)];
  return info?.final === true || info?.resting === true;
};

/** Off-ramp states after the leg landed: the wallet was debited. */
const LEG_LANDED = new Set(['leg_landed', 'paying_out', 'completed', 'refund_due', 'refund_completed']);

/** The provider_onramp records of a tenant (GET /v1/transactions, every page). */
async function receiptRecords(owner: SoakTenant): Promise<Json[]> {
  const found: Json[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '100', type: 'provider_onramp' });
    if (cursor) query.set('cursor', cursor);
    const page = await owner.api.expect(200, 'GET', `/transactions?${query}`);
    found.push(...page.data);
    cursor = page.pagination.nextCursor;
  } while (cursor);
  return found;
}

export async function measureRampSoak(stack: LocalStack): Promise<number> {
  const t0 = performance.now();
  const owners: SoakTenant[] = [];
  for (let i = 0; i < TENANTS; i++) owners.push(await soakTenant(stack, i));
  const setupS = (performance.now() - t0) / 1000;
  const settlement = async (connectorId: string) =>
    (await findPlatformAccount('sandbox', `settlement:${connectorId}`))?.publicKey ?? '';
  const settlements = {
    offramp: await settlement(OFFRAMP_CONNECTOR),
    onramp: await settlement(ONRAMP_CONNECTOR),
    provider_onramp: await settlement(BESPOKE_CONNECTOR),
  } as Record<string, string>;

  // Traffic: each tenant starts a ramp every few seconds; each ramp runs its own course meanwhile.
  const sent: Sent[] = [];
  const receipts = new Map<string, SoakTenant>();
  const running: Promise<void>[] = [];
  const trafficStart = performance.now();
  const until = trafficStart + SOAK_SECONDS * 1000;
  const faults = ledgerFaults(stack, until);
  await Promise.all(
    owners.map(async (owner) => {
      while (performance.now() < until) {
        const roll = Math.random();
        const kind = roll < 0.45 ? 'offramp' : roll < 0.8 ? 'onramp' : 'receipt';
        running.push(
          (kind === 'offramp'
            ? offramp(stack, owner, sent)
            : kind === 'onramp'
              ? onramp(stack, owner, sent)
              : receipt(stack, owner, receipts)
          ).catch((error) => trafficError(kind, error)),
        );
        await pause(between(GAP_MS));
      }
    }),
  );
  const appliedFaults = await faults;
  const tail = await Promise.race([
    Promise.all(running).then(() => true),
    pause(TAIL_CAP_MS).then(() => false),
  ]);
  await (await fetch(`${stack.horizonUrl}/_admin/faults`, { method: 'DELETE' })).text();
  const tailS = (performance.now() - until) / 1000;

  // Drain: every record final or resting, and a record for every receipt, or the cap.
  const { db, TableName } = tableAccess(stack);
  const readers = new Map(owners.map((o) => [o, recordReader(db, TableName, o.tenant)]));
  const drainStart = performance.now();
  let records: { owner: SoakTenant; record: TransactionRecord }[] = [];
  let receiptIds: string[] = [];
  let drained = false;
  for (;;) {
    records = [];
    receiptIds = [];
    for (const owner of owners) {
      const fromReceipts = await receiptRecords(owner);
      receiptIds.push(...fromReceipts.map((r) => r.idempotencyKey as string));
      const ids = [
        ...sent.filter((s) => s.owner === owner).map((s) => s.id),
        ...fromReceipts.map((r) => r.transactionRecordId as string),
      ];
      const read = await readers.get(owner)?.records(ids);
      for (const id of ids) {
        const record = read?.get(id);
        if (record) records.push({ owner, record });
      }
    }
    const everyReceipt = [...receipts.keys()].every((id) => receiptIds.includes(id));
    const expected = sent.length + receipts.size;
    if (everyReceipt && records.length >= expected && records.every((r) => isFinalOrResting(r.record))) {
      drained = true;
      break;
    }
    if (performance.now() - drainStart > DRAIN_CAP_MS) break;
    await pause(2000);
  }
  const drainS = (performance.now() - drainStart) / 1000;

  // The census.
  const byKind = new Map<string, number>();
  for (const { record } of records) {
    const key = `${record.transactionType}\t${record.status}\t${stateOf(record)}`;
    byKind.set(key, (byKind.get(key) ?? 0) + 1);
  }
  const violations: Record<string, string[]> = {
    '1. every record final or resting': [],
    '2. every record as the ledger shows it': [],
    '3. every ramp as the provider shows its instruction': [],
    '4. every wallet balance = funding - legs + refunds + credits': [],
    '5. nothing owed (listOwed sandbox)': [],
    '6. every receipt paid by exactly one record': [],
  };
  const [notFinal, ledger, provider, balances, owed, once] = Object.values(violations) as string[][];
  const describe = (r: TransactionRecord) =>
    `${r.transactionType} ${r.transactionRecordId} (${r.associationId.slice(0, 8)}) ${r.status}/${stateOf(r)} v${r.version ?? 0}` +
    ` provider=${r.providerStatus ?? '-'} leg=${r.stellarTxHash ?? '-'} refund=${r.refundTxHash ?? '-'}` +
    ` error=${r.errorCode ?? '-'} owedAttempt=${r.owedAttempt ?? '-'} owedRefusal=${r.owedRefusal ?? '-'}`;
  const missing = sent.length + receipts.size - records.length;
  if (missing > 0) notFinal?.push(`${missing} record(s) sent but not found`);
  for (const { owner, record } of records) {
    if (!isFinalOrResting(record)) notFinal?.push(describe(record));
    const state = stateOf(record);
    const wallet = owner.wallets.find((w) => w.walletId === record.walletId);
    const to = settlements[record.transactionType] ?? '';
    const pays = async (
      hash: string | null | undefined,
      from: string,
      payee: string,
      amount: string | null,
    ) => {
      if (!hash) return 'no transaction';
      const seen = await onLedger(stack, hash);
      if (!seen.landed) return `${hash} did not land`;
      const ok = seen.payments.some(
        (p) =>
          p.from === from &&
          p.to === payee &&
          p.asset_code === ASSET &&
          new BigNumber(p.amount).eq(amount ?? NaN),
      );
      return ok ? null : `${hash} pays ${JSON.stringify(seen.payments)}, not ${amount} ${from} → ${payee}`;
    };
    const problems: string[] = [];
    if (record.transactionType === 'offramp') {
      if (LEG_LANDED.has(state)) {
        const leg = await pays(record.stellarTxHash, wallet?.publicKey ?? '', to, record.originalSendAmount);
        if (leg) problems.push(`leg: ${leg}`);
      }
      if (state === 'refund_completed') {
        const back = await pays(record.refundTxHash, to, wallet?.publicKey ?? '', record.originalSendAmount);
        if (back) problems.push(`refund: ${back}`);
      }
      if (state === 'failed' && record.stellarTxHash && (await onLedger(stack, record.stellarTxHash)).landed)
        problems.push(`failed with nothing moved, but its leg ${record.stellarTxHash} landed`);
    } else if (state === 'completed') {
      const credit = await pays(record.stellarTxHash, to, wallet?.publicKey ?? '', record.receiveAmount);
      if (credit) problems.push(`credit: ${credit}`);
    } else if (
      state === 'failed' &&
      record.stellarTxHash &&
      (await onLedger(stack, record.stellarTxHash)).landed
    )
      problems.push(`failed, but a credit ${record.stellarTxHash} landed`);
    for (const problem of problems) ledger?.push(`${describe(record)}: ${problem}`);

    if (record.transactionType === 'offramp' || record.transactionType === 'onramp') {
      const connector = record.ramp?.connectorId ?? '';
      const seen = await atProvider(stack, connector, record.transactionRecordId);
      const at = seen?.status ?? 'none';
      const agrees =
        state === 'completed'
          ? at === 'completed'
          : state === 'refund_completed'
            ? at === 'failed' ||
              at === 'returned' ||
              (at === 'none' && record.errorCode === 'PROVIDER_REJECTED')
            : state === 'failed'
              ? record.transactionType === 'onramp'
                ? at === 'failed'
                : at === 'none'
              : true;
      if (!agrees) provider?.push(`${describe(record)}: the simulator says ${at}`);
    }
  }
  for (const owner of owners)
    for (const wallet of owner.wallets) {
      let expected = new BigNumber(wallet.funded);
      for (const { record } of records.filter((r) => r.record.walletId === wallet.walletId)) {
        const state = stateOf(record);
        if (record.transactionType === 'offramp') {
          if (LEG_LANDED.has(state)) expected = expected.minus(record.originalSendAmount);
          if (state === 'refund_completed') expected = expected.plus(record.originalSendAmount);
        } else if (state === 'completed') expected = expected.plus(record.receiveAmount ?? 0);
      }
      const actual = await balanceOf(stack, wallet.publicKey);
      if (!expected.eq(actual))
        balances?.push(
          `${owner.name} wallet ${wallet.walletId}: ledger ${actual}, records say ${expected.toFixed(7)} (${new BigNumber(actual).minus(expected).toFixed(7)} apart)`,
        );
    }
  for (const item of await listOwed('sandbox')) owed?.push(JSON.stringify(item));
  for (const id of receipts.keys()) {
    const n = receiptIds.filter((r) => r === id).length;
    if (n !== 1) once?.push(`receipt ${id}: ${n} record(s)`);
  }
  db.destroy();

  const rows = [...byKind.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => [...key.split('\t'), String(n)]);
  console.log(
    `\n== 14. Ramp soak: ${TENANTS} sandbox tenants, ${SOAK_SECONDS} s of traffic (RAMP_SOAK_SECONDS), then the drain and the census`,
  );
  console.log(table(['kind', 'status', 'state', 'n'], rows));
  console.log(`\n${records.length} records (${sent.length} ramps sent, ${receipts.size} receipts paid in).`);
  console.log(
    table(
      ['what the traffic did', 'n'],
      [...counts.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => [k, String(n)]),
    ),
  );
  console.log(
    [
      `setup ${fixed(setupS, 1)} s; traffic ${SOAK_SECONDS} s, then ${fixed(tailS, 1)} s until ${tail ? 'every ramp had run its course' : `the ${TAIL_CAP_MS / 1000} s cap (NOT every ramp ran its course)`};`,
      `drain ${fixed(drainS, 1)} s (${drained ? 'every record final or resting' : `NOT all final or resting within ${DRAIN_CAP_MS / 1000} s`}).`,
      `ledger faults: ${appliedFaults.length ? appliedFaults.join('; ') : 'none'} (cleared at the end of the traffic).`,
      ...trafficErrors.map((e) => `traffic error: ${e}`),
      '',
    ].join('\n'),
  );
  let failed = 0;
  for (const [check, found] of Object.entries(violations)) {
    console.log(`${check}: ${found.length} violation${found.length === 1 ? '' : 's'}`);
    for (const line of found.slice(0, 50)) console.log(`  ${line}`);
    if (found.length > 50) console.log(`  … and ${found.length - 50} more`);
    failed += found.length;
  }
  return failed;
}

// Alone: `RAMP_SOAK_SECONDS=120 node scripts/toolchain.mjs node bench/ramp-soak.ts` (a stack of its own).
if (isMain(import.meta.url)) {
  raiseRampSoakCaps();
  await runAlone('ramp-soak', RAMP_SOAK_CAP_MS, async (stack) => {
    const violations = await measureRampSoak(stack);
    if (violations > 0) throw new Error(`ramp soak: ${violations} violation(s)`);
  });
}
