// Middleware: a request body is JSON, of bounded size, or the request ends here with a 4xx.
import type { MiddlewareObj } from '@middy/core';
import { badRequest, Problem } from './problem.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

/** Largest accepted body; documented in the README. API Gateway's own limit (10 MB) is far above. */
export const MAX_BODY_BYTES = 64 * 1024;

const JSON_MEDIA_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

export function jsonBody(): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const parseBody: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>['before'] = (request) => {
    const { event } = request;
    request.context.jsonBody = undefined;
    if (event.body === undefined || event.body === null || event.body === '') return;
    const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
    if (raw.byteLength > MAX_BODY_BYTES) {
      throw new Problem(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    }
    const contentType = event.headers?.['content-type'] ?? '';
    if (!JSON_MEDIA_TYPE.test(contentType)) {
      throw new Problem(415, 'Request bodies must be JSON, sent with Content-Type: application/json.');
    }
    try {
      request.context.jsonBody = JSON.parse(raw.toString('utf8'));
    } catch {
      throw badRequest('The request body is not valid JSON.', [{ field: 'body', message: 'malformed JSON' }]);
    }
  };
  return { before: parseBody };
}
