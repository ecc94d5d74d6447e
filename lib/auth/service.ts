// Authentication: who the application is (x-service-auth), which client and association a bearer
// token speaks for (resolved now, from the client record, never from a header), and token issuance.
import { config } from '../config.ts';
import { heldReads } from '../db/held-reads.ts';
import { forbidden, Problem, unauthorized } from '../http/problem.ts';
import type { Caller } from '../http/types.ts';
import * as metrics from '../metrics.ts';
import type { Tenant } from '../tenant.ts';
import { credentialMatches, hashCredential } from './credentials.ts';
import { countFailure, countTokenIssued, refuseWhileFailing } from './rate-limit.ts';
import { findApiKey, findClient } from './repo.ts';
import { refusedToken, signAccessToken, verifyAccessToken } from './tokens.ts';

/**
 * What every request reads, kept per execution environment for REFERENCE_MAX_AGE_SECONDS (lib/db/
 * held-reads.ts): a revoked key or client is refused within that bound. The token route reads the client
 * afresh: it checks the secret and counts the client's tokens, once per token, not once per request.
 */
const heldApiKey = heldReads(findApiKey);
const heldClient = heldReads(findClient);

/** The application behind an x-service-auth key, or 401. */
export async function authenticateApplication(apiKey: string | undefined): Promise<Caller> {
  if (!apiKey) throw unauthorized('The x-service-auth header is required.');
  const record = await heldApiKey(hashCredential(apiKey));
  if (!record || record.revokedAt) throw unauthorized('The x-service-auth key is invalid or revoked.');
  return { applicationId: record.applicationId, environment: record.environment, keyId: record.keyId };
}

/** Verifies a bearer token for the application and resolves its tenant, or 401/403. */
export async function authenticateBearer(
  authorization: string | undefined,
  application: Caller,
): Promise<Tenant> {
  const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorization ?? '')?.[1];
  if (!token)
    throw new Problem(401, 'An Authorization: Bearer <token> header is required.', {
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
  const claims = await verifyAccessToken(token);
  // A token is only good with the x-service-auth key of the application it was issued to.
  if (claims.app !== application.applicationId) throw refusedToken();
  const client = await heldClient(claims.sub);
  if (!client || client.revokedAt || client.applicationId !== application.applicationId) {
    throw refusedToken();
  }
  if (!client.associationId) throw forbidden('The client has no registered association.');
  return { environment: application.environment, associationId: client.associationId };
}

export interface IssuedToken {
  accessToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  /** null for a client with no association yet: its token is refused (403) until it gets one. */
  associationId: string | null;
}

/**
 * POST /auth/token: client credentials for a short-lived bearer token. Rate windows are the caller's
 * own (rate-limit.ts): a failure counts against the application whose key was presented and the
 * source address, a token against the client whose secret matched; the clientId named counts for
 * nothing until then.
 */
export async function issueToken(
  application: Caller,
  credentials: { clientId: string; clientSecret: string },
  source: { sourceIp: string; now: Date },
): Promise<IssuedToken> {
  const { sourceIp, now } = source;
  const { applicationId, environment } = application;
  // A refusal is counted by why; a 429 of either window is the caller's rate limit.
  const refused =
    (reason: metrics.TokenRefusal) =>
    (error: unknown): never => {
      metrics.countTokenRefused(environment, applicationId, reason);
      throw error;
    };
  await refuseWhileFailing(applicationId, sourceIp, now).catch(refused('rate_limited'));
  const client = await findClient(credentials.clientId);
  const valid =
    client &&
    !client.revokedAt &&
    client.applicationId === application.applicationId &&
    credentialMatches(credentials.clientSecret, client.secretHash);
  if (!valid) {
    await countFailure(applicationId, sourceIp, now);
    return refused('invalid_credentials')(unauthorized('The client credentials are invalid.'));
  }
  await countTokenIssued(client.clientId, now).catch(refused('rate_limited'));
  metrics.countTokenIssued(environment, applicationId);
  return {
    accessToken: await signAccessToken({ sub: client.clientId, app: application.applicationId }, now),
    tokenType: 'Bearer',
    expiresIn: config().TOKEN_TTL_SECONDS,
    associationId: client.associationId ?? null,
  };
}
