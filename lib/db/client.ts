// One DynamoDB document client per process, created at cold start. Endpoints come from the SDK's
// standard settings (AWS_ENDPOINT_URL_DYNAMODB locally), never from code.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config.ts';

export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true },
});

export const tableName = (): string => config().TABLE_NAME;
