// The cold-start floor: the least any of our functions loads. A Middy handler with the Powertools
// Logger and a DynamoDB document client, created at module load as lib/db/client.ts and lib/log.ts do,
// and a GetCommand call path, so bundling cannot shake the client's request machinery out. The bench
// bundles it with the functions' own esbuild options and compares every function with it.
import { Logger } from '@aws-lambda-powertools/logger';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';

const logger = new Logger({ serviceName: 'cold-floor' });
const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

export const handler = middy<{ id?: string }, { statusCode: number }>().handler(async (event) => {
  const { Item } = await db.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: event.id ?? 'floor', sk: 'floor' } }),
  );
  logger.info('Read', { found: Item !== undefined });
  return { statusCode: Item ? 200 : 404 };
});
