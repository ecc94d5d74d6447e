// API keys, client ids and client secrets: random, high-entropy, stored only as hashes.
// A SHA-256 of 256 random bits cannot be brute-forced, so a slow password hash would only add latency.
import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../tenant.ts';

const randomToken = (): string => randomBytes(32).toString('base64url');

/** `pgw_sandbox_…`: the prefix tells a leaked key's environment at a glance (and lets scanners find it). */
export const newApiKey = (environment: Environment): string => `pgw_${environment}_${randomToken()}`;
export const newClientId = (): string => randomUUID();
export const newClientSecret = (): string => `pgwcs_${randomToken()}`;

export const hashCredential = (credential: string): string =>
  createHash('sha256').update(credential, 'utf8').digest('hex');

/** Compares a presented credential with a stored hash in constant time. */
export function credentialMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashCredential(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A short, non-secret handle for a key, shown in listings and logs instead of the key. */
export const keyIdOf = (apiKeyHash: string): string => apiKeyHash.slice(0, 12);
