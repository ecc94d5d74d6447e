// `npm start`'s DynamoDB Local keeps its data in a file (issue #28 §3, docs/local-stack.md): with `dbPath`
// what a stack writes grows on disk, not in the JVM. A DynamoDB Local of this test's own, on a folder of
// its own: a table and an item written through it land in its database file.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateTableCommand, DynamoDBClient, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { describe, it } from 'vitest';
import { startDynamoDbLocal } from '../../local/dynamodb-local.ts';

const installDir = join(fileURLToPath(new URL('../..', import.meta.url)), '.local', 'dynamodb');

describe('DynamoDB Local with dbPath', () => {
  it('writes what it is given to a database file in that folder', async (t) => {
    const folder = mkdtempSync(join(tmpdir(), 'dynamodb-data-'));
    const dynamo = await startDynamoDbLocal(installDir, { dbPath: folder });
    const client = new DynamoDBClient({ endpoint: dynamo.endpoint });
    t.onTestFinished(async () => {
      client.destroy();
      await dynamo.stop();
      rmSync(folder, { recursive: true, force: true });
    });
    await client.send(
      new CreateTableCommand({
        TableName: 'disk',
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      }),
    );
    await client.send(
      new PutItemCommand({ TableName: 'disk', Item: { pk: { S: 'a' }, data: { S: 'x'.repeat(64 * 1024) } } }),
    );
    const bytes = readdirSync(folder).reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
    assert.ok(bytes >= 64 * 1024, `the folder holds the item (${bytes} bytes)`);
  });
});
