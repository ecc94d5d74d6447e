// Issue #19 §5 on the bench's stack: how fast POST /v1/payments/offramp accepts, beside its backend floor
// (the same DynamoDB calls, straight from the SDK), at concurrency 1 and 16; and how long an accepted
// off-ramp takes to reach `processing` (ledger leg landed, payout instructed) and `completed` (the provider
// simulator's notification), with the simulator's own completion delay (LOCAL_PROVIDER_COMPLETE_MS,
// 3 s by default) shown apart. Each request executes a quote of its own (a quote executes once), made
// before the case and not timed.
import { randomUUID } from 'node:crypto';
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  beneficiaryKeys,
  connectorKeys,
  type ItemKey,
  keys,
  ledgerKeys,
  providerKeys,
  quoteKeys,
  rampUseKeys,
  transactionKeys,
  walletKeys,
} from '../lib/db/keys.ts';
import type { Tenant } from '../lib/tenant.ts';
import type { LocalStack } from '../local/stack.ts';
import { isMain, runAlone } from './alone.ts';
import { tableAccess } from './floor.ts';
import {
  expectStatus,
  type HttpClient,
  httpClient,
  issueAccessToken,
  type Op,
  runLoad,
  tokenHeaders,
} from './latency.ts';
import { measureOfframpCost, OFFRAMP_COST_CAP_MS } from './offramp-cost.ts';
import { type FundedWallet, fundedWallet } from './payment-api.ts';
import { recordReader } from './payment-records.ts';
import { fixed, ROUTE_VS_FLOOR_COLUMNS, routeVsFloorRow, table } from './stats.ts';

const CONNECTOR = 'za-bank-offramp-usdc-zar';
const CASES = [
  { concurrency: 1, requests: 60 },
  { concurrency: 16, requests: 160 },
];
const AMOUNT = 1;
const FUND = 2000;
const CASE_CAP_MS = 10_000;
const SETUP_CAP_MS = 20_000;
const DRAIN_CAP_MS = 60_000;
const SETTLE_PAYMENTS = 10;
const PER_PAYMENT_MS = 20_000;
/** The most this section can take (bench/run.ts adds it to its hard cap). */
export const OFFRAMP_SECTION_CAP_MS =
  SETUP_CAP_MS +
  CASES.length * (2 * CASE_CAP_MS + DRAIN_CAP_MS + 30_000) +
  SETTLE_PAYMENTS * PER_PAYMENT_MS +
  OFFRAMP_COST_CAP_MS;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ms = (value: number) => fixed(value, 0);

function poster(stack: LocalStack, client: HttpClient, accessToken: string) {
  return async (path: string, body: unknown, status: number) => {
    const text = JSON.stringify(body);
    const headers = {
      ...tokenHeaders(stack, accessToken),
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    };
    return JSON.parse(
      await expectStatus(
        client.send(`${stack.baseUrl}${path}`, { method: 'POST', headers, body: text }),
        status,
      ),
    );
  };
}

/** A beneficiary with every field the connector requires, and its ZA bank account, approved. */
export async function compliantPayee(post: ReturnType<typeof poster>) {
  const beneficiary = await post(
    '/beneficiaries',
    {
      individual: {
        firstName: 'Thandi',
        lastName: 'Nkosi',
        dateOfBirth: '1990-04-12',
        idType: 'NATIONAL_ID',
        idNumber: '9004120000000',
      },
      addresses: [{ line1: '1 Long Street', city: 'Cape Town', countryIsoCode2: 'ZA' }],
    },
    201,
  );
  const destination = await post(
    `/beneficiaries/${beneficiary.id}/payment-destinations`,
    {
      method: 'BANK',
      countryIsoCode2: 'ZA',
      currencyIsoCode3: 'ZAR',
      accountNumber: '123456789',
      bankCode: '250655',
      accountHolderName: 'Thandi Nkosi',
    },
    201,
  );
  await post(`/sandbox/payment-destinations/${destination.id}/verification`, { decision: 'APPROVED' }, 200);
  return { beneficiaryId: beneficiary.id as string, paymentDestinationId: destination.id as string };
}

/**
 * The floor of one acceptance (lib/payments/ramps/offramp.ts, in order): API key and client; a consistent
 * GetItem of the new record's key (a miss); the wallet, beneficiary and destination at once; the quote;
 * the connector; the association; the registry asset; the settlement account and provider credential
 * at once; the limits' head and uses read consistently (one GetItem, then one Query of one partition) and the
 * use written with the head in one TransactWriteItems; the quote's conditional claim; and the conditional put of a copy of a real record under a tenant no caller has, written
 * 'completed' so its insert asks the outbox for nothing.
 */
async function offrampFloor(
  stack: LocalStack,
  recordId: string,
  quoteId: string,
  walletId: string,
  payee: { beneficiaryId: string; paymentDestinationId: string },
) {
  const { seededTenant: tenant } = stack;
  const { db, TableName, getItem, getApiKey, getClient } = tableAccess(stack);
  const template = await getItem(transactionKeys.record(tenant, recordId));
  const benchTenant: Tenant = { environment: tenant.environment, associationId: randomUUID() };
  const get = (Key: ItemKey, consistent = false) =>
    db.send(new GetCommand({ TableName, Key, ConsistentRead: consistent }));
  const accept: Op = async () => {
    await getApiKey();
    await getClient();
    const transactionRecordId = randomUUID();
    const recordKey = transactionKeys.record(benchTenant, transactionRecordId);
    await get(recordKey, true);
    await Promise.all([
      get(walletKeys.wallet(tenant, walletId), true),
      get(beneficiaryKeys.beneficiary(tenant, payee.beneficiaryId)),
      get(beneficiaryKeys.destination(tenant, payee.beneficiaryId, payee.paymentDestinationId)),
    ]);
    await get(quoteKeys.quote(tenant, quoteId));
    await get(connectorKeys.connector(tenant.environment, CONNECTOR));
    await get(keys.association(tenant));
    await get(keys.asset(tenant.environment, 'USDC'));
    await Promise.all([
      get(ledgerKeys.platformAccount(tenant.environment, `settlement:${CONNECTOR}`), true),
      get(providerKeys.credential(tenant.environment, CONNECTOR)),
    ]);
    // The limits (lib/payments/ramps/usage.ts): the head, then the uses, read consistently; the use
    // written with the head's version moved, in one transaction.
    const head = await get(rampUseKeys.head(benchTenant, CONNECTOR), true);
    await db.send(
      new QueryCommand({
        TableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: {
          ':pk': `T#${benchTenant.environment}#${benchTenant.associationId}`,
          ':prefix': rampUseKeys.usePrefix(CONNECTOR),
        },
        ConsistentRead: true,
      }),
    );
    await db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName,
              Key: rampUseKeys.head(benchTenant, CONNECTOR),
              UpdateExpression: 'ADD #v :one',
              // The route's condition is on the version it read; the floor's always holds, so that
              // concurrent floor calls never lose a round (the route's lost rounds are its own cost).
              ConditionExpression: 'attribute_not_exists(pk) OR #v >= :read',
              ExpressionAttributeNames: { '#v': 'version' },
              ExpressionAttributeValues: {
                ':one': 1,
                ':read': (head.Item?.version as number | undefined) ?? 0,
              },
            },
          },
          {
            Put: {
              TableName,
              Item: {
                ...rampUseKeys.use(benchTenant, CONNECTOR, transactionRecordId),
                type: 'rampUse',
                amount: String(AMOUNT),
                createdAt: new Date().toISOString(),
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      }),
    );
    await db.send(
      new UpdateCommand({
        TableName,
        Key: quoteKeys.quote(tenant, quoteId),
        UpdateExpression: 'SET #u = :u',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#u) OR #u = :u)',
        ExpressionAttributeNames: { '#u': 'usedBy' },
        ExpressionAttributeValues: { ':u': recordId },
      }),
    );
    const now = new Date().toISOString();
    await db.send(
      new PutCommand({
        TableName,
        Item: {
          ...template,
          ...recordKey,
          ...transactionKeys.byCreation(benchTenant, now, transactionRecordId),
          status: 'completed',
          transactionRecordId,
          associationId: benchTenant.associationId,
          createdAt: now,
          updatedAt: now,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  };
  return { accept, close: () => db.destroy() };
}

export async function measureOfframps(stack: LocalStack, accessToken: string): Promise<void> {
  const setup = httpClient(4);
  const post = poster(stack, setup, accessToken);
  let wallet: FundedWallet;
  let payee: { beneficiaryId: string; paymentDestinationId: string };
  try {
    [wallet, payee] = await Promise.all([
      fundedWallet(stack, setup, accessToken, FUND, SETUP_CAP_MS),
      compliantPayee(post),
    ]);
  } catch (error) {
    setup.close();
    throw error;
  }
  const quotes = async (n: number) => {
    const made: string[] = [];
    for (let i = 0; i < n; i++)
      made.push((await post('/quotes', { amount: AMOUNT, connectorId: CONNECTOR, ...payee }, 201)).quoteId);
    return made;
  };
  const body = (quoteId: string) => ({
    transactionId: randomUUID(),
    walletId: wallet.walletId,
    ...payee,
    quoteId,
    sendingAssetCode: 'USDC',
    purpose: 'FAMILY_SUPPORT',
    sourceOfFunds: 'SALARY',
  });
  const { db, TableName } = tableAccess(stack);
  const reader = recordReader(db, TableName, stack.seededTenant);
  const made: string[] = [];
  const rows: string[][] = [];
  const notes: string[] = [];
  try {
    const first = await post('/payments/offramp', body((await quotes(1))[0] as string), 202);
    made.push(first.transactionRecordId);
    const floor = await offrampFloor(
      stack,
      first.transactionRecordId,
      (await quotes(1))[0] as string,
      wallet.walletId,
      payee,
    );
    try {
      for (const { concurrency, requests } of CASES) {
        const ready = await quotes(requests);
        const client = httpClient(concurrency);
        const send = poster(stack, client, accessToken);
        const route: Op = async () => {
          const quoteId = ready.pop();
          if (!quoteId) throw new Error('out of quotes');
          made.push((await send('/payments/offramp', body(quoteId), 202)).transactionRecordId);
        };
        const r = await runLoad(route, { concurrency, requests, capMs: CASE_CAP_MS });
        client.close();
        const t0 = performance.now();
        const { capped } = await reader.waitSettled(made.splice(0), { pollMs: 200, capMs: DRAIN_CAP_MS });
        notes.push(
          `c=${concurrency}: the route's off-ramps left 'initiated' ${capped ? 'NOT all within the cap' : `${fixed((performance.now() - t0) / 1000, 1)} s after the case`}`,
        );
        const f = await runLoad(floor.accept, { concurrency, requests, capMs: CASE_CAP_MS });
        rows.push(routeVsFloorRow('POST /v1/payments/offramp', concurrency, r, f));
        if (r.firstFailure) notes.push(`c=${concurrency} route: ${r.firstFailure}`);
        if (f.firstFailure) notes.push(`c=${concurrency} floor: ${f.firstFailure}`);
      }
    } finally {
      floor.close();
    }

    // 202 → processing (ledger leg landed and payout instructed) → completed (the provider's notification).
    const read = httpClient(1);
    const processing: number[] = [];
    const completed: number[] = [];
    for (const quoteId of await quotes(SETTLE_PAYMENTS)) {
      const t0 = performance.now();
      const { transactionRecordId } = await post('/payments/offramp', body(quoteId), 202);
      const deadline = t0 + PER_PAYMENT_MS;
      let seenProcessing = false;
      for (;;) {
        const record = JSON.parse(
          await expectStatus(
            read.send(`${stack.baseUrl}/transactions/${transactionRecordId}`, {
              method: 'GET',
              headers: tokenHeaders(stack, accessToken),
            }),
            200,
          ),
        );
        if (!seenProcessing && record.externalReference) {
          seenProcessing = true;
          processing.push(performance.now() - t0);
        }
        if (record.status === 'completed' || record.status === 'failed' || performance.now() > deadline) {
          if (record.status === 'completed') completed.push(performance.now() - t0);
          break;
        }
        await pause(20);
      }
    }
    read.close();
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const p = (values: number[], q: number) =>
      sorted(values)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? NaN;
    const delay = Number(
      stack.env.LOCAL_PROVIDER_COMPLETE_MS ?? process.env.LOCAL_PROVIDER_COMPLETE_MS ?? 3000,
    );
    console.log(
      `\n== 10. Off-ramp acceptance: POST /v1/payments/offramp vs its backend floor (ms; same run)`,
    );
    console.log(table(ROUTE_VS_FLOOR_COLUMNS, rows));
    console.log(
      [
        '',
        `route: an off-ramp of ${AMOUNT} USDC to an approved ZA bank account of a compliant beneficiary, each request a quote`,
        '       of its own (made before the case, not timed); 202 with a new record is a success.',
        '       floor: the same DynamoDB calls in the same order (offrampFloor above); the route also validates, fingerprints',
        '       the request, checks compliance and limits in memory and builds the record.',
        ...notes,
      ].join('\n'),
    );
    console.log(
      `\n== 10b. Off-ramp execution (${SETTLE_PAYMENTS} payments one at a time; ms from the 202)\n` +
        table(
          ['to', 'n', 'p50', 'p99'],
          [
            [
              'processing (ledger leg + payout instructed)',
              String(processing.length),
              ms(p(processing, 0.5)),
              ms(p(processing, 0.99)),
            ],
            [
              'completed (provider notification)',
              String(completed.length),
              ms(p(completed, 0.5)),
              ms(p(completed, 0.99)),
            ],
            [
              `completed less the simulator's ${delay} ms`,
              String(completed.length),
              ms(p(completed, 0.5) - delay),
              ms(p(completed, 0.99) - delay),
            ],
          ],
        ),
    );
    await measureOfframpCost(stack, {
      register: async (registration) => (await post('/webhooks', registration, 201)).id,
      deactivate: async (webhookId) => {
        await expectStatus(
          setup.send(`${stack.baseUrl}/webhooks/${webhookId}`, {
            method: 'DELETE',
            headers: tokenHeaders(stack, accessToken),
          }),
          200,
        );
      },
      offramp: async () =>
        (await post('/payments/offramp', body((await quotes(1))[0] as string), 202)).transactionRecordId,
    });
  } finally {
    setup.close();
    db.destroy();
  }
}

// Alone: `node scripts/toolchain.mjs node bench/offramp.ts` (a stack of its own, about a minute).
if (isMain(import.meta.url))
  await runAlone('offramp', OFFRAMP_SECTION_CAP_MS, async (stack) =>
    measureOfframps(stack, await issueAccessToken(stack)),
  );
