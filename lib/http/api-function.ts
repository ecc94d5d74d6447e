// The one wrapper every API function goes through: Lambda context on the logs → request id → problem
// mapping → origin check (came through the edge) → route → auth → JSON body → zod → handler. Handlers
// only parse, call a service and return a Reply.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { config } from '../config.ts';
import { logger } from '../log.ts';
import { type FunctionName, type OperationOf, type Route, routeKeyOf, routes } from '../routes.ts';
import type { Tenant } from '../tenant.ts';
import { traced } from '../trace.ts';
import type * as z from '../zod.ts';
import { type Authenticator, authenticate, type RequestLimiter } from './authenticate.ts';
import { idempotencyKeyOf } from './idempotency-key.ts';
import { jsonBody } from './json-body.ts';
import { logCaller, logRequestId } from './log-keys.ts';
import { type OriginTokens, originVerify } from './origin-verify.ts';
import { plainJson } from './plain-json.ts';
import { badRequest, notFound } from './problem.ts';
import { problemMapper } from './problem-response.ts';
import { queryOf } from './query.ts';
import { requestId } from './request-id.ts';
import { type RequestSink, requestRecords } from './request-records.ts';
import type { ApiContext, ApiEvent, ApiResult, Caller } from './types.ts';
import { parseOrThrow } from './validation.ts';

export interface Reply {
  status: number;
  body?: unknown;
  /** A body that is not JSON (a CSV export), sent as it is; its Content-Type goes in `headers`. */
  text?: string;
  headers?: Record<string, string>;
  /** Set-Cookie values (the portal's session cookie), as API Gateway's payload 2.0 takes them. */
  cookies?: string[];
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
/** Taken but not finished: the body says where it stands and how to finish it. */
export const accepted = (body: unknown): Reply => ({ status: 202, body });

export interface ApiRequest<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  caller: Caller;
  /** The caller's tenant. Only token-authenticated routes have one; the token route has none. */
  tenant: Tenant;
  requestId: string;
  /** The Idempotency-Key header, checked; always undefined for operations that do not declare it. */
  idempotencyKey: string | undefined;
  /** The address the request came from, as API Gateway saw it (the token route counts failures by it). */
  sourceIp: string;
  /**
   * The body's text as it arrived: what a provider's signature covers. On a signed route
   * (providerSignature) the chain verifies the signature over it (authenticate.ts) and parses nothing:
   * `body` is undefined, and the operation parses `rawBody` against the provider contract itself.
   */
  rawBody: string;
  /** Request headers, lower-cased by the gateway. */
  headers: Record<string, string | undefined>;
  /** The request's cookies (`name=value`), which payload 2.0 takes out of the headers. */
  cookies: string[];
  now: Date;
}

export interface Operation<B = unknown, Q = unknown, P = unknown> {
  body?: z.ZodMiniType<B>;
  query?: z.ZodMiniType<Q>;
  params?: z.ZodMiniType<P>;
  /** The operation honours an Idempotency-Key header (idempotency-key.ts): a retry gets the first result. */
  idempotencyKey?: true;
  handle(request: ApiRequest<B, Q, P>): Promise<Reply>;
}

/** Declares an operation; its schemas type the request the handler receives. */
export const operation = <B = undefined, Q = undefined, P = undefined>(op: Operation<B, Q, P>) => op;

function toResult(reply: Reply): ApiResult {
  const cookies = reply.cookies ? { cookies: reply.cookies } : {};
  if (reply.text !== undefined)
    return { statusCode: reply.status, headers: { ...reply.headers }, body: reply.text, ...cookies };
  const hasBody = reply.body !== undefined;
  return {
    ...cookies,
    statusCode: reply.status,
    headers: { ...(hasBody ? { 'Content-Type': 'application/json' } : {}), ...reply.headers },
    ...(hasBody ? { body: plainJson(reply.body) } : {}),
  };
}

/** Middleware: which route of lib/routes.ts this invocation serves (API Gateway's routeKey names it). */
function resolveRoute(fn: string): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const byRouteKey = new Map<string, Route>(routes.filter((r) => r.fn === fn).map((r) => [routeKeyOf(r), r]));
  return {
    before: (request) => {
      const route = byRouteKey.get(request.event.routeKey);
      if (!route) throw notFound('No such route.');
      request.context.route = route;
    },
  };
}

/** What the chain needs from the service it runs in (lib/api.ts hands it over). */
export interface ChainServices {
  authenticator: Authenticator;
  /** Counts each request against its application's limit once its key is proven (authenticate.ts). */
  limiter?: RequestLimiter;
  /** The X-Origin-Verify tokens a request may carry (origin-verify.ts); none required when absent. */
  originTokens?: OriginTokens;
  /** Where a tenant's state-changing and failed requests are recorded (request-records.ts). */
  requests?: RequestSink;
}

/** The chain for one API function: `apiFunctionWith(services)(fn, operations)` is its handler. */
export const apiFunctionWith =
  (services: ChainServices) =>
  <F extends FunctionName>(
    fn: F,
    // biome-ignore lint/suspicious/noExplicitAny: each operation has its own request types; `any` lets them share one record.
    operations: Record<OperationOf<F>, Operation<any, any, any>>,
  ) => {
    // Cold start: a function with missing or invalid configuration fails to load, not mid-request.
    config();
    const ops = operations as Record<string, Operation<unknown, unknown, unknown>>;
    const dispatch = async (event: ApiEvent, context: ApiContext): Promise<ApiResult> => {
      const op = ops[context.route.operation];
      if (!op) throw notFound('No such route.');
      // Every route refuses query members it does not declare, so no operation can forget to.
      const query = queryOf(event.rawQueryString, op.query !== undefined);
      const body: unknown = event.body;
      if (!op.body && body !== undefined) {
        throw badRequest('This route takes no request body.', [
          { field: 'body', message: 'is not accepted' },
        ]);
      }
      // A signed route's body is the operation's to read once its signature verified (json-body.ts).
      const signed = context.route.auth === 'providerSignature';
      const request: ApiRequest<unknown, unknown, unknown> = {
        body: op.body && !signed ? parseOrThrow(op.body, body, 'request body') : undefined,
        query: op.query ? parseOrThrow(op.query, query, 'query') : undefined,
        params: op.params ? parseOrThrow(op.params, event.pathParameters ?? {}, 'path') : undefined,
        caller: context.caller,
        tenant: {
          environment: context.caller.environment,
          associationId: context.caller.associationId ?? '',
        },
        requestId: context.requestId,
        // Read only where it is honoured: elsewhere it would promise a safety that is not there.
        idempotencyKey: op.idempotencyKey ? idempotencyKeyOf(event) : undefined,
        sourceIp: event.requestContext.http.sourceIp,
        rawBody: context.rawBody ?? '',
        headers: event.headers ?? {},
        cookies: event.cookies ?? [],
        now: new Date(),
      };
      const result = toResult(await op.handle(request));
      return { ...result, headers: { ...context.responseHeaders, ...result.headers } };
    };
    // The operation is the trace's unit of work: a subsegment named after it, annotated with the request
    // (and, once a payment is accepted, with its record: lib/payments/service.ts).
    const tracedDispatch = (event: ApiEvent, context: ApiContext) =>
      traced(context.route.operation, () => dispatch(event, context), { requestId: context.requestId });
    // The logger's context comes first, so its after/onError run last: the problem mapper's error log
    // still carries every key, and then they are dropped.
    return (
      middy<ApiEvent, ApiResult, Error, Context>()
        .use(injectLambdaContext(logger, { resetKeys: true }))
        .use(requestId() as MiddlewareObj<ApiEvent, ApiResult, Error, Context>)
        .use(logRequestId() as MiddlewareObj<ApiEvent, ApiResult, Error, Context>)
        // Before the problem mapper, so its onError runs after it and records the status a refusal got.
        .use(requestRecords(services.requests) as MiddlewareObj<ApiEvent, ApiResult, Error, Context>)
        .use(problemMapper() as MiddlewareObj<ApiEvent, ApiResult, Error, Context>)
        .use(originVerify(services.originTokens) as MiddlewareObj<ApiEvent, ApiResult, Error, Context>)
        .use(resolveRoute(fn) as MiddlewareObj<ApiEvent, ApiResult, Error, Context>)
        .use(
          authenticate(services.authenticator, services.limiter) as MiddlewareObj<
            ApiEvent,
            ApiResult,
            Error,
            Context
          >,
        )
        .use(logCaller() as MiddlewareObj<ApiEvent, ApiResult, Error, Context>)
        .use(jsonBody() as MiddlewareObj<ApiEvent, ApiResult, Error, Context>)
        .handler((event, context) => tracedDispatch(event, context as ApiContext))
    );
  };
