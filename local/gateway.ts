// The local API Gateway: serves every route of lib/routes.ts under /v1 by invoking the function's
// exported handler with a payload-2.0 event, exactly as the HTTP API integration would, plus /healthz
// and the API reference (/openapi.json, /docs).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { Problem } from '../lib/http/problem.ts';
import { problemResponse } from '../lib/http/problem-response.ts';
import { FALLBACK_FUNCTION, matchRoute, routeKeyOf } from '../lib/routes.ts';
import { serveApiReference } from './api-reference.ts';
import type { AnyHandler } from './function-host.ts';
import { invokeIsolated } from './invocation.ts';
import { lambdaContext, type PlainRequest, toApiGatewayEvent } from './lambda-event.ts';
import { type LocalPortal, servePortal } from './portal.ts';
import type { TrafficLog } from './traffic-log.ts';

type Handler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** API Gateway refuses payloads above 10 MB before any function runs; so do we. */
const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

const handlers = new Map<string, Promise<Handler>>();

/** The stand-in for an API function, by bundle name (`api/auth`); undefined: its source, in process. */
type ApiFunctionHost = (bundleName: string) => AnyHandler | undefined;

/** Loads a function module once, like a warm Lambda container (unless the function is hosted elsewhere). */
function handlerOf(fn: string, functionHost?: ApiFunctionHost): Promise<Handler> {
  const hosted = functionHost?.(`api/${fn}`) as Handler | undefined;
  if (hosted) return Promise.resolve(hosted);
  let loaded = handlers.get(fn);
  if (!loaded) {
    loaded = import(`../functions/api/${fn}.ts`).then((m: { handler: Handler }) => m.handler);
    handlers.set(fn, loaded);
  }
  return loaded;
}

/** The body, or null when it is over the limit (the rest is read and dropped, never buffered). */
function readBody(req: IncomingMessage): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= GATEWAY_MAX_BODY_BYTES) chunks.push(chunk);
      else chunks.length = 0;
    });
    req.on('end', () => resolve(size > GATEWAY_MAX_BODY_BYTES ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headersDistinct)) {
    if (value) headers[name.toLowerCase()] = value.join(',');
  }
  return headers;
}

/** Invokes the function for one request; unmatched requests go to the fallback function ($default). */
export async function invoke(
  request: PlainRequest,
  functionHost?: ApiFunctionHost,
): Promise<APIGatewayProxyStructuredResultV2> {
  const path = request.url.split('?')[0] ?? '/';
  const match = matchRoute(request.method, path);
  const [fn, routeKey, pathParameters] =
    match.kind === 'route'
      ? [match.route.fn, routeKeyOf(match.route), match.pathParameters]
      : [FALLBACK_FUNCTION, '$default', undefined];
  const event = toApiGatewayEvent(request, routeKey, pathParameters);
  try {
    return await invokeIsolated(await handlerOf(fn, functionHost), event, lambdaContext(fn));
  } catch (error) {
    // What API Gateway answers when the integration fails.
    console.error(`[gateway] ${fn} failed`, error);
    return {
      statusCode: 500,
      headers: { 'Content-Type': 'application/json', 'X-Request-Id': event.requestContext.requestId },
      body: '{"message":"Internal Server Error"}',
    };
  }
}

/** Answers one request; any failure of its own is a 500 problem, never the end of the process. */
async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  functionHost?: ApiFunctionHost,
  portal?: LocalPortal,
): Promise<void> {
  if (req.url === '/healthz' && (req.method === 'GET' || req.method === 'HEAD')) {
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (await serveApiReference(req, res)) return;
  if (servePortal(req, res, portal)) return;
  const body = await readBody(req);
  if (body === null) {
    // API Gateway's own limit, answered the way every other error is.
    const tooLarge = new Problem(413, `Request bodies above ${GATEWAY_MAX_BODY_BYTES} bytes are refused.`);
    answerWithProblem(req, res, tooLarge, { Connection: 'close' });
    return;
  }
  const result = await invoke(
    {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: headersOf(req),
      body,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    },
    functionHost,
  );
  const responseBody = result.body
    ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8')
    : undefined;
  writeHead(res, result.statusCode ?? 200, {
    ...(result.headers as Record<string, string>),
    ...(result.cookies?.length ? { 'Set-Cookie': result.cookies } : {}),
  });
  res.end(responseBody);
}

function answerWithProblem(
  req: IncomingMessage,
  res: ServerResponse,
  problem: Problem,
  headers: Record<string, string> = {},
): void {
  const id = randomUUID();
  const response = problemResponse(problem, (req.url ?? '/').split('?')[0] ?? '/', id);
  writeHead(res, problem.status, { ...response.headers, ...headers, 'X-Request-Id': id });
  res.end(response.body);
}

/** Headers set one by one rather than given to writeHead, so the traffic log can read the request id. */
function writeHead(res: ServerResponse, status: number, headers: Record<string, string | string[]>): void {
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.writeHead(status);
}

export function startGateway(
  port: number,
  host = '127.0.0.1',
  functionHost?: ApiFunctionHost,
  traffic?: TrafficLog,
  portal?: LocalPortal,
): Promise<Server> {
  const server = createServer((req, res) => {
    if (traffic) {
      const started = performance.now();
      res.once('finish', () =>
        traffic.request({
          method: req.method ?? 'GET',
          path: (req.url ?? '/').split('?')[0] ?? '/',
          status: res.statusCode,
          ms: performance.now() - started,
          requestId: res.getHeader('x-request-id')?.toString(),
        }),
      );
    }
    serve(req, res, functionHost, portal).catch((error: unknown) => {
      console.error('[gateway] request failed', error);
      if (res.headersSent) res.destroy();
      else answerWithProblem(req, res, new Problem(500, 'The local gateway failed to serve this request.'));
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
