// The query string, read from the raw text the caller sent: every member decoded strictly, none repeated,
// none that the operation does not declare. API Gateway joins a repeated member with commas and
// decodes leniently, so `queryStringParameters` alone cannot tell `?a=1&a=2` from `?a=1,2`.
import { badRequest, type FieldError } from './problem.ts';

function decode(component: string): string | undefined {
  try {
    const text = decodeURIComponent(component.replaceAll('+', ' '));
    return text.isWellFormed() ? text : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The query members as a plain record, or a 400 naming every member that is malformed, repeated, or
 * (when `accepted` is given) not one the operation takes.
 */
export function queryOf(rawQueryString: string | undefined, accepted: boolean): Record<string, string> {
  // A Map, so that a member named __proto__ is a member like any other.
  const members = new Map<string, string>();
  const errors: FieldError[] = [];
  const repeated = new Set<string>();
  for (const pair of (rawQueryString ?? '').split('&')) {
    if (pair === '') continue;
    const separator = pair.indexOf('=');
    const rawName = separator === -1 ? pair : pair.slice(0, separator);
    const name = decode(rawName);
    const value = decode(separator === -1 ? '' : pair.slice(separator + 1));
    if (name === undefined || value === undefined) {
      errors.push({ field: name ?? 'query', message: 'is not valid percent-encoded UTF-8' });
    } else if (members.has(name)) {
      if (!repeated.has(name)) errors.push({ field: name, message: 'must not be repeated' });
      repeated.add(name);
    } else {
      members.set(name, value);
    }
  }
  if (!accepted) {
    for (const name of members.keys()) errors.push({ field: name, message: 'is not accepted' });
  }
  if (errors.length > 0) throw badRequest('The query is invalid.', errors);
  return Object.fromEntries(members);
}
