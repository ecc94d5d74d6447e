// Where a provider sends its notifications: one URL per environment and connector, set up with the
// provider when the connector is (routes.ts: receiveProviderNotification).

import { API_PREFIX } from '../routes.ts';
import type { Environment } from '../tenant.ts';

export const providerNotificationPath = (environment: Environment, connectorId: string): string =>
  `${API_PREFIX}/provider-notifications/${environment}/${connectorId}`;
