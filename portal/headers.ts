// The headers every portal file is served with, locally (local/portal.ts) and by CloudFront's
// response headers policy (infra/constructs/portal.ts): a strict Content-Security-Policy (scripts,
// styles and calls from this origin only; no inline script, no framing, no plugins, no base tag),
// no MIME sniffing, no referrer, no framing.
export const PORTAL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');

export const PORTAL_SECURITY_HEADERS = {
  'Content-Security-Policy': PORTAL_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
} as const;
