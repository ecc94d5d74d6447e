// One DynamoDB document client per process, created at cold start. Endpoints come from the SDK's
// standard settings (AWS_ENDPOINT_URL_DYNAMODB locally), never from code.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { withoutSdkLogging } from '../aws/sdk-logging.ts';
import { config } from '../config.ts';
import { reportConsumedCapacity } from './consumed-capacity.ts';

/**
 * A Lambda runs one invocation at a time, so the SDK's default of 50 sockets is plenty there. The local stack
 * and the bench run many invocations at once in one process on this one client: DYNAMODB_MAX_SOCKETS lets
 * them hold as many sockets as a fleet of Lambdas would, so requests do not queue for a socket.
 */
const maxSockets = Number(process.env.DYNAMODB_MAX_SOCKETS) || undefined;

export const db = DynamoDBDocumentClient.from(
  withoutSdkLogging(new DynamoDBClient(maxSockets ? { requestHandler: { httpAgent: { maxSockets } } } : {})),
  { marshallOptions: { removeUndefinedValues: true } },
);
reportConsumedCapacity(db);

export const tableName = (): string => config().TABLE_NAME;
