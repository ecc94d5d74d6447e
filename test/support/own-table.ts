// A table of the test file's own in the stack's DynamoDB Local, for tests whose subject is shared
// platform data (the channel pool, say) that the stack's own functions would otherwise use at the same
// time. Call before the first table access of the process (config() reads TABLE_NAME once).
import { randomUUID } from 'node:crypto';
import { resetConfig } from '../../lib/config.ts';
import { createTable } from '../../lib/local/stack.ts';

export async function useOwnTable(purpose: string): Promise<string> {
  const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
  if (!endpoint) throw new Error('AWS_ENDPOINT_URL_DYNAMODB is not set: run the tests with npm test');
  const tableName = `test-${purpose}-${randomUUID()}`;
  await createTable(endpoint, tableName);
  process.env.TABLE_NAME = tableName;
  resetConfig();
  return tableName;
}
