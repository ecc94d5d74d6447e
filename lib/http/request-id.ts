// Middleware: every response, success or problem, carries X-Request-Id.
import { randomUUID } from 'node:crypto';
import type { MiddlewareObj } from '@middy/core';
import type { ApiContext, ApiEvent, ApiResult } from './types.ts';

/** A caller's id is echoed only when it cannot smuggle anything into logs or headers. */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export function requestIdOf(event: ApiEvent): string {
  const incoming = event.headers?.['x-request-id'];
  return incoming && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function requestId(): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const assignId: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>['before'] = (request) => {
    request.context.requestId = requestIdOf(request.event);
  };
  const stampResponse: MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext>['after'] = (request) => {
    if (!request.response) return;
    request.response.headers = { ...request.response.headers, 'X-Request-Id': request.context.requestId };
  };
  return { before: assignId, after: stampResponse, onError: stampResponse };
}
