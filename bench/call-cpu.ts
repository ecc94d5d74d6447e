// What one request costs the process that sends it (issue #24 §2): the client-side CPU of a DynamoDB call
// through the document client (SigV4, the SDK's middleware, JSON, the socket) and of a Horizon-sized GET
// through fetch and through node:http, warm; and the CPU of a process's first fetch, which loads undici.
// It explains the per-payment figures of 7 and 7b: a payment's CPU is mostly its requests.
//
// Section 7c of `npm run bench`; alone: `node scripts/toolchain.mjs node bench/call-cpu.ts` (it starts a
// DynamoDB Local of its own either way; about 20 s).
import { execFile } from 'node:child_process';
import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { fixed, median, table } from './stats.ts';

const CALLS = 500;
const WARM_UP = 100;
const FRESH_PROCESSES = 5;
/** An account as Horizon answers it, about the size the ledger-submitter reads. */
const ACCOUNT_JSON = JSON.stringify({
  id: `G${'A'.repeat(55)}`,
  sequence: '1234567890123',
  subentry_count: 2,
  thresholds: { low_threshold: 0, med_threshold: 0, high_threshold: 0 },
  balances: [
    {
      balance: '100.0000000',
      asset_type: 'credit_alphanum4',
      asset_code: 'USDC',
      asset_issuer: `G${'B'.repeat(55)}`,
    },
    { balance: '9.9999000', asset_type: 'native' },
  ],
  signers: [{ key: `G${'A'.repeat(55)}`, weight: 1, type: 'ed25519_public_key' }],
});

const cpuMs = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/** CPU ms per call of `call`, after a warm-up. */
async function perCall(call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARM_UP; i++) await call();
  const start = process.cpuUsage();
  for (let i = 0; i < CALLS; i++) await call();
  return cpuMs(start) / CALLS;
}

const httpGet = (url: string) =>
  new Promise((resolve, reject) =>
    get(url, (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve(JSON.parse(body)));
    }).on('error', reject),
  );

/** In a fresh Node: the CPU of two requests after node:http has made one (as the AWS SDK would have). */
async function firstRequests(url: string, how: 'fetch' | 'http'): Promise<number> {
  const script = `
    import { get } from 'node:http';
    const once = () => new Promise((r) => get(${JSON.stringify(url)}, (s) => { s.resume(); s.on('end', r); }));
    await once();
    const c = process.cpuUsage();
    for (let i = 0; i < 2; i++) ${how === 'fetch' ? `await (await fetch(${JSON.stringify(url)})).json();` : 'await once();'}
    const u = process.cpuUsage(c);
    console.log((u.user + u.system) / 1000);`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    env: { PATH: process.env.PATH ?? '' },
  });
  return Number(stdout.trim());
}

const root = fileURLToPath(new URL('..', import.meta.url));
/** The most the section can take (bench/run.ts adds it to its hard cap). */
export const CALL_CPU_CAP_MS = 120_000;

export async function measureCallCpu(): Promise<void> {
  const dynamo = await startDynamoDbLocal(join(root, '.local', 'dynamodb'));
  const server = createServer((_, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(ACCOUNT_JSON);
  }).listen(0, '127.0.0.1');
  try {
    await new Promise((resolve) => server.once('listening', resolve));
    await measure(dynamo.endpoint, server);
  } finally {
    server.close();
    await dynamo.stop();
  }
}

async function measure(endpoint: string, server: Server): Promise<void> {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const TableName = 'bench-call-cpu';
  await client.send(
    new CreateTableCommand({
      TableName,
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      BillingMode: 'PAY_PER_REQUEST',
    }),
  );
  const db = DynamoDBDocumentClient.from(client);
  const Key = { pk: 'SUBMISSION#sandbox#payment:1' };
  await db.send(
    new PutCommand({ TableName, Item: { ...Key, status: 'submitting', attempt: 1, envelopes: [] } }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/accounts/G`;

  const rows = [
    [
      'DynamoDB GetItem (consistent)',
      await perCall(() => db.send(new GetCommand({ TableName, Key, ConsistentRead: true }))),
    ],
    [
      'DynamoDB UpdateItem (conditional, ALL_NEW)',
      await perCall(() =>
        db.send(
          new UpdateCommand({
            TableName,
            Key,
            UpdateExpression: 'SET attempt = :a',
            ConditionExpression: '#s = :s',
            ExpressionAttributeNames: { '#s': 'status' },
            ExpressionAttributeValues: { ':a': 2, ':s': 'submitting' },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      ),
    ],
    ['GET /accounts/{id} through fetch (undici)', await perCall(async () => (await fetch(url)).json())],
    ['GET /accounts/{id} through node:http', await perCall(() => httpGet(url))],
  ] as const;
  client.destroy();
  const fresh = async (how: 'fetch' | 'http') => {
    const runs: number[] = [];
    for (let i = 0; i < FRESH_PROCESSES; i++) runs.push(await firstRequests(url, how));
    return median(runs);
  };
  const firstFetch = await fresh('fetch');
  const firstHttp = await fresh('http');

  console.log(
    `\n== 7c. CPU per request, the sending process's (ms; ${CALLS} calls one at a time after ${WARM_UP}, loopback)`,
  );
  console.log(
    table(
      ['request', 'cpu ms/call'],
      rows.map(([name, ms]) => [name, fixed(ms, 3)]),
    ),
  );
  console.log(
    `A fresh Node ${process.version}, its first two GETs after one node:http request, median of ${FRESH_PROCESSES}: ` +
      `fetch ${fixed(firstFetch, 1)} ms CPU, node:http ${fixed(firstHttp, 1)} ms (the difference is undici's load).`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await measureCallCpu();
