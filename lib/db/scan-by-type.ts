// A whole-table read of the items of some types, page by page: for the admin's one-off passes over a
// stage (backfills), never a request's path, which reads by key.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './client.ts';

/** Every item whose `type` is one of `types`, in the table's order. */
export async function* scanByType(types: readonly string[]): AsyncGenerator<Record<string, unknown>> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: `#type IN (${types.map((_, i) => `:t${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#type': 'type' },
        ExpressionAttributeValues: Object.fromEntries(types.map((type, i) => [`:t${i}`, type])),
        ExclusiveStartKey: startKey,
      }),
    );
    yield* page.Items ?? [];
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}
