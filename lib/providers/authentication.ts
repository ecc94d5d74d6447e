// The provider caller kind's authentication step (docs/decisions/provider-notifications.md), run by
// lib/http/authenticate.ts and handed over by lib/provider-api.ts: a provider's notification is signed
// with its connector's secret (signature.ts), and the signature is checked on the raw path and the raw
// bytes before anything parses or validates them. An unsigned, forged or stale request, whatever its
// path, query or body, gets one fixed 401 of a few hundred bytes: no schema is read out, and an
// outsider's request costs a secret look-up at most.
import type { ProviderRequest } from '../http/authenticate.ts';
import { unauthorized } from '../http/problem.ts';
import type { Caller } from '../http/types.ts';
import { PROVIDER_NOTIFICATION_LIMIT, scaled } from '../limits/policies.ts';
import { admit } from '../limits/service.ts';
import { notificationTargetOf } from './notification-path.ts';
import { findProviderSecret } from './repo.ts';
import { SIGNATURE_HEADER, verifyNotificationSignature } from './signature.ts';

/** The one answer to anything unsigned, forged or stale: fixed, and a few hundred bytes at most. */
const BAD_SIGNATURE = 'Not signed with this connector’s secret, or stale.';

/** The connector whose secret signed the request, as the caller; or the fixed 401. */
export async function authenticateProvider({
  rawPath,
  rawBody,
  headers,
  now,
}: ProviderRequest): Promise<Caller> {
  // A path naming no connector, or a connector with no secret (or none at all), has nothing a signature
  // could be checked with.
  const target = notificationTargetOf(rawPath);
  const secret = target && (await findProviderSecret(target.environment, target.connectorId));
  if (!target || !secret || !verifyNotificationSignature(secret, headers[SIGNATURE_HEADER], rawBody, now))
    throw unauthorized(BAD_SIGNATURE);
  const { environment, connectorId } = target;
  // Then the connector's own window: only what its provider signed can spend it.
  await admit(
    'notifications',
    `connector#${environment}#${connectorId}`,
    scaled(PROVIDER_NOTIFICATION_LIMIT),
    now,
  );
  return { applicationId: 'provider', environment, connectorId };
}
