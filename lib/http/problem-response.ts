// Middleware: the one error mapper. Problems pass through; anything else is logged and becomes a bare 500.
import type { MiddlewareObj } from '@middy/core';
import { logger } from '../log.ts';
import { gatewayTimeout, Problem } from './problem.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

export function problemResponse(
  problem: Problem,
  instance: string,
  requestId: string,
  headers: Record<string, string> = {},
): ApiResult {
  return {
    statusCode: problem.status,
    headers: { 'Content-Type': 'application/problem+json', ...headers, ...problem.headers },
    body: JSON.stringify(problem.body(instance, requestId)),
  };
}

/** An error of a lower layer that knows which problem it is for the caller (e.g. LedgerInputError). */
interface ProblemSource {
  toProblem(): Problem;
}

const isProblemSource = (error: unknown): error is ProblemSource =>
  typeof (error as Partial<ProblemSource> | null)?.toProblem === 'function';

/** Middy's early timeout: the function's time ran out before the operation ended (a dependency too slow). */
const isTimeout = (error: unknown) => error instanceof Error && error.name === 'TimeoutError';

export function problemMapper(): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const mapError: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>['onError'] = (request) => {
    const { error, event, context } = request;
    let problem: Problem;
    if (error instanceof Problem) {
      problem = error;
    } else if (isProblemSource(error)) {
      problem = error.toProblem();
    } else if (isTimeout(error)) {
      logger.error('Request timed out', { error: error as Error });
      problem = gatewayTimeout(
        'The request did not finish in time. Retry it: a payment retried with its transactionId is never made twice.',
      );
    } else {
      // The request id and caller are on the line already (log-keys.ts).
      logger.error('Unhandled error', { error: error as Error });
      problem = new Problem(500, 'An unexpected error occurred. Quote the requestId if you contact support.');
    }
    // The request's RateLimit headers, once it was counted (authenticate.ts).
    request.response = problemResponse(problem, event.rawPath, context.requestId, context.responseHeaders);
  };
  return { onError: mapError };
}
