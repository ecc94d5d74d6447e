// A tenant with one of each resource, the request every route of lib/routes.ts answers with success
// for it, and what the hardening and fuzz tests build from those requests: raw JSON with one member
// replaced, nested values, and the items of the tenant's partition as they are in the table.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { addClient } from '../../lib/admin/tenants.ts';
import { db, tableName } from '../../lib/db/client.ts';
import { tenantScope } from '../../lib/db/keys.ts';
import { operationFor } from '../../lib/operations/index.ts';
import { findProviderSecret } from '../../lib/providers/repo.ts';
import { SIGNATURE_HEADER, signNotification } from '../../lib/providers/signature.ts';
import { type Route, routeKeyOf, routes } from '../../lib/routes.ts';
import { as, type Caller, call, newCaller } from './api.ts';
import { addPerson, newEmail, newPerson, signInCode } from './people.ts';
import { startReceiver } from './webhook-receiver.ts';

export interface Fixture {
  caller: Caller;
  /** A second client of the caller's application, for token requests (the first one's limit stays free). */
  tokenClient: { clientId: string; clientSecret: string };
  /** An own USDC wallet whose ledger account is open. */
  wallet: string;
  /** A third-party wallet whose KYC review is Pending (its ledger account is open too). */
  pendingWallet: string;
  beneficiary: string;
  /** A BANK destination of `beneficiary`, verification PENDING. */
  destination: string;
  /** A second own USDC wallet (open), the destination of own payments. */
  otherWallet: string;
  /** CRYPTO destinations of `beneficiary`: USDC (to `otherWallet`'s account) and EURC. */
  usdcDestination: string;
  eurcDestination: string;
  /** The record of a P2P payment from `wallet` to `otherWallet`. */
  transaction: string;
  /** A webhook (wallet.verified) to a loopback receiver of this process. */
  webhook: string;
  /** A webhook that received the payment's payment.initiated event: `delivery`, delivered. */
  deliveryWebhook: string;
  delivery: string;
  /** The connector's provider secret: what signs the provider-notification route's valid request. */
  providerSecret: Buffer;
  /** An off-ramp submitted once (its quote executes once): the valid request replays it. */
  offramp: Record<string, unknown>;
  /** An on-ramp submitted once, completed: the valid request replays it. */
  onramp: Record<string, unknown>;
  /** Its record, completed: the sandbox ramp helper's valid request completes it again. */
  rampTransaction: string;
  /** A customer registered with the bespoke connector, VERIFIED: its valid PUT replays it. */
  customerId: string;
  /** An on-ramp reference of that customer, bound to `wallet`. */
  reference: string;
  /**
   * The tenant's portal people: a signed-in owner (session cookie, person token), a code sent to
   * another member and not yet used (the sign-in route's valid request spends it), and a member the
   * team route's valid DELETE removes.
   */
  people: {
    ownerEmail: string;
    cookie: string;
    token: string;
    pendingCode: { email: string; code: string };
    removableMemberId: string;
    /** A client the owner made, which the credentials route's valid DELETE revokes. */
    revocableCredentialId: string;
  };
}

export const CONNECTOR_ID = 'ke-momo-offramp-usdc-kes';

export const bankDestination = {
  method: 'BANK',
  countryIsoCode2: 'ZA',
  currencyIsoCode3: 'ZAR',
  accountNumber: '123456789',
  bankCode: '250655',
  accountHolderName: 'Thandi Nkosi',
};

/** The off-ramp connector the fixture pays through, and a beneficiary with every field it requires. */
export const RAMP_CONNECTOR_ID = 'za-bank-offramp-usdc-zar';
export const compliantIndividual = {
  firstName: 'Thandi',
  lastName: 'Nkosi',
  dateOfBirth: '1990-04-12',
  idType: 'NATIONAL_ID',
  idNumber: '9004120000000',
};
export const beneficiaryAddress = { line1: '1 Long Street', city: 'Cape Town', countryIsoCode2: 'ZA' };

/** The bespoke (provider on-ramp) connector, and an identity its provider verifies. */
export const BESPOKE_CONNECTOR_ID = 'za-bank-onramp-zar-usdc';
export const bespokeIndividual = { ...compliantIndividual, idCountryIsoCode2: 'ZA' };

/** Waits until the caller's customer registration with the bespoke connector has `status`. */
export async function customerWhen(caller: Caller, customerId: string, status: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { body } = await as(caller, `/customers/${customerId}/connectors/${BESPOKE_CONNECTOR_ID}`);
    if (body?.status === status) return body;
    assert.ok(Date.now() < deadline, `customer ${customerId} is ${body?.status}, not ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A verified customer of the bespoke connector (decided at once by the sandbox helper): its customerId. */
export async function verifiedCustomer(caller: Caller): Promise<string> {
  const customerId = `cust-${randomUUID().slice(0, 8)}`;
  const path = `/customers/${customerId}/connectors/${BESPOKE_CONNECTOR_ID}`;
  const held = { ...bespokeIndividual, lastName: 'Holdsworth' };
  assert.equal((await as(caller, `${path}/register/individual`, { method: 'PUT', body: held })).status, 201);
  const decided = await as(caller, `/sandbox${path}/decision`, {
    method: 'POST',
    body: { decision: 'VERIFIED' },
  });
  assert.equal(decided.status, 202, JSON.stringify(decided.body));
  await customerWhen(caller, customerId, 'VERIFIED');
  return customerId;
}

/** The on-ramp connector, and a Kenyan M-Pesa account a counterparty pays from. */
export const ONRAMP_CONNECTOR_ID = 'ke-momo-onramp-kes-usdc';
export const keMobileMoney = {
  method: 'MOBILE_MONEY',
  countryIsoCode2: 'KE',
  currencyIsoCode3: 'KES',
  mobileNumber: '+254712345678',
  provider: 'MPESA',
};

/** The KYC metadata of a third-party wallet (created Pending, until its review is decided). */
export const person = {
  entityType: 'Person',
  firstName: 'Thandi',
  lastName: 'Nkosi',
  dateOfBirth: '1990-04-12',
  idType: 'NATIONAL_ID',
  idNumber: '9004120000000',
  nationality: 'ZA',
};

/** The id of a resource the request must create (201). */
export async function created(response: Promise<{ status: number; body: { id: string } }>): Promise<string> {
  const { status, body } = await response;
  assert.equal(status, 201, JSON.stringify(body));
  return body.id;
}

/** Waits until the activation worker has finished with a wallet (it updates the wallet item when done). */
export async function activationDone(caller: Caller, walletId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { body } = await as(caller, `/wallets/${walletId}`);
    if (body?.activationStatus === 'active') return;
    assert.notEqual(body?.activationStatus, 'failed', JSON.stringify(body));
    assert.ok(Date.now() < deadline, `wallet ${walletId} was not activated in time`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Waits until the worker has finished with a payment (the wallet holds no USDC, so it fails). */
async function paymentSettled(caller: Caller, transactionRecordId: string, until?: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  const waiting = (status: string | undefined) => (until ? status !== until : status === 'initiated');
  while (waiting((await as(caller, `/transactions/${transactionRecordId}`)).body?.status)) {
    assert.ok(Date.now() < deadline, `transaction ${transactionRecordId} did not settle in time`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A CRYPTO destination for `asset` at a ledger address. */
export const cryptoDestination = (assetSymbol: string, walletAddress: string) => ({
  method: 'CRYPTO',
  countryIsoCode2: 'ZA',
  currencyIsoCode3: 'USD',
  networkName: 'stellar-testnet',
  assetSymbol,
  walletAddress,
});

/**
 * A fresh sandbox tenant with two own wallets, a Pending wallet, a beneficiary with a BANK and two
 * CRYPTO destinations, and one P2P payment's record.
 */
export async function newFixture(): Promise<Fixture> {
  const caller = await newCaller();
  const post = (path: string, body: unknown) => as(caller, path, { method: 'POST', body });
  const [wallet, otherWallet, pendingWallet, beneficiary] = await Promise.all([
    created(post('/wallets', { walletName: 'Fixture', assetCode: 'USDC', ownAccount: true })),
    post('/wallets', { walletName: 'Fixture 2', assetCode: 'USDC', ownAccount: true }),
    created(post('/wallets', { walletName: 'Fixture KYC', assetCode: 'USDC', metadata: person })),
    created(post('/beneficiaries', { individual: { firstName: 'Thandi', lastName: 'Nkosi' } })),
  ]);
  assert.equal(otherWallet.status, 201, JSON.stringify(otherWallet.body));
  const destinations = `/beneficiaries/${beneficiary}/payment-destinations`;
  const [destination, usdcDestination, eurcDestination] = await Promise.all([
    created(post(destinations, bankDestination)),
    created(post(destinations, cryptoDestination('USDC', otherWallet.body.publicKey))),
    created(post(destinations, cryptoDestination('EURC', otherWallet.body.publicKey))),
  ]);
  const { clientId, clientSecret } = await addClient(
    caller.tenant.applicationId,
    caller.tenant.associationId,
  );
  // A receiver that answers 204: the fixture's deliveries end at their first attempt (no retries later).
  const receiver = await startReceiver();
  const [webhook, deliveryWebhook] = await Promise.all([
    // One active registration per URL: the two differ by a query the receiver ignores.
    created(post('/webhooks', { url: `${receiver.url}?for=wallets`, events: ['wallet.verified'] })),
    created(post('/webhooks', { url: `${receiver.url}?for=payments`, events: ['payment.initiated'] })),
  ]);
  const rampPayee = await created(
    post('/beneficiaries', { individual: compliantIndividual, addresses: [beneficiaryAddress] }),
  );
  const rampDestination = await created(
    post(`/beneficiaries/${rampPayee}/payment-destinations`, bankDestination),
  );
  const payee = { beneficiaryId: rampPayee, paymentDestinationId: rampDestination };
  const quote = await post('/quotes', { amount: 1, connectorId: RAMP_CONNECTOR_ID, ...payee });
  assert.equal(quote.status, 201, JSON.stringify(quote.body));
  // A wallet holding exactly the quote's total: the off-ramp completes, and its instruction can be
  // completed again by the sandbox helper (an idempotent answer).
  const rampWallet = await created(
    post('/wallets', { walletName: 'Fixture ramp', assetCode: 'USDC', ownAccount: true }),
  );
  const fund = async (walletId: string, amount: unknown) => {
    await activationDone(caller, walletId);
    const funded = await as(caller, `/sandbox/wallets/${walletId}/fund`, {
      method: 'POST',
      headers: { 'Idempotency-Key': randomUUID() },
      body: { assetCode: 'USDC', amount },
    });
    assert.equal(funded.status, 200, JSON.stringify(funded.body));
  };
  // `wallet` pays the P2P below and each valid payment request of validRequest (1 USDC each):
  // acceptance refuses what a wallet cannot spend.
  await Promise.all([fund(rampWallet, quote.body.total), fund(wallet, 20)]);
  const offramp = {
    transactionId: randomUUID(),
    walletId: rampWallet,
    ...payee,
    quoteId: quote.body.quoteId,
    sendingAssetCode: 'USDC',
    purpose: 'FAMILY_SUPPORT',
    sourceOfFunds: 'SALARY',
  };
  const ramp = await post('/payments/offramp', offramp);
  assert.equal(ramp.status, 202, JSON.stringify(ramp.body));
  // And an on-ramp from a Kenyan counterparty into the same wallet (its valid request replays it).
  const counterparty = await created(
    post('/beneficiaries', { individual: { ...compliantIndividual, idCountryIsoCode2: 'KE' } }),
  );
  const momo = await created(post(`/beneficiaries/${counterparty}/payment-destinations`, keMobileMoney));
  const collection = { senderId: counterparty, paymentDestinationId: momo };
  const onrampQuote = await post('/quotes?type=onramp', {
    amount: 1000,
    connectorId: ONRAMP_CONNECTOR_ID,
    beneficiaryId: counterparty,
    paymentDestinationId: momo,
  });
  assert.equal(onrampQuote.status, 201, JSON.stringify(onrampQuote.body));
  const onramp = {
    transactionId: randomUUID(),
    walletId: rampWallet,
    ...collection,
    quoteId: onrampQuote.body.quoteId,
    senderSourceOfFunds: 'SALARY',
  };
  const collected = await post('/payments/onramp', onramp);
  assert.equal(collected.status, 202, JSON.stringify(collected.body));
  const customerId = 'fixture-customer';
  const customer = await as(
    caller,
    `/customers/${customerId}/connectors/${BESPOKE_CONNECTOR_ID}/register/individual`,
    {
      method: 'PUT',
      body: bespokeIndividual,
    },
  );
  assert.equal(customer.status, 201, JSON.stringify(customer.body));
  const payment = await post('/payments/p2p/own', {
    transactionId: randomUUID(),
    walletId: wallet,
    destinationWalletId: otherWallet.body.id,
    sendingAssetCode: 'USDC',
    amount: 1,
  });
  assert.equal(payment.status, 202, JSON.stringify(payment.body));
  await Promise.all([
    activationDone(caller, wallet),
    activationDone(caller, otherWallet.body.id),
    activationDone(caller, pendingWallet),
    paymentSettled(caller, payment.body.transactionRecordId),
    // Completed by the sandbox provider a few seconds after its instruction: nothing follows.
    paymentSettled(caller, ramp.body.transactionRecordId, 'completed'),
    paymentSettled(caller, collected.body.transactionRecordId, 'completed'),
    customerWhen(caller, customerId, 'VERIFIED'),
  ]);
  const reference = await post('/onramp/references', {
    customerId,
    connectorId: BESPOKE_CONNECTOR_ID,
    walletId: wallet,
  });
  assert.equal(reference.status, 201, JSON.stringify(reference.body));
  const delivery = await deliveredOnce(caller, deliveryWebhook, 3);
  return {
    caller,
    tokenClient: { clientId, clientSecret },
    wallet,
    pendingWallet,
    beneficiary,
    destination,
    otherWallet: otherWallet.body.id,
    usdcDestination,
    eurcDestination,
    transaction: payment.body.transactionRecordId,
    webhook,
    deliveryWebhook,
    delivery,
    providerSecret: (await findProviderSecret('sandbox', RAMP_CONNECTOR_ID)) as Buffer,
    offramp,
    onramp,
    rampTransaction: ramp.body.transactionRecordId,
    customerId,
    reference: reference.body.reference,
    people: await portalPeople(caller),
  };
}

/** A client of the tenant, made by its owner in the portal's way (its secret is not needed). */
async function revocableCredential(token: string): Promise<string> {
  const made = await call('/credentials', { method: 'POST', token, body: { kind: 'client' } });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  return made.body.id;
}

async function portalPeople(caller: Caller): Promise<Fixture['people']> {
  const owner = await newPerson(caller.tenant, 'owner');
  const [pending, removable] = await Promise.all([
    addPerson(caller.tenant, 'viewer'),
    addPerson(caller.tenant, 'viewer'),
  ]);
  return {
    ownerEmail: owner.email,
    cookie: owner.cookie,
    token: owner.token,
    pendingCode: { email: pending.email, code: await signInCode(pending.email) },
    removableMemberId: removable.memberId,
    revocableCredentialId: await revocableCredential(owner.token),
  };
}

/** Waits until the webhook's `count` deliveries are all delivered, and returns the first one's id. */
async function deliveredOnce(caller: Caller, webhookId: string, count: number): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { body } = await as(caller, `/webhooks/${webhookId}/deliveries`);
    const deliveries: { id: string; status: string }[] = body?.data ?? [];
    if (deliveries.length === count && deliveries.every((d) => d.status === 'delivered'))
      return (deliveries[0] as { id: string }).id;
    assert.ok(Date.now() < deadline, `webhook ${webhookId}: no delivery delivered in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A request as the tests send it: path under /v1 (query included), JSON body, and who sends it. */
export interface RequestSpec {
  method: string;
  path: string;
  body?: unknown;
  /**
   * 'apiKey': x-service-auth only (the token route); 'token': the key and the caller's bearer token;
   * the portal's: 'none', 'session' (its cookie), 'person' (a person's token alone).
   */
  auth: Route['auth'];
}

/** The query members a route's valid request carries (beside which the tests add theirs). */
const VALID_QUERY: Record<string, (f: Fixture) => string> = {
  'GET /v1/payments/requirements': () => `connectorId=${CONNECTOR_ID}`,
  'GET /v1/statements/transactions': (f) =>
    `walletId=${f.wallet}&assetCode=USDC&startDate=${new Date().toISOString().slice(0, 10)}&endDate=${new Date().toISOString().slice(0, 10)}`,
  'GET /v1/webhooks/deliveries': (f) => `resourceId=${f.transaction}`,
};

/** The routes that page (limit and cursor are theirs). */
export const PAGED_ROUTES = new Set([
  'GET /v1/assets',
  'GET /v1/wallets',
  'GET /v1/beneficiaries',
  'GET /v1/beneficiaries/{beneficiaryId}/payment-destinations',
  'GET /v1/connectors',
  'GET /v1/transactions',
  'GET /v1/statements/transactions',
  'GET /v1/webhooks',
  'GET /v1/webhooks/{webhookId}/deliveries',
  'GET /v1/webhooks/deliveries',
]);

/** A new payment each time (a new transactionId), so a valid request is never a replay or a conflict. */
const ownPayment = (f: Fixture) => ({
  transactionId: randomUUID(),
  walletId: f.wallet,
  destinationWalletId: f.otherWallet,
  amount: 1,
});

const beneficiaryPayment = (f: Fixture) => ({
  transactionId: randomUUID(),
  walletId: f.wallet,
  beneficiaryId: f.beneficiary,
  amount: 1,
});

function validBody(key: string, f: Fixture): unknown {
  switch (key) {
    case 'POST /v1/auth/token':
      return { ...f.tokenClient };
    case 'POST /v1/wallets':
      return { walletName: 'Fuzz', assetCode: 'USDC', ownAccount: true };
    case 'POST /v1/beneficiaries':
      return { individual: { firstName: 'Thandi', lastName: 'Nkosi' } };
    case 'PATCH /v1/beneficiaries/{beneficiaryId}':
      return { individual: { firstName: 'Thandeka' }, tags: [{ key: 'segment', value: 'retail' }] };
    case 'POST /v1/beneficiaries/{beneficiaryId}/payment-destinations':
      return { ...bankDestination };
    case 'POST /v1/quotes':
      return { amount: 10, connectorId: CONNECTOR_ID, transactionType: 'B2C' };
    case 'POST /v1/payments/p2p/own':
      return { ...ownPayment(f), sendingAssetCode: 'USDC' };
    case 'POST /v1/payments/swap/own':
      return { ...ownPayment(f), sendingAssetCode: 'USDC', receivingAssetCode: 'EURC' };
    case 'POST /v1/payments/p2p/own/multi':
      return {
        transactionId: randomUUID(),
        transfers: [
          { walletId: f.wallet, destinationWalletId: f.otherWallet, sendingAssetCode: 'USDC', amount: 1 },
        ],
      };
    case 'POST /v1/payments/p2p/beneficiary':
      return { ...beneficiaryPayment(f), paymentDestinationId: f.usdcDestination, sendingAssetCode: 'USDC' };
    case 'POST /v1/payments/swap/beneficiary':
      return {
        ...beneficiaryPayment(f),
        paymentDestinationId: f.eurcDestination,
        sendingAssetCode: 'USDC',
        receivingAssetCode: 'EURC',
      };
    case 'POST /v1/payments/offramp':
      // A quote executes once: the valid request is the fixture's off-ramp again (an idempotent replay).
      return { ...f.offramp };
    case 'POST /v1/payments/onramp':
      return { ...f.onramp };
    case 'POST /v1/provider-notifications/{environment}/{connectorId}':
      // For an instruction that is no one's: acknowledged, nothing moves (credentials() signs it).
      return {
        notificationId: randomUUID(),
        kind: 'payout',
        reference: randomUUID(),
        providerReference: 'SIM-FIXTURE',
        status: 'completed',
      };
    case 'POST /v1/webhooks':
      // Loopback (sandbox, local stack), for an event no producer makes yet: nothing is ever sent to it.
      return { url: 'http://127.0.0.1:9/fuzz', events: ['Customer_Verified'] };
    case 'POST /v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver':
    case 'POST /v1/webhooks/{webhookId}/test':
      return undefined;
    case 'POST /v1/sandbox/wallets/{walletId}/kyc':
      return { decision: 'Verified' };
    case 'POST /v1/sandbox/wallets/{walletId}/fund':
      return { assetCode: 'USDC', amount: 1 };
    case 'POST /v1/sandbox/payment-destinations/{destinationId}/verification':
      return { decision: 'APPROVED' };
    // SES's mailbox simulator: verified without a code, so both answer 200 and nothing is sent.
    case 'POST /v1/sandbox/notice-recipients':
      return { channel: 'email', address: 'success@simulator.amazonses.com' };
    case 'POST /v1/sandbox/notice-recipients/verification':
      return { channel: 'email', address: 'success@simulator.amazonses.com', code: '000000' };
    case 'PUT /v1/customers/{customerId}/connectors/{connectorId}/register/individual':
      return { ...bespokeIndividual };
    case 'PUT /v1/customers/{customerId}/connectors/{connectorId}/register/business':
      // Another customerId's first registration (the fixture's customer is an individual): 201.
      return { registeredName: 'Nkosi Traders', registrationNumber: '2019/123456/07', countryIsoCode2: 'ZA' };
    case 'POST /v1/onramp/references':
      return { customerId: f.customerId, connectorId: BESPOKE_CONNECTOR_ID, walletId: f.wallet };
    case 'PUT /v1/onramp/references':
      return { references: [{ reference: f.reference, isActive: true }] };
    case 'PUT /v1/onramp/references/{reference}':
      return { walletId: f.wallet };
    case 'POST /v1/sandbox/onramp/references/{reference}/receipts':
      return { amount: 100, currency: 'ZAR' };
    case 'POST /v1/portal/sign-in':
      return { email: f.people.ownerEmail };
    case 'POST /v1/portal/sessions':
      return { ...f.people.pendingCode };
    case 'POST /v1/portal/token':
      return { environment: 'sandbox' };
    case 'POST /v1/team/members':
      return { email: newEmail('invited'), role: 'viewer' };
    case 'POST /v1/credentials':
      return { kind: 'client', name: 'Fuzz' };
    case 'POST /v1/sandbox/customers/{customerId}/connectors/{connectorId}/decision':
      // The decision it has: answered again.
      return { decision: 'VERIFIED' };
    default:
      return undefined;
  }
}

/** The value of each path parameter in the fixture's valid request of a route. */
function paramValue(key: string, param: string, f: Fixture): string {
  switch (param) {
    case 'assetCode':
      return 'USDC';
    case 'walletId':
      return key === 'POST /v1/sandbox/wallets/{walletId}/kyc' ? f.pendingWallet : f.wallet;
    case 'beneficiaryId':
      return f.beneficiary;
    case 'destinationId':
      return f.destination;
    case 'connectorId':
      if (key.includes('/customers/')) return BESPOKE_CONNECTOR_ID;
      return key.startsWith('POST /v1/provider-notifications/') ? RAMP_CONNECTOR_ID : CONNECTOR_ID;
    case 'reference':
      return f.reference;
    case 'customerId':
      return key.endsWith('/register/business')
        ? `fixture-business-${randomUUID().slice(0, 8)}`
        : f.customerId;
    case 'transactionId':
      return f.transaction;
    case 'webhookId':
      // The one the valid DELETE leaves active: deliveries are made to it, and test events sent.
      return key.includes('/deliveries') || key.endsWith('/test') ? f.deliveryWebhook : f.webhook;
    case 'deliveryId':
      return f.delivery;
    case 'environment':
      return 'sandbox';
    case 'transactionRecordId':
      return f.rampTransaction;
    case 'outcome':
      return 'complete';
    case 'memberId':
      return f.people.removableMemberId;
    case 'credentialId':
      return f.people.revocableCredentialId;
    default:
      throw new Error(`No fixture value for {${param}} of ${key}: add one to test/support/fixtures.ts`);
  }
}

/** The path parameters of a route, in order. */
export const paramsOf = (route: Route): string[] =>
  [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);

/** The request that succeeds for `route` as the fixture's caller; `params` replaces path parameters raw. */
export function validRequest(route: Route, f: Fixture, params: Record<string, string> = {}): RequestSpec {
  const key = routeKeyOf(route);
  const body = validBody(key, f);
  const bodyRoute = operationFor(route).body !== undefined;
  assert.equal(body !== undefined, bodyRoute, `${key}: a valid body exactly when the route takes one`);
  const path = route.path.replace(
    /\{(\w+)\}/g,
    (_, name: string) => params[name] ?? paramValue(key, name, f),
  );
  const query = VALID_QUERY[key]?.(f);
  return {
    method: route.method,
    path: query ? `${path}?${query}` : path,
    ...(body === undefined ? {} : { body }),
    auth: route.auth,
  };
}

/** Adds query members to a request's path. */
export const withQuery = (path: string, query: string): string =>
  `${path}${path.includes('?') ? '&' : '?'}${query}`;

/** Every route of lib/routes.ts with its route key. */
export const allRoutes = (): { key: string; route: Route }[] =>
  routes.map((route) => ({ key: routeKeyOf(route), route }));

/**
 * Headers that authenticate `spec` as the fixture's caller; a provider's notification is signed over
 * the spec's body as JSON.stringify writes it (the tests send it so).
 */
export function credentials(
  spec: Pick<RequestSpec, 'auth' | 'body'>,
  f: Fixture,
): { apiKey?: string; token?: string; headers?: Record<string, string> } {
  if (spec.auth === 'providerSignature')
    return {
      headers: {
        [SIGNATURE_HEADER]: signNotification(f.providerSecret, JSON.stringify(spec.body), new Date()),
      },
    };
  switch (spec.auth) {
    case 'token':
      return { apiKey: f.caller.tenant.apiKey, token: f.caller.token };
    case 'apiKey':
      return { apiKey: f.caller.tenant.apiKey };
    case 'person':
      return { token: f.people.token };
    case 'session':
      return { headers: { cookie: f.people.cookie } };
    default:
      return {};
  }
}

// ── raw JSON ───────────────────────────────────────────────────────────────────────────────────

/** `depth` nested arrays (`[[…]]`) or objects (`{"a":{"a":…}}`) around `leaf`: `[]`-style depth counts each. */
export function nested(depth: number, kind: 'array' | 'object', leaf = '"x"'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}${leaf}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}${leaf}${'}'.repeat(depth)}`;
}

export type MemberPath = (string | number)[];

const MARK = '\u0000member-under-test\u0000';

/**
 * `body` as JSON text with the member at `path` replaced by `raw`: JSON text spliced in verbatim, or
 * bytes (then the result is bytes, and need not be UTF-8). An empty path replaces the whole body.
 */
export function bodyWith(body: unknown, path: MemberPath, raw: string | Uint8Array): string | Buffer {
  let text: string;
  if (path.length === 0) {
    text = JSON.stringify(MARK);
  } else {
    const copy = structuredClone(body) as Record<string | number, unknown>;
    let parent: Record<string | number, unknown> = copy;
    for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
    parent[path.at(-1) as string | number] = MARK;
    text = JSON.stringify(copy);
  }
  const [before = '', after = ''] = text.split(JSON.stringify(MARK));
  if (typeof raw === 'string') return `${before}${raw}${after}`;
  return Buffer.concat([Buffer.from(before), raw, Buffer.from(after)]);
}

/** Every member of a JSON value with its path: leaves (strings, numbers, booleans) and containers. */
export function membersOf(value: unknown, path: MemberPath = []): { path: MemberPath; value: unknown }[] {
  const own = path.length ? [{ path, value }] : [];
  if (Array.isArray(value)) return [...own, ...value.flatMap((v, i) => membersOf(v, [...path, i]))];
  if (value && typeof value === 'object')
    return [...own, ...Object.entries(value).flatMap(([k, v]) => membersOf(v, [...path, k]))];
  return own;
}

/** How a field error names a member path (`individual.firstName`, `tags.0.key`). */
export const fieldName = (path: MemberPath): string => path.join('.');

// ── the table ──────────────────────────────────────────────────────────────────────────────────

/** Every item of the caller's tenant partition (`T#<environment>#<associationId>`), in key order. */
export async function partitionItems(caller: Caller): Promise<Record<string, unknown>[]> {
  const pk = tenantScope({
    environment: caller.tenant.environment,
    associationId: caller.tenant.associationId,
  });
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** Runs `tasks` with at most `concurrency` in flight; results in task order. */
export async function pooled<T>(tasks: (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await (tasks[index] as () => Promise<T>)();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  return results;
}
