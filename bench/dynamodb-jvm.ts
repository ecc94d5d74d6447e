// DynamoDB Local's JVM options (local/dynamodb-local.ts): the CPU the JVM spends per call under each choice,
// on the same calls. One DynamoDB Local per choice, each with the table as the stack creates it; rounds of a
// payment's shape of calls (a conditional put of a ~1.7 KB record with its list and pending keys, a
// consistent get, a conditional update that moves its keys, a query), 16 at a time, go to each instance in
// turn, the order reversed every round, so whatever else the machine runs weighs on every choice alike.
// CPU is the JVM's own (user + system, /proc/<pid>/stat), not wall time.
// `node scripts/toolchain.mjs node bench/dynamodb-jvm.ts` (DYNAMODB_JVM_ROUNDS: rounds of 768 calls; 40).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { createTableInput } from '../lib/db/table.ts';
import { DYNAMODB_LOCAL_JVM_OPTIONS, startDynamoDbLocal } from '../local/dynamodb-local.ts';
import { table } from './stats.ts';

const CHOICES: Array<[string, string[]]> = [
  ['JVM defaults (C2, G1)', []],
  ['serial collector', ['-XX:+UseSerialGC']],
  ['parallel collector', ['-XX:+UseParallelGC']],
  ['client compiler only (C1)', ['-XX:TieredStopAtLevel=1']],
  ['C1 and serial collector (the stack)', DYNAMODB_LOCAL_JVM_OPTIONS],
];
const ROUNDS = Number(process.env.DYNAMODB_JVM_ROUNDS ?? 40);
const AT_ONCE = 16;
/** Payments a round: 12 waves of AT_ONCE. */
const PAYMENTS = 12 * AT_ONCE;
const TABLE = 'bench-jvm';

/** The process's CPU so far, in ms (utime + stime, in clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const root = fileURLToPath(new URL('..', import.meta.url));
const instances = [];
for (const [name, jvmOptions] of CHOICES) {
  const local = await startDynamoDbLocal(join(root, '.local', 'dynamodb'), { jvmOptions });
  const client = new DynamoDBClient({
    endpoint: local.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'bench', secretAccessKey: 'bench' },
  });
  await client.send(new CreateTableCommand(createTableInput(TABLE)));
  instances.push({ name, local, db: DynamoDBDocumentClient.from(client), ms: 0, calls: 0 });
}

const filler = 'x'.repeat(1400);
/** One record's life in four calls. */
async function payment(db: DynamoDBDocumentClient, round: number, n: number): Promise<void> {
  const pk = `T#sandbox#bench-${round}-${n % 20}`;
  const sk = `TXN#${round}-${n}`;
  await db.send(
    new PutCommand({
      TableName: TABLE,
      Item: {
        pk,
        sk,
        filler,
        status: 'initiated',
        list1pk: `${pk}#S#i`,
        list1sk: sk,
        pendingPk: 'P',
        pendingSk: sk,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  await db.send(new GetCommand({ TableName: TABLE, Key: { pk, sk }, ConsistentRead: true }));
  await db.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: { pk, sk },
      UpdateExpression: 'SET #s = :to, list1pk = :list REMOVE pendingPk, pendingSk',
      ConditionExpression: '#s = :from',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':to': 'completed', ':from': 'initiated', ':list': `${pk}#S#c` },
    }),
  );
  await db.send(
    new QueryCommand({
      TableName: TABLE,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      Limit: 5,
    }),
  );
}

try {
  for (let round = 0; round < ROUNDS; round++)
    for (const instance of round % 2 ? [...instances].reverse() : instances) {
      const before = cpuMs(instance.local.pid);
      for (let n = 0; n < PAYMENTS; n += AT_ONCE)
        await Promise.all(Array.from({ length: AT_ONCE }, (_, i) => payment(instance.db, round, n + i)));
      instance.ms += cpuMs(instance.local.pid) - before;
      instance.calls += 4 * PAYMENTS;
    }
  const base = instances[0]?.ms ?? 1;
  console.log(
    `\nDynamoDB Local's CPU per call by JVM options (${ROUNDS} rounds of a payment's four calls x ${PAYMENTS}, ${AT_ONCE} at a time, interleaved):\n`,
  );
  console.log(
    table(
      ['JVM options', 'calls', 'CPU us per call', 'vs defaults'],
      instances.map((i) => [
        i.name,
        String(i.calls),
        ((i.ms / i.calls) * 1000).toFixed(0),
        `${((i.ms / base) * 100).toFixed(0)}%`,
      ]),
    ),
  );
} finally {
  for (const instance of instances) await instance.local.stop();
}
