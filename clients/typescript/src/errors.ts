// Every refusal the API answers is an RFC 7807 problem (application/problem+json); the client throws it
// as an ApiProblem, so callers branch on `status` and `errors` instead of parsing bodies.
import type { components } from './generated/api.js';

/** A problem body, whatever its status (each status's own schema fixes `status`, `type` and `title`). */
export type ProblemBody =
  components['responses'][keyof components['responses']]['content']['application/problem+json'];

export class ApiProblem extends Error {
  readonly status: number;
  readonly type: string;
  readonly title: string;
  readonly detail: string | undefined;
  readonly requestId: string | undefined;
  /** The members at fault (`transfers.0.amount`), on 400 and 422. */
  readonly errors: { field: string; message: string }[];

  constructor(status: number, body: Partial<ProblemBody> | undefined, text: string) {
    super(`${status} ${body?.title ?? 'error'}: ${body?.detail ?? text}`);
    this.name = 'ApiProblem';
    this.status = status;
    this.type = body?.type ?? 'about:blank';
    this.title = body?.title ?? '';
    this.detail = body?.detail;
    this.requestId = body?.requestId;
    this.errors = (body as { errors?: { field: string; message: string }[] } | undefined)?.errors ?? [];
  }

  /** The error on `field`, if the problem names it. */
  fieldError(field: string): string | undefined {
    return this.errors.find((e) => e.field === field)?.message;
  }
}
