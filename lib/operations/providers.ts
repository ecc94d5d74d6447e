import { ok, operation } from '../http/api-function.ts';
import {
  providerNotificationBody,
  providerNotificationParams,
  receiveProviderNotification,
} from '../providers/notifications.ts';
import { SIGNATURE_HEADER } from '../providers/signature.ts';

/** The operations of functions/api/providers.ts, by the operation names of lib/routes.ts. */
export const providersOperations = {
  receiveProviderNotification: operation({
    params: providerNotificationParams,
    body: providerNotificationBody,
    handle: async ({ params, rawBody, headers, now }) =>
      ok(
        await receiveProviderNotification(
          params.environment,
          params.connectorId,
          rawBody,
          headers[SIGNATURE_HEADER],
          now,
        ),
      ),
  }),
};
