// THE route table. Infra, the local gateway, esbuild.config.ts and the tests all read it;
// a route listed anywhere else is a bug.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * `apiKey`: only the application's x-service-auth; `token`: x-service-auth plus a bearer JWT, or a
 * portal person's own bearer token alone (lib/people: no API key reaches a browser);
 * `providerSignature`: outside the integrator surface, a provider's notification signed with its
 * connector's secret (lib/providers/signature.ts), and nothing else. The portal's own routes:
 * `none` (asking for a sign-in code and using it), `session` (the portal's session cookie, read by the
 * operation) and `person` (a person's bearer token only: the team and its audit log).
 */
export type RouteAuth = 'apiKey' | 'token' | 'providerSignature' | 'none' | 'session' | 'person';

/** A portal person's role in a tenant, least to most (lib/people/schema.ts). */
export const PERSON_ROLES = ['viewer', 'developer', 'owner'] as const;
export type PersonRole = (typeof PERSON_ROLES)[number];

/** The role a route needs of a person: what it declares, else viewer to read and developer to change. */
export const roleNeeded = (route: Pick<Route, 'method' | 'role'>): PersonRole =>
  route.role ?? (route.method === 'GET' ? 'viewer' : 'developer');

export const roleReaches = (role: PersonRole, needed: PersonRole): boolean =>
  PERSON_ROLES.indexOf(role) >= PERSON_ROLES.indexOf(needed);

export interface Route {
  method: HttpMethod;
  /** Path under the version prefix, API Gateway style: `/assets/{assetCode}`. */
  path: string;
  /** The API function (functions/api/<fn>.ts) that serves it. */
  fn: string;
  /** The operation inside that function. */
  operation: string;
  auth: RouteAuth;
  /** The role a portal person needs; by default viewer to read (GET) and developer for anything else. */
  role?: PersonRole;
}

export const API_PREFIX = '/v1';

export const routes = [
  { method: 'POST', path: '/auth/token', fn: 'auth', operation: 'issueToken', auth: 'apiKey' },
  { method: 'GET', path: '/assets', fn: 'assets', operation: 'listAssets', auth: 'token' },
  { method: 'GET', path: '/assets/{assetCode}', fn: 'assets', operation: 'getAsset', auth: 'token' },
  { method: 'GET', path: '/wallets', fn: 'wallets', operation: 'listWallets', auth: 'token' },
  { method: 'POST', path: '/wallets', fn: 'wallets', operation: 'createWallet', auth: 'token' },
  { method: 'GET', path: '/wallets/{walletId}', fn: 'wallets', operation: 'getWallet', auth: 'token' },
  {
    method: 'GET',
    path: '/beneficiaries',
    fn: 'beneficiaries',
    operation: 'listBeneficiaries',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/beneficiaries',
    fn: 'beneficiaries',
    operation: 'createBeneficiary',
    auth: 'token',
  },
  {
    method: 'GET',
    path: '/beneficiaries/{beneficiaryId}',
    fn: 'beneficiaries',
    operation: 'getBeneficiary',
    auth: 'token',
  },
  {
    method: 'PATCH',
    path: '/beneficiaries/{beneficiaryId}',
    fn: 'beneficiaries',
    operation: 'updateBeneficiary',
    auth: 'token',
  },
  {
    method: 'GET',
    path: '/beneficiaries/{beneficiaryId}/payment-destinations',
    fn: 'beneficiaries',
    operation: 'listPaymentDestinations',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/beneficiaries/{beneficiaryId}/payment-destinations',
    fn: 'beneficiaries',
    operation: 'createPaymentDestination',
    auth: 'token',
  },
  {
    method: 'GET',
    path: '/beneficiaries/{beneficiaryId}/payment-destinations/{destinationId}',
    fn: 'beneficiaries',
    operation: 'getPaymentDestination',
    auth: 'token',
  },
  { method: 'GET', path: '/connectors', fn: 'connectors', operation: 'listConnectors', auth: 'token' },
  {
    method: 'GET',
    path: '/connectors/{connectorId}',
    fn: 'connectors',
    operation: 'getConnector',
    auth: 'token',
  },
  { method: 'GET', path: '/payments/enums', fn: 'connectors', operation: 'getEnums', auth: 'token' },
  {
    method: 'GET',
    path: '/payments/requirements',
    fn: 'connectors',
    operation: 'getRequirements',
    auth: 'token',
  },
  { method: 'POST', path: '/quotes', fn: 'quotes', operation: 'createQuote', auth: 'token' },
  { method: 'POST', path: '/payments/p2p/own', fn: 'payments', operation: 'payP2pOwn', auth: 'token' },
  {
    method: 'POST',
    path: '/payments/p2p/own/multi',
    fn: 'payments',
    operation: 'payP2pOwnMulti',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/payments/p2p/beneficiary',
    fn: 'payments',
    operation: 'payP2pBeneficiary',
    auth: 'token',
  },
  { method: 'POST', path: '/payments/offramp', fn: 'payments', operation: 'payOfframp', auth: 'token' },
  { method: 'POST', path: '/payments/onramp', fn: 'payments', operation: 'payOnramp', auth: 'token' },
  { method: 'POST', path: '/payments/swap/own', fn: 'payments', operation: 'paySwapOwn', auth: 'token' },
  {
    method: 'POST',
    path: '/payments/swap/beneficiary',
    fn: 'payments',
    operation: 'paySwapBeneficiary',
    auth: 'token',
  },
  { method: 'GET', path: '/transactions', fn: 'transactions', operation: 'listTransactions', auth: 'token' },
  {
    method: 'GET',
    path: '/transactions/{transactionId}',
    fn: 'transactions',
    operation: 'getTransaction',
    auth: 'token',
  },
  {
    method: 'GET',
    path: '/statements/transactions',
    fn: 'statements',
    operation: 'getStatement',
    auth: 'token',
  },
  { method: 'POST', path: '/webhooks', fn: 'webhooks', operation: 'createWebhook', auth: 'token' },
  { method: 'GET', path: '/webhooks', fn: 'webhooks', operation: 'listWebhooks', auth: 'token' },
  // Before /webhooks/{webhookId}: a static segment is matched first, as API Gateway does.
  {
    method: 'GET',
    path: '/webhooks/deliveries',
    fn: 'webhooks',
    operation: 'listResourceDeliveries',
    auth: 'token',
  },
  { method: 'GET', path: '/webhooks/{webhookId}', fn: 'webhooks', operation: 'getWebhook', auth: 'token' },
  {
    method: 'DELETE',
    path: '/webhooks/{webhookId}',
    fn: 'webhooks',
    operation: 'deleteWebhook',
    auth: 'token',
  },
  {
    method: 'GET',
    path: '/webhooks/{webhookId}/deliveries',
    fn: 'webhooks',
    operation: 'listWebhookDeliveries',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver',
    fn: 'webhooks',
    operation: 'redeliverWebhook',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/webhooks/{webhookId}/test',
    fn: 'webhooks',
    operation: 'sendTestEvent',
    auth: 'token',
  },
  {
    method: 'PUT',
    path: '/customers/{customerId}/connectors/{connectorId}/register/individual',
    fn: 'customers',
    operation: 'registerIndividualCustomer',
    auth: 'token',
  },
  {
    method: 'PUT',
    path: '/customers/{customerId}/connectors/{connectorId}/register/business',
    fn: 'customers',
    operation: 'registerBusinessCustomer',
    auth: 'token',
  },
  {
    method: 'GET',
    path: '/customers/{customerId}/connectors/{connectorId}',
    fn: 'customers',
    operation: 'getCustomer',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/onramp/references',
    fn: 'onramp',
    operation: 'createOnrampReference',
    auth: 'token',
  },
  {
    method: 'PUT',
    path: '/onramp/references',
    fn: 'onramp',
    operation: 'activateOnrampReferences',
    auth: 'token',
  },
  {
    method: 'PUT',
    path: '/onramp/references/{reference}',
    fn: 'onramp',
    operation: 'moveOnrampReference',
    auth: 'token',
  },
  {
    method: 'GET',
    path: '/onramp/references',
    fn: 'onramp',
    operation: 'listOnrampReferences',
    auth: 'token',
  },
  // The business portal's sign-in (lib/people): a one-time code by email, then a session cookie that
  // mints a person's short-lived bearer tokens for the routes above.
  { method: 'POST', path: '/portal/sign-in', fn: 'portal', operation: 'requestSignInCode', auth: 'none' },
  { method: 'POST', path: '/portal/sessions', fn: 'portal', operation: 'createPortalSession', auth: 'none' },
  { method: 'GET', path: '/portal/session', fn: 'portal', operation: 'getPortalSession', auth: 'session' },
  { method: 'POST', path: '/portal/token', fn: 'portal', operation: 'issuePortalToken', auth: 'session' },
  // Last of them: the tests' valid requests run in this order, and this one ends the session.
  { method: 'DELETE', path: '/portal/session', fn: 'portal', operation: 'endPortalSession', auth: 'session' },
  // A tenant's team and its audit log: owners only (the portal's function serves them too).
  {
    method: 'GET',
    path: '/team/members',
    fn: 'portal',
    operation: 'listTeamMembers',
    auth: 'person',
    role: 'owner',
  },
  {
    method: 'POST',
    path: '/team/members',
    fn: 'portal',
    operation: 'addTeamMember',
    auth: 'person',
    role: 'owner',
  },
  {
    method: 'DELETE',
    path: '/team/members/{memberId}',
    fn: 'portal',
    operation: 'removeTeamMember',
    auth: 'person',
    role: 'owner',
  },
  {
    method: 'GET',
    path: '/team/audit-log',
    fn: 'portal',
    operation: 'listAuditLog',
    auth: 'person',
    role: 'owner',
  },
  // A tenant's API keys and clients (the portal's Developers page): everyone on the team reads them,
  // owners make and revoke them (a credential outlives its maker's place on the team). People only: an
  // application's own credentials cannot mint more of themselves.
  { method: 'GET', path: '/credentials', fn: 'portal', operation: 'listCredentials', auth: 'person' },
  {
    method: 'POST',
    path: '/credentials',
    fn: 'portal',
    operation: 'createCredential',
    auth: 'person',
    role: 'owner',
  },
  {
    method: 'DELETE',
    path: '/credentials/{credentialId}',
    fn: 'portal',
    operation: 'revokeCredential',
    auth: 'person',
    role: 'owner',
  },
  // The tenant's request log (lib/request-log): its applications read it as its people do.
  { method: 'GET', path: '/request-log', fn: 'portal', operation: 'listRequestLog', auth: 'token' },
  // Providers' status notifications (lib/operations/providers.ts): not an integrator route.
  {
    method: 'POST',
    path: '/provider-notifications/{environment}/{connectorId}',
    fn: 'providers',
    operation: 'receiveProviderNotification',
    auth: 'providerSignature',
  },
  // Stripe-style test helpers: sandbox applications only (404 for production ones).
  {
    method: 'POST',
    path: '/sandbox/wallets/{walletId}/kyc',
    fn: 'sandbox',
    operation: 'decideKyc',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/sandbox/wallets/{walletId}/fund',
    fn: 'sandbox',
    operation: 'fundWallet',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/sandbox/payment-destinations/{destinationId}/verification',
    fn: 'sandbox',
    operation: 'verifyPaymentDestination',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/sandbox/customers/{customerId}/connectors/{connectorId}/decision',
    fn: 'sandbox',
    operation: 'decideCustomer',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/sandbox/onramp/references/{reference}/receipts',
    fn: 'sandbox',
    operation: 'payIntoReference',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/sandbox/notice-recipients',
    fn: 'sandbox',
    operation: 'requestRecipientCode',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/sandbox/notice-recipients/verification',
    fn: 'sandbox',
    operation: 'confirmRecipient',
    auth: 'token',
  },
  {
    method: 'POST',
    path: '/sandbox/transactions/{transactionRecordId}/{outcome}',
    fn: 'sandbox',
    operation: 'settleRampInstruction',
    auth: 'token',
  },
] as const satisfies readonly Route[];

export type RouteEntry = (typeof routes)[number];
export type FunctionName = RouteEntry['fn'];
export type OperationOf<F extends FunctionName> = Extract<RouteEntry, { fn: F }>['operation'];

/**
 * Answers every request no route matches (404, or 405 with `Allow` for a known path):
 * API Gateway's `$default` route locally and in AWS, so unknown routes get the same problem bodies.
 */
export const FALLBACK_FUNCTION = 'fallback';

export const apiFunctionNames: string[] = [...new Set<string>(routes.map((r) => r.fn)), FALLBACK_FUNCTION];

/** A Stripe-style test helper: sandbox applications only; a production one is answered as by no route. */
export const isSandboxHelper = (route: Pick<Route, 'path'>): boolean => route.path.startsWith('/sandbox/');

/** `GET /v1/assets/{assetCode}`: the routeKey API Gateway puts on the event. */
export const routeKeyOf = (route: Pick<Route, 'method' | 'path'>): string =>
  `${route.method} ${API_PREFIX}${route.path}`;

interface CompiledRoute {
  route: Route;
  pattern: RegExp;
  params: string[];
}

const compiled: CompiledRoute[] = routes.map((route) => {
  const params: string[] = [];
  const source = `${API_PREFIX}${route.path}`
    .split('/')
    .map((segment) => {
      const param = /^\{(\w+)\}$/.exec(segment);
      if (!param?.[1]) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(param[1]);
      return '([^/]+)';
    })
    .join('/');
  return { route, pattern: new RegExp(`^${source}$`), params };
});

export type RouteMatch =
  | { kind: 'route'; route: Route; pathParameters: Record<string, string> }
  /** A path whose percent-escapes do not decode to UTF-8 (`/v1/assets/%FF`): no route can serve it. */
  | { kind: 'malformedPath' }
  | { kind: 'wrongMethod'; allow: HttpMethod[] }
  | { kind: 'none' };

function isDecodablePath(path: string): boolean {
  try {
    return decodeURIComponent(path).isWellFormed();
  } catch {
    return false;
  }
}

/** Resolves a request the way API Gateway does: a path matches a route template segment by segment. */
export function matchRoute(method: string, path: string): RouteMatch {
  if (!isDecodablePath(path)) return { kind: 'malformedPath' };
  const onPath = compiled.flatMap((c) => {
    const m = c.pattern.exec(path);
    return m ? [{ c, values: m.slice(1) }] : [];
  });
  const hit = onPath.find(({ c }) => c.route.method === method);
  if (hit) {
    const pathParameters: Record<string, string> = {};
    hit.c.params.forEach((name, i) => {
      pathParameters[name] = decodeURIComponent(hit.values[i] ?? '');
    });
    return { kind: 'route', route: hit.c.route, pathParameters };
  }
  if (onPath.length > 0)
    return { kind: 'wrongMethod', allow: [...new Set(onPath.map(({ c }) => c.route.method))] };
  return { kind: 'none' };
}
