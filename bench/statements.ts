// Issue #23 §2 on the bench's stack: GET /v1/statements/transactions for wallets of 100 and 10,000 USDC
// lines, beside the floor of reading the same lines directly — from the table (the Queries that page the
// materialised lines, straight from the SDK) and from the ledger (Horizon's effects of the account, 200 a
// page, which a statement without materialised lines would read on every request). The lines are an
// outside account's payments to the wallet, 100 operations a transaction, made on the local ledger before
// the cases; the first statement of each wallet reads them from Horizon once (its catch-up, shown apart).

import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Asset, Keypair, Operation, TransactionBuilder } from '@stellar/stellar-sdk';
import { findAsset } from '../lib/assets/repo.ts';
import { config } from '../lib/config.ts';
import { statementKeys } from '../lib/db/keys.ts';
import { pay } from '../lib/ledger/operations.ts';
import { platformAccount } from '../lib/ledger/platform-accounts.ts';
import type { LocalStack } from '../local/stack.ts';
import { isMain, runAlone } from './alone.ts';
import { tableAccess } from './floor.ts';
import { expectStatus, httpClient, issueAccessToken, tokenHeaders } from './latency.ts';
import { type FundedWallet, fundedWallet } from './payment-api.ts';
import { fixed, percentile, table } from './stats.ts';

const SIZES = [100, 10_000];
/** Whole statements read per size (each a walk of every page), and the page size. */
const RUNS = 10;
const PAGE = 100;
const SETUP_CAP_MS = 300_000;
/** The most this section can take. */
export const STATEMENTS_SECTION_CAP_MS = SETUP_CAP_MS + 300_000;

const ms = (value: number) => fixed(value, 0);

/** An outside account holding `amount` USDC from the issuer: the payer of every line. */
async function outsidePayer(stack: LocalStack, amount: string) {
  const keys = Keypair.random();
  const horizon = stack.env.HORIZON_URL_SANDBOX as string;
  const opened = await fetch(`${horizon}/friendbot?addr=${keys.publicKey()}`);
  if (opened.status !== 200) throw new Error(`friendbot: ${opened.status}`);
  const usdc = await findAsset('sandbox', 'USDC');
  if (!usdc?.assetIssuer) throw new Error('no USDC in the registry');
  const asset = new Asset('USDC', usdc.assetIssuer);
  await submit(stack, keys, [Operation.changeTrust({ asset })]);
  const given = await pay({
    environment: 'sandbox',
    intentId: `bench-statements:${keys.publicKey()}`,
    from: await platformAccount('sandbox', 'issuer:USDC'),
    to: keys.publicKey(),
    asset: { code: 'USDC', issuer: usdc.assetIssuer },
    amount,
  });
  if (given.status !== 'succeeded') throw new Error(`issuer payment ${given.status}`);
  return { keys, asset };
}

async function submit(stack: LocalStack, keys: Keypair, operations: ReturnType<typeof Operation.payment>[]) {
  const horizon = stack.env.HORIZON_URL_SANDBOX as string;
  const account = (await (await fetch(`${horizon}/accounts/${keys.publicKey()}`)).json()) as {
    sequence: string;
  };
  const builder = new TransactionBuilder(
    {
      accountId: () => keys.publicKey(),
      sequenceNumber: () => account.sequence,
      incrementSequenceNumber() {},
    },
    { fee: '100', networkPassphrase: config().NETWORK_PASSPHRASE_SANDBOX },
  ).setTimeout(60);
  for (const op of operations) builder.addOperation(op);
  const tx = builder.build();
  tx.sign(keys);
  const response = await fetch(`${horizon}/transactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ tx: tx.toEnvelope().toXDR('base64') }),
  });
  if (response.status !== 200) throw new Error(`submission: ${response.status} ${await response.text()}`);
}

/** `lines` USDC lines on a new wallet: its sandbox funding, then outside payments, 100 a transaction. */
async function walletWithLines(stack: LocalStack, accessToken: string, lines: number) {
  const client = httpClient(1);
  try {
    const wallet = await fundedWallet(stack, client, accessToken, 1, SETUP_CAP_MS);
    const { keys, asset } = await outsidePayer(stack, String(lines));
    for (let left = lines - 1; left > 0; left -= 100) {
      const ops = Array.from({ length: Math.min(100, left) }, () =>
        Operation.payment({ destination: wallet.publicKey, asset, amount: '0.0100000' }),
      );
      await submit(stack, keys, ops);
    }
    return wallet;
  } finally {
    client.close();
  }
}

export async function measureStatements(stack: LocalStack, accessToken: string): Promise<void> {
  const client = httpClient(1);
  const { db, TableName } = tableAccess(stack);
  const headers = tokenHeaders(stack, accessToken);
  const horizon = stack.env.HORIZON_URL_SANDBOX as string;
  const day = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const rows: string[][] = [];
  const notes: string[] = [];
  try {
    for (const size of SIZES) {
      const t0 = performance.now();
      const wallet: FundedWallet = await walletWithLines(stack, accessToken, size);
      notes.push(`${size} lines made on the ledger in ${fixed((performance.now() - t0) / 1000, 1)} s`);
      const end = new Date().toISOString();
      /** Every page of the statement; the time of each. */
      const statement = async (catchingUp = false) => {
        const pages: number[] = [];
        let cursor: string | null = null;
        let lines = 0;
        do {
          const query = new URLSearchParams({
            walletId: wallet.walletId,
            assetCode: 'USDC',
            startDate: day,
            endDate: end,
            limit: String(PAGE),
            ...(cursor ? { cursor } : {}),
          });
          const p0 = performance.now();
          const url = `${stack.baseUrl}/statements/transactions?${query}`;
          let answer = await client.send(url, { method: 'GET', headers });
          // A first read of a long history answers 503 with Retry-After while it catches up (15 s a
          // request); what it wrote stays, so asking again goes on from there.
          while (catchingUp && answer.status === 503)
            answer = await client.send(url, { method: 'GET', headers });
          const body = JSON.parse(await expectStatus(Promise.resolve(answer), 200));
          pages.push(performance.now() - p0);
          lines += body.data.length;
          cursor = body.pagination.nextCursor;
        } while (cursor);
        if (lines !== size) throw new Error(`statement of ${size} lines had ${lines}`);
        return pages;
      };
      const c0 = performance.now();
      await statement(true);
      notes.push(
        `${size} lines: the first statement (catching ${size} lines up from Horizon, then paging) took ${ms(performance.now() - c0)} ms`,
      );
      // The floors: the same lines read straight from the table, and straight from the ledger.
      const partition = statementKeys.partition(stack.seededTenant, wallet.walletId);
      const tableFloor = async () => {
        let startKey: Record<string, unknown> | undefined;
        let lines = 0;
        do {
          const result = await db.send(
            new QueryCommand({
              TableName,
              KeyConditionExpression: 'pk = :pk AND begins_with(sk, :lines)',
              ExpressionAttributeValues: { ':pk': partition, ':lines': 'LINE#USDC:' },
              Limit: PAGE + 1,
              ExclusiveStartKey: startKey,
            }),
          );
          lines += Math.min(PAGE, result.Items?.length ?? 0);
          startKey = result.Items?.length === PAGE + 1 ? result.Items[PAGE - 1] : undefined;
          if (startKey) startKey = { pk: startKey.pk, sk: startKey.sk };
        } while (startKey);
        if (lines !== size) throw new Error(`table floor read ${lines} of ${size}`);
      };
      const ledgerFloor = async () => {
        let cursor = '';
        let credits = 0;
        for (;;) {
          const url = `${horizon}/accounts/${wallet.publicKey}/effects?limit=200&order=asc${cursor ? `&cursor=${cursor}` : ''}`;
          const page = (await (await fetch(url)).json()) as { _embedded: { records: unknown[] } };
          const records = page._embedded.records as Array<{
            type: string;
            asset_code?: string;
            paging_token: string;
          }>;
          credits += records.filter((r) => r.type === 'account_credited' && r.asset_code === 'USDC').length;
          if (records.length < 200) break;
          cursor = records.at(-1)?.paging_token ?? '';
        }
        if (credits !== size) throw new Error(`ledger floor read ${credits} of ${size}`);
      };
      const timed = async (op: () => Promise<unknown>) => {
        const samples: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const s0 = performance.now();
          await op();
          samples.push(performance.now() - s0);
        }
        return samples.sort((a, b) => a - b);
      };
      const pageTimes: number[] = [];
      const route = await timed(async () => pageTimes.push(...(await statement())));
      const fromTable = await timed(tableFloor);
      const fromLedger = await timed(ledgerFloor);
      const pages = pageTimes.sort((a, b) => a - b);
      const row = (what: string, samples: number[]) => [
        `${size}`,
        what,
        String(samples.length),
        ms(percentile(samples, 50)),
        ms(percentile(samples, 99)),
      ];
      rows.push(
        row(`route: whole statement (${Math.ceil(size / PAGE)} pages of ${PAGE})`, route),
        row(`route: one page of ${PAGE}`, pages),
        row('floor: the same lines from the table (Query pages)', fromTable),
        row('floor: the same lines from Horizon (effects, 200 a page)', fromLedger),
      );
    }
    console.log(
      `\n== 11. Statements: GET /v1/statements/transactions vs reading the same lines directly (ms; ${RUNS} runs each, one at a time)`,
    );
    console.log(table(['lines', 'what', 'n', 'p50', 'p99'], rows));
    console.log(
      [
        '',
        'route: every page of the statement (limit 100, cursors followed), each request catching the wallet up with the',
        '       ledger first (one Horizon effects read when nothing closed since), then a Query page, the balances before',
        '       and at the end of the range, and the records and wallet names of the page (BatchGetItem).',
        ...notes,
      ].join('\n'),
    );
  } finally {
    client.close();
    db.destroy();
  }
}

// Alone: `node scripts/toolchain.mjs node bench/statements.ts` (a stack of its own, a few minutes).
if (isMain(import.meta.url))
  await runAlone('statements', STATEMENTS_SECTION_CAP_MS, async (stack) =>
    measureStatements(stack, await issueAccessToken(stack)),
  );
