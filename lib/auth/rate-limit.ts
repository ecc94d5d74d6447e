// Fixed-window request counting in the table: one atomic ADD per request, the window item expiring by TTL.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';
import { db, tableName } from '../db/client.ts';
import { keys } from '../db/keys.ts';
import { tooManyRequests } from '../http/problem.ts';

/** Counts a token request for the client; throws 429 with Retry-After past the configured limit. */
export async function countTokenRequest(clientId: string, now: Date): Promise<void> {
  const { TOKEN_RATE_LIMIT: limit, TOKEN_RATE_WINDOW_SECONDS: window } = config();
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowStart = nowSeconds - (nowSeconds % window);
  try {
    await db.send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.tokenRateWindow(clientId, windowStart),
        UpdateExpression: 'ADD requests :one SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
        ConditionExpression: 'attribute_not_exists(requests) OR requests < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expiresAt': windowStart + window * 2 },
      }),
    );
  } catch (error) {
    if (error instanceof ConditionalCheckFailedException) {
      throw tooManyRequests(Math.max(1, windowStart + window - nowSeconds));
    }
    throw error;
  }
}
