export { createGateway, type Gateway, type GatewayOptions, type Transaction } from './client.js';
export { ApiProblem, type ProblemBody } from './errors.js';
export type { components, operations, paths } from './generated/api.js';
export {
  createPersonGateway,
  type PersonGateway,
  type PersonGatewayOptions,
  type PersonToken,
} from './person.js';
export {
  verifyWebhook,
  type WebhookEvent,
  type WebhookRegistration,
  WebhookVerificationError,
} from './webhooks.js';
