// What a delivery's log says of an attempt that got no HTTP answer: a category, never the error's words
// or the bytes that came back (lib/webhooks/destinations.ts attemptErrorOf), so the log tells a tenant
// why its receiver was not reached without describing what else answers at that address.

/**
 * Why an attempt got no HTTP answer, coarsely: `blocked` (the URL or an address it resolved to is not
 * allowed), `dns` (the name did not resolve), `refused`, `unreachable`, `reset` (the connection closed
 * before an answer), `tls` (no TLS session: handshake or certificate), `invalid_response` (what came back
 * is not HTTP), `timeout` (no answer in time), `connection` (anything else on the way).
 */
export const ATTEMPT_ERRORS = [
  'blocked',
  'dns',
  'refused',
  'unreachable',
  'reset',
  'tls',
  'invalid_response',
  'timeout',
  'connection',
] as const;
export type AttemptError = (typeof ATTEMPT_ERRORS)[number];
