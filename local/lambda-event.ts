// Builds what API Gateway (HTTP API, payload format 2.0) hands a Lambda function, from a plain request.
import { isUtf8 } from 'node:buffer';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export interface PlainRequest {
  method: string;
  /** Path and query as received, e.g. `/v1/assets?limit=5`. */
  url: string;
  /** Header names lower-cased; repeated headers joined with commas, as API Gateway does. */
  headers: Record<string, string>;
  body: Buffer;
  sourceIp?: string;
}

const TEXT_MEDIA_TYPE = /^(text\/|application\/([a-z0-9.+-]*\+)?(json|xml|x-www-form-urlencoded))/i;

export function toApiGatewayEvent(
  request: PlainRequest,
  routeKey: string,
  pathParameters: Record<string, string> | undefined,
  now = new Date(),
): APIGatewayProxyEventV2 {
  const [rawPath = '/', rawQueryString = ''] = request.url.split(/\?(.*)/s);
  const query = new URLSearchParams(rawQueryString);
  const queryStringParameters: Record<string, string> = {};
  for (const name of new Set(query.keys())) queryStringParameters[name] = query.getAll(name).join(',');
  const hasBody = request.body.length > 0;
  // Bytes that are not UTF-8 travel as base64, so the function sees them as sent instead of with
  // U+FFFD in their place (and can refuse them).
  const isText = TEXT_MEDIA_TYPE.test(request.headers['content-type'] ?? '') && isUtf8(request.body);
  // Payload 2.0 moves the Cookie header's cookies into `cookies`, as API Gateway does.
  const { cookie, ...headers } = request.headers;
  const cookies = cookie ? cookie.split(/;\s*/).filter(Boolean) : undefined;
  return {
    version: '2.0',
    routeKey,
    rawPath,
    rawQueryString,
    ...(cookies ? { cookies } : {}),
    headers,
    ...(Object.keys(queryStringParameters).length ? { queryStringParameters } : {}),
    ...(pathParameters ? { pathParameters } : {}),
    ...(hasBody ? { body: isText ? request.body.toString('utf8') : request.body.toString('base64') } : {}),
    isBase64Encoded: hasBody && !isText,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: request.headers.host ?? '127.0.0.1',
      domainPrefix: 'local',
      http: {
        method: request.method,
        path: rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: request.sourceIp ?? '127.0.0.1',
        userAgent: request.headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
}

/** The parts of a Lambda context our handlers and Middy read. */
export function lambdaContext(functionName: string, timeoutMs = 29_000): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
