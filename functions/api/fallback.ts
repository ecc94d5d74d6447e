// API Gateway's $default route: whatever lib/routes.ts does not serve. A known path with another
// method is a 405 with Allow; anything else (the removed routes included) is a 404, which names the route
// under /v1 when the path lacks only the prefix. No authentication:
// a 404 tells nothing, and the answer must not differ between removed and never-existing routes.
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import { logRequestId } from '../../lib/http/log-keys.ts';
import { badRequest, Problem } from '../../lib/http/problem.ts';
import { problemMapper } from '../../lib/http/problem-response.ts';
import { requestId } from '../../lib/http/request-id.ts';
import type { ApiContext, ApiEvent, ApiResult } from '../../lib/http/types.ts';
import { logger } from '../../lib/log.ts';
import { API_PREFIX, matchRoute } from '../../lib/routes.ts';

export const handler = middy<ApiEvent, ApiResult, Error, ApiContext>()
  .use(injectLambdaContext(logger, { resetKeys: true }))
  .use(requestId())
  .use(logRequestId())
  .use(problemMapper())
  .handler(async (event) => {
    const { method } = event.requestContext.http;
    const match = matchRoute(method, event.rawPath);
    if (match.kind === 'malformedPath') {
      throw badRequest('The request path is not valid percent-encoded UTF-8.', [
        { field: 'path', message: 'has a malformed percent-escape' },
      ]);
    }
    if (match.kind === 'wrongMethod') {
      throw new Problem(405, `${method} is not allowed here.`, {
        headers: { Allow: match.allow.join(', ') },
      });
    }
    // A path that is a route under /v1 (`/wallets` for `/v1/wallets`): say so; the routes are public.
    const prefixed = `${API_PREFIX}${event.rawPath}`;
    const underPrefix =
      !event.rawPath.startsWith(`${API_PREFIX}/`) && matchRoute(method, prefixed).kind === 'route';
    throw new Problem(
      404,
      underPrefix
        ? `No route ${method} ${event.rawPath}: the API's routes start with ${API_PREFIX}, ${method} ${prefixed} is one.`
        : `No route ${method} ${event.rawPath}.`,
    );
  });
