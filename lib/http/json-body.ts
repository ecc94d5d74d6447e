// Middleware: a request body is JSON of bounded size and depth, strictly UTF-8, with well-formed strings
// and exactly representable numbers, or the request ends here with a 4xx. Parsing itself is Middy's
// http-json-body-parser; around it go the checks a parser cannot make (bytes before, text and values
// after). The parsed body replaces `event.body`, as Middy does.
import type { MiddlewareObj } from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { jsonContentTypePattern } from '@middy/util';
import { MAX_JSON_DEPTH, malformedStrings, scanJsonText } from './json-text.ts';
import { badRequest, Problem } from './problem.ts';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

/** Largest accepted body; documented in the OpenAPI introduction (openapi/description.ts). API Gateway's own limit (10 MB) is far above. */
export const MAX_BODY_BYTES = 64 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const parser = httpJsonBodyParser();

/** Middy's parser errors (http-errors with a statusCode) in our own words. */
function problemOf(error: unknown): Problem {
  const { statusCode, message, cause } = error as {
    statusCode?: number;
    message?: string;
    cause?: { data?: unknown };
  };
  if (statusCode === 415) {
    return new Problem(415, 'Request bodies must be JSON, sent with Content-Type: application/json.');
  }
  if (statusCode && message === 'Forbidden key in JSON body') {
    return badRequest('The request body has a member that is not accepted.', [
      { field: String(cause?.data), message: 'is not accepted' },
    ]);
  }
  if (statusCode) {
    return badRequest('The request body is not valid JSON.', [{ field: 'body', message: 'malformed JSON' }]);
  }
  throw error;
}

/** The body's bytes as the gateway handed them over (text it could decode as UTF-8, base64 otherwise). */
export const rawBodyOf = (event: ApiEvent): Buffer =>
  event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : Buffer.from(event.body ?? '', 'utf8');

export function jsonBody(): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const parseBody: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>['before'] = async (request) => {
    const { event } = request;
    if (event.body === undefined || event.body === null || event.body === '') {
      event.body = undefined;
      return;
    }
    // The gateway hands over text it could decode as UTF-8 and base64 otherwise; either way the
    // bytes are checked here, so a malformed sequence is refused, never replaced with U+FFFD.
    const raw = rawBodyOf(event);
    if (raw.byteLength > MAX_BODY_BYTES) {
      throw new Problem(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    }
    // A signed route's body was verified as raw bytes (authenticate.ts): its operation parses and checks
    // it against the provider contract itself (lib/operations/providers.ts).
    if (request.context.route.auth === 'providerSignature') return;
    // The parser checks this too; checked first here so that a binary body of another type is a 415,
    // not a UTF-8 error.
    if (!jsonContentTypePattern.test(event.headers?.['content-type'] ?? ''))
      throw problemOf({ statusCode: 415 });
    let text: string;
    try {
      text = strictUtf8.decode(raw);
    } catch {
      throw badRequest('The request body is not valid UTF-8.', [
        { field: 'body', message: 'is not valid UTF-8' },
      ]);
    }
    event.body = text;
    event.isBase64Encoded = false;
    request.context.rawBody = text;
    const { tooDeepAt, inexactNumbers } = scanJsonText(text);
    if (tooDeepAt !== null) {
      throw badRequest(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, [
        {
          field: 'body',
          message: `nests deeper than ${MAX_JSON_DEPTH} levels (at ${tooDeepAt || 'the top'})`,
        },
      ]);
    }
    try {
      await parser.before?.(request as never);
    } catch (error) {
      throw problemOf(error);
    }
    if (inexactNumbers.length > 0) {
      throw badRequest(
        'The request body has numbers that cannot be represented exactly.',
        [...new Set(inexactNumbers)].map((field) => ({
          field,
          message: 'is not exactly representable (at most 15 significant digits)',
        })),
      );
    }
    const malformed = malformedStrings(event.body);
    if (malformed.length > 0) {
      throw badRequest(
        'The request body has text that is not well-formed Unicode.',
        [...new Set(malformed)].map((field) => ({
          field,
          message: 'is not well-formed Unicode (lone surrogate)',
        })),
      );
    }
  };
  return { before: parseBody };
}
