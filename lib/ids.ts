// Ids derived from names (RFC 9562), for records that must come out the same however often they are
// made: a payment's record from its transactionId, an event from the change it reports, a delivery
// from its event and registration. Writing such a record twice (a replay, a stream redelivered) finds
// the first one by key instead of making a second.
import { createHash } from 'node:crypto';

const format = (bytes: Buffer) => {
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

const digest = (namespace: string, name: string) =>
  createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name, 'utf8')
    .digest();

/** A version 5 UUID: the SHA-1 of `name` in `namespace`. */
export function nameBasedId(namespace: string, name: string): string {
  const hash = digest(namespace, name);
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  return format(hash);
}

/**
 * A version 8 UUID laid out as version 7 (48 bits of Unix milliseconds first, so ids sort by time), the
 * rest from the SHA-1 of `name`: deterministic like v5, ordered like v7.
 */
export function timeOrderedNameBasedId(namespace: string, name: string, epochMs: number): string {
  const hash = digest(namespace, name);
  hash.writeUIntBE(Math.max(0, Math.min(epochMs, 2 ** 48 - 1)), 0, 6);
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x80;
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80;
  return format(hash);
}
