// What an intent is for, as a fingerprint kept on its submission record (submit.ts `purpose`): an intent
// id used again for something else (an Idempotency-Key sent again with another amount) is then told
// apart from a retry of the same request.
import { createHash } from 'node:crypto';

/** JSON with the members of every object sorted: the same value always gives the same text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const members = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The sha256 (hex) of the canonical JSON of what an intent is for. Amounts belong in it as decimal
 * strings (`BigNumber#toFixed()`), so that one amount has one spelling.
 */
export const purposeOf = (what: Record<string, unknown>): string =>
  createHash('sha256').update(canonicalJson(what)).digest('hex');
