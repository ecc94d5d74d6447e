// RFC 7807 problems: every error the API answers is one of these, built from one table of kinds.
import { config } from '../config.ts';

export interface FieldError {
  field: string;
  message: string;
}

/** Each status's slug (the last segment of `type`) and title; the OpenAPI introduction's error table is built from them. */
export const problemKinds = {
  400: { slug: 'bad-request', title: 'Bad Request' },
  401: { slug: 'unauthorized', title: 'Unauthorized' },
  403: { slug: 'forbidden', title: 'Forbidden' },
  404: { slug: 'not-found', title: 'Not Found' },
  405: { slug: 'method-not-allowed', title: 'Method Not Allowed' },
  409: { slug: 'conflict', title: 'Conflict' },
  413: { slug: 'payload-too-large', title: 'Payload Too Large' },
  415: { slug: 'unsupported-media-type', title: 'Unsupported Media Type' },
  422: { slug: 'validation-error', title: 'Validation Error' },
  429: { slug: 'rate-limited', title: 'Too Many Requests' },
  500: { slug: 'internal-error', title: 'Internal Server Error' },
  502: { slug: 'bad-gateway', title: 'Bad Gateway' },
  503: { slug: 'service-unavailable', title: 'Service Unavailable' },
  504: { slug: 'gateway-timeout', title: 'Gateway Timeout' },
} as const;

export type ProblemStatus = keyof typeof problemKinds;

/**
 * The most field errors a problem body lists: a body of thousands of faults is answered in a few KiB
 * (a 60 KiB multi-transfer answered 1 MiB), and `moreErrors` says how many more there were.
 */
export const MAX_FIELD_ERRORS = 20;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  requestId?: string;
  errors?: FieldError[];
  moreErrors?: number;
}

/** A failure meant for the caller: thrown anywhere, turned into a problem+json response by one mapper. */
export class Problem extends Error {
  readonly status: ProblemStatus;
  readonly detail: string;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    status: ProblemStatus,
    detail: string,
    options: { errors?: FieldError[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'Problem';
    this.status = status;
    this.detail = detail;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }

  body(instance: string, requestId: string): ProblemBody {
    const { slug, title } = problemKinds[this.status];
    return {
      type: `${config().ERRORS_BASE}/${slug}`,
      title,
      status: this.status,
      detail: this.detail,
      instance,
      requestId,
      ...(this.errors?.length ? { errors: this.errors.slice(0, MAX_FIELD_ERRORS) } : {}),
      ...((this.errors?.length ?? 0) > MAX_FIELD_ERRORS
        ? { moreErrors: (this.errors?.length ?? 0) - MAX_FIELD_ERRORS }
        : {}),
    };
  }
}

export const badRequest = (detail: string, errors?: FieldError[]) =>
  new Problem(400, detail, errors ? { errors } : {});
export const unauthorized = (detail = 'Missing or invalid authentication.') => new Problem(401, detail);
export const forbidden = (detail: string, errors?: FieldError[]) =>
  new Problem(403, detail, errors ? { errors } : {});
export const notFound = (detail = 'The requested resource does not exist.', errors?: FieldError[]) =>
  new Problem(404, detail, errors ? { errors } : {});
export const unprocessable = (detail: string, errors: FieldError[]) => new Problem(422, detail, { errors });
export const tooManyRequests = (
  retryAfterSeconds: number,
  detail = `Too many requests; retry after ${retryAfterSeconds} seconds.`,
  headers: Record<string, string> = {},
) => new Problem(429, detail, { headers: { 'Retry-After': String(retryAfterSeconds), ...headers } });
export const gatewayTimeout = (detail: string) => new Problem(504, detail);
export const serviceUnavailable = (detail: string) => new Problem(503, detail);
export const badGateway = (detail: string) => new Problem(502, detail);
