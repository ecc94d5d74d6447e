// Where a provider sends its notifications: one URL per environment and connector, set up with the
// provider when the connector is (routes.ts: receiveProviderNotification).
import { API_PREFIX } from '../routes.ts';
import type { Environment } from '../tenant.ts';

export const providerNotificationPath = (environment: Environment, connectorId: string): string =>
  `${API_PREFIX}/provider-notifications/${environment}/${connectorId}`;

const NOTIFICATION_PATH = new RegExp(
  `^${API_PREFIX}/provider-notifications/(sandbox|production)/([a-z0-9-]{1,64})$`,
);

/**
 * The environment and connector a request's raw path names, read before anything else of the request
 * (authentication.ts); undefined for any path providerNotificationPath does not write.
 */
export function notificationTargetOf(
  rawPath: string,
): { environment: Environment; connectorId: string } | undefined {
  const [, environment, connectorId] = NOTIFICATION_PATH.exec(rawPath) ?? [];
  return environment && connectorId ? { environment: environment as Environment, connectorId } : undefined;
}
