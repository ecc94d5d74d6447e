// Middleware: what every log line of a request says about it: the request id from the start, and the
// caller (application, environment, association; never a credential) once authenticated. They are
// temporary keys of the one logger: injectLambdaContext({ resetKeys: true }), first in each chain,
// drops them when the invocation ends, so no line of the next request carries this one's caller.
import type { MiddlewareObj } from '@middy/core';
import { logger } from '../log.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

type Middleware = MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>;

/** After request-id: every later line names the request (as X-Request-Id does on the response). */
export const logRequestId = (): Middleware => ({
  before: ({ context }) => {
    logger.appendKeys({ requestId: context.requestId });
  },
});

/** After authenticate: every later line names the caller. An undefined association adds no key. */
export const logCaller = (): Middleware => ({
  before: ({ context: { caller } }) => {
    const { applicationId, environment, associationId } = caller;
    logger.appendKeys({ applicationId, environment, associationId });
  },
});
