import { accepted, ok, operation } from '../http/api-function.ts';
import {
  createWebhookBody,
  deliveryIdParams,
  listResourceDeliveriesQuery,
  listWebhooksQuery,
  webhookIdParams,
} from '../webhooks/schema.ts';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listDeliveries,
  listResourceDeliveries,
  listWebhooks,
  redeliver,
  sendTestEvent,
} from '../webhooks/service.ts';
import { createOperation, listOperation, readOperation } from './tenant-shapes.ts';

/** The operations of functions/api/webhooks.ts, by the operation names of lib/routes.ts. */
export const webhooksOperations = {
  createWebhook: createOperation(createWebhookBody, createWebhook),
  listWebhooks: listOperation(listWebhooksQuery, listWebhooks),
  getWebhook: readOperation(webhookIdParams, 'webhookId', getWebhook),
  deleteWebhook: operation({
    params: webhookIdParams,
    handle: async ({ tenant, params, now }) => ok(await deleteWebhook(tenant, params.webhookId, now)),
  }),
  listWebhookDeliveries: operation({
    params: webhookIdParams,
    query: listWebhooksQuery,
    handle: async ({ tenant, params, query }) => ok(await listDeliveries(tenant, params.webhookId, query)),
  }),
  listResourceDeliveries: operation({
    query: listResourceDeliveriesQuery,
    handle: async ({ tenant, query }) => {
      const { resourceId, ...page } = query;
      return ok(await listResourceDeliveries(tenant, resourceId, page));
    },
  }),
  sendTestEvent: operation({
    params: webhookIdParams,
    handle: async ({ tenant, params, now }) => accepted(await sendTestEvent(tenant, params.webhookId, now)),
  }),
  redeliverWebhook: operation({
    params: deliveryIdParams,
    handle: async ({ tenant, params, now }) =>
      accepted(await redeliver(tenant, params.webhookId, params.deliveryId, now)),
  }),
};
