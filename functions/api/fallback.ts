// API Gateway's $default route: whatever lib/routes.ts does not serve. A known path with another
// method is a 405 with Allow; anything else (the removed routes included) is a 404.
import middy from '@middy/core';
import { Problem } from '../../lib/http/problem.ts';
import { problemResponse } from '../../lib/http/problem-response.ts';
import { requestIdOf } from '../../lib/http/request-id.ts';
import type { ApiEvent, ApiResult } from '../../lib/http/types.ts';
import { matchRoute } from '../../lib/routes.ts';

export const handler = middy<ApiEvent, ApiResult>().handler(async (event) => {
  const requestId = requestIdOf(event);
  const match = matchRoute(event.requestContext.http.method, event.rawPath);
  const problem =
    match.kind === 'wrongMethod'
      ? new Problem(405, `${event.requestContext.http.method} is not allowed here.`, {
          headers: { Allow: match.allow.join(', ') },
        })
      : new Problem(404, `No route ${event.requestContext.http.method} ${event.rawPath}.`);
  const response = problemResponse(problem, event.rawPath, requestId);
  return { ...response, headers: { ...response.headers, 'X-Request-Id': requestId } };
});
