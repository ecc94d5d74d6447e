// zod failures as field errors: which member, and what is wrong with it, in words a caller can act on.
import * as z from '../zod.ts';
import { badRequest, type FieldError, type Problem } from './problem.ts';

function messageOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type')
    return issue.input === undefined ? 'is required' : `must be of type ${issue.expected}`;
  return issue.message;
}

export function fieldErrorsOf(error: z.core.$ZodError, prefix = ''): FieldError[] {
  return error.issues.flatMap((issue) => {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: [path, key].filter(Boolean).join('.'),
        message: 'is not accepted',
      }));
    }
    return [{ field: path || prefix || 'body', message: messageOf(issue) }];
  });
}

/** Parses `input` or throws a 400 problem naming every offending field. */
export function parseOrThrow<T>(schema: z.core.$ZodType<T>, input: unknown, what: string, prefix = ''): T {
  // reportInput: issues carry the offending value, so a wrong type is told apart from a missing member.
  const result = z.safeParse(schema, input, { reportInput: true });
  if (result.success) return result.data;
  const problem: Problem = badRequest(`The ${what} is invalid.`, fieldErrorsOf(result.error, prefix));
  throw problem;
}
