// Where a webhook may point, and the one way a delivery reaches it. A URL never reaches inside the
// network: production needs https to a host whose every address is public, checked at registration
// and again at each delivery on the address the connection actually uses (the request's own DNS
// look-up is the checked one, so a name that resolves elsewhere the second time — DNS rebinding — is
// refused, not followed). Redirects are not followed. Loopback is allowed only on the local stack, for
// sandbox registrations (a receiver on the tester's machine); in AWS it would be the Lambda itself.
// Every other URL uses port 443 or 8443, so a registration cannot aim deliveries at arbitrary services
// (an SSH or database port) of a public host, and what a failed attempt records is a coarse category
// (attemptErrorOf), never the words or bytes of a non-HTTP answer: the delivery log is no port scanner.
import { type LookupAddress, lookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { config } from '../config.ts';
import type { Environment } from '../tenant.ts';
import type { AttemptError } from './attempt-errors.ts';

export interface UrlPolicy {
  /** Loopback hosts (and http to them, on any port) are allowed. */
  loopback: boolean;
  /** Any port, not only WEB_PORTS (tests of the look-up guard, which listen on a port of their own). */
  anyPort?: boolean;
}

/** The ports a URL not on loopback may use: https's own and its common alternative. */
export const WEB_PORTS = [443, 8443];

export const urlPolicyFor = (environment: Environment): UrlPolicy => ({
  loopback: environment === 'sandbox' && config().WEBHOOKS_ALLOW_LOOPBACK === 'true',
});

/**
 * Addresses no delivery may reach: private, shared, link-local (cloud metadata), the deprecated
 * site-local, multicast, reserved and documentation ranges, and the transition forms that carry an IPv4
 * address inside an IPv6 one or relay to one (6to4, NAT64, IPv4-compatible, IPv4-translated, Teredo, the
 * 6to4 relay anycast): whatever they reach is not the address checked.
 */
const internal = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  internal.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['3fff::', 20],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  internal.addSubnet(network, prefix, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`) is judged as the IPv4 address it is. */
function plain(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

const isLoopback = (address: string) => {
  const { address: a, family } = plain(address);
  return loopback.check(a, family);
};

/** Why an address may not be reached, or null when it may. */
export function addressRefusal(address: string, policy: UrlPolicy): string | null {
  const { address: a, family } = plain(address);
  if (loopback.check(a, family)) return policy.loopback ? null : 'is a loopback address';
  if (internal.check(a, family)) return 'is a private, link-local or reserved address';
  return null;
}

export class UrlRefused extends Error {
  override name = 'UrlRefused';
}

/** The URL parsed, if its form is allowed (scheme, credentials, host); throws UrlRefused otherwise. */
export function parseWebhookUrl(value: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UrlRefused('must be an absolute URL');
  }
  if (url.username || url.password) throw new UrlRefused('must not carry credentials');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const loopbackHost = host === 'localhost' || (isIP(host) !== 0 && isLoopback(host));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.loopback && loopbackHost))
    throw new UrlRefused(policy.loopback ? 'must be https (or http to loopback)' : 'must be https');
  if (isIP(host) !== 0) {
    const refusal = addressRefusal(host, policy);
    if (refusal) throw new UrlRefused(`points at ${host}, which ${refusal}`);
  } else if (host === 'localhost' && !policy.loopback) {
    throw new UrlRefused('points at localhost');
  }
  const port = Number(url.port || 443);
  if (!loopbackHost && !policy.anyPort && !WEB_PORTS.includes(port))
    throw new UrlRefused(`must use port ${WEB_PORTS.join(' or ')}, not ${port}`);
  return url;
}

/**
 * The longest a registration waits on the URL's DNS look-up: a slow resolver (one the URL's owner runs)
 * must not hold the request, nor the function, until the function's own timeout.
 */
export const URL_LOOKUP_TIMEOUT_MS = 2000;

/** Every address the URL's host resolves to must be allowed (registration: refused with a reason). */
export async function assertReachable(url: URL, policy: UrlPolicy): Promise<void> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0) return;
  let timer: NodeJS.Timeout | undefined;
  // getaddrinfo cannot be cancelled: the look-up left behind ends on its own, its answer unread.
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new UrlRefused(`${host} does not resolve within ${URL_LOOKUP_TIMEOUT_MS / 1000} s`)),
      URL_LOOKUP_TIMEOUT_MS,
    );
  });
  const resolved = new Promise<LookupAddress[]>((resolve, reject) =>
    lookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))),
  ).catch(() => {
    throw new UrlRefused(`${host} does not resolve`);
  });
  const addresses = await Promise.race([resolved, late]).finally(() => clearTimeout(timer));
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) throw new UrlRefused(`${host} resolves to ${address}, which ${refusal}`);
  }
}

/** dns.lookup that refuses every answer holding an address the policy does not allow. */
function guardedLookup(policy: UrlPolicy) {
  return (
    hostname: string,
    options: { all?: boolean; family?: number },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '');
      const refused = addresses.find(({ address }) => addressRefusal(address, policy) !== null);
      if (refused) return callback(new UrlRefused(`${hostname} resolves to ${refused.address}`), '');
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      return callback(null, first?.address ?? '', first?.family);
    });
  };
}

/** The category of a request's error, from its code alone (its message may quote what the peer sent). */
export function attemptErrorOf(error: Error & { code?: string }): AttemptError {
  const code = error.code ?? '';
  if (error instanceof UrlRefused) return 'blocked';
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || code === 'ETIMEDOUT') return 'timeout';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NODATA')
    return 'dns';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'reset';
  if (code.startsWith('HPE_')) return 'invalid_response';
  if (/SSL|TLS|CERT|EPROTO|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code)) return 'tls';
  return 'connection';
}

export interface PostResult {
  statusCode: number | null;
  /** Why no HTTP answer came (statusCode null); null when one did. */
  error: AttemptError | null;
  /** The error's own words, for the operator's log only: never stored where the tenant reads. */
  detail: string | null;
  latencyMs: number;
  responseExcerpt: string | null;
}

const EXCERPT_CHARS = 256;

/** POSTs `body` with `headers`, within `timeoutMs`, through the policy's checks; never throws. */
export function post(
  target: string,
  headers: Record<string, string>,
  body: string,
  policy: UrlPolicy,
  timeoutMs: number,
): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let url: URL;
    try {
      url = parseWebhookUrl(target, policy);
    } catch (error) {
      const { message } = error as Error;
      resolve({ statusCode: null, error: 'blocked', detail: message, latencyMs: 0, responseExcerpt: null });
      return;
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: guardedLookup(policy) as never,
        signal: AbortSignal.timeout(timeoutMs),
      },
      (res) => {
        let excerpt = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (excerpt.length < EXCERPT_CHARS) excerpt += chunk.slice(0, EXCERPT_CHARS - excerpt.length);
        });
        const done = () =>
          resolve({
            statusCode: res.statusCode ?? null,
            error: null,
            detail: null,
            latencyMs: elapsed(),
            responseExcerpt: excerpt || null,
          });
        res.on('end', done);
        res.on('error', done);
      },
    );
    req.on('error', (error) => {
      const category = attemptErrorOf(error);
      const detail = category === 'timeout' ? `no answer within ${timeoutMs / 1000} s` : error.message;
      resolve({ statusCode: null, error: category, detail, latencyMs: elapsed(), responseExcerpt: null });
    });
    req.end(body);
  });
}
