// What the OpenAPI document says about each operation of lib/routes.ts beyond its request schemas
// (which come from lib/operations): its words, its success response, and the problem statuses it adds
// to the ones every route shares (openapi/problems.ts). What a whole group of routes shares is in its
// tag's description (openapi/tag-docs.ts), what every route shares in the introduction (description.ts).
import { assetExample, assetPage, assetResource } from '../lib/assets/responses.ts';
import { tokenExample, tokenResponse } from '../lib/auth/responses.ts';
import {
  beneficiaryExample,
  beneficiaryPage,
  beneficiaryResource,
  beneficiaryWithDestinationsExample,
  beneficiaryWithDestinationsResource,
  paymentDestinationExample,
  paymentDestinationPage,
  paymentDestinationResource,
} from '../lib/beneficiaries/responses.ts';
import {
  connectorExample,
  connectorPage,
  connectorWithExecutionExample,
  connectorWithExecutionResource,
  enumsExample,
  enumsResource,
  requirementsExample,
  requirementsResource,
} from '../lib/connectors/responses.ts';
import { customerDecisionResource, customerExample, customerResource } from '../lib/customers/responses.ts';
import type { ProblemStatus } from '../lib/http/problem.ts';
import { recipientResource } from '../lib/notifications/schema.ts';
import {
  referenceExample,
  referenceList,
  referencePage,
  referenceResource,
  sandboxReceiptResource,
} from '../lib/onramp-references/responses.ts';
import {
  acceptanceExample,
  paymentAcceptance,
  rampOutcomeExample,
  rampOutcomeResource,
  readTransactionExample,
  transactionExample,
  transactionPage,
  transactionResource,
} from '../lib/payments/responses.ts';
import { providerNotificationReceipt } from '../lib/providers/responses.ts';
import { quoteExample, quoteResource } from '../lib/quotes/responses.ts';
import type { RouteEntry } from '../lib/routes.ts';
import { statementExample, statementResource } from '../lib/statements/responses.ts';
import {
  sandboxFundingExample,
  sandboxFundingPendingExample,
  sandboxFundingPendingResource,
  sandboxFundingResource,
  walletExample,
  walletPage,
  walletResource,
} from '../lib/wallets/responses.ts';
import {
  createdWebhookResource,
  deliveryExample,
  deliveryPage,
  deliveryResource,
  webhookExample,
  webhookPage,
  webhookResource,
} from '../lib/webhooks/responses.ts';
import type * as z from '../lib/zod.ts';
import { developersDocs } from './developers-docs.ts';
import { md } from './markdown.ts';
import { OFFRAMP_LIMITS, PAYMENT_RULES, RAMP_RULES } from './payment-docs.ts';
import { portalDocs } from './portal-docs.ts';

export type OperationName = RouteEntry['operation'];

export interface OperationDoc {
  tag: string;
  summary: string;
  description?: string;
  success: {
    status: 200 | 201 | 202;
    description: string;
    schema: z.core.$ZodType;
    example: unknown;
  };
  /** A 200 besides a 201 success, with the same body: what it means here. */
  alsoOk?: string;
  /** A 202 besides the success: taken but not finished, and how the caller finishes it. */
  accepted?: { description: string; schema: z.core.$ZodType; example: unknown };
  /** What the operation's own query members mean, by name (pagination members are shared). */
  query?: Record<string, string>;
  /** Statuses besides the shared ones, and shared ones whose meaning here is worth saying. */
  problems?: Partial<Record<ProblemStatus, string>>;
}

/** A page example: one item and a next page. */
const pageExample = (item: unknown) => ({
  data: [item],
  pagination: { nextCursor: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8', hasMore: true },
});

const ok = (description: string, schema: z.core.$ZodType, example: unknown) =>
  ({ status: 200, description, schema, example }) as const;
const created = (description: string, schema: z.core.$ZodType, example: unknown) =>
  ({ status: 201, description, schema, example }) as const;

const acceptedPayment = (description: string) =>
  ({ status: 202, description, schema: paymentAcceptance, example: acceptanceExample }) as const;

const PAYMENT_PROBLEMS = {
  403: 'A wallet that is not Verified (`errors` names it).',
  404: 'A wallet, beneficiary or destination that is not the caller’s (`errors` names it).',
  409: 'The `transactionId` was used with another route or body, or a wallet whose ledger account could not be opened.',
} as const;

/** What both customer registration routes say. */
const CUSTOMER_RULES =
  'Registers the caller’s customer (`customerId`: its own id, 1 to 64 of `A-Za-z0-9_-`) with a BESPOKE connector’s provider, which reviews the identity and decides later: Customer_Verified or Customer_Rejected follows by webhook, with the registration in `data`. The members the connector’s provider needs (its compliance requirements for a customer paying you) are 422s, one error each. Idempotent on the body: the same body again answers 200 with the registration as it stands; another body while the review is PENDING is a 409; another body after a decision starts the next review (200, PENDING, `review` + 1).' +
  ' Details:' +
  md(
    '',
    '- A BESPOKE connector (`flow`, the seed’s `za-bank-onramp-zar-usdc`) is provider-initiated: the caller registers its customers with the connector’s provider, then on-ramp references for them. `customerId` is the caller’s own id (else a 400 naming it). An unknown connector is a 404; a STANDARD or inactive one, or one that does not serve the customer’s kind paying this business (C2B for an individual, B2B for a business), is a 422 naming `connectorId`.',
    '- Body: the identity, at the top level, in the beneficiary routes’ `individual` / `business` shapes (unknown members, wrong types: 400s naming them). The seed connector needs firstName, lastName, dateOfBirth, idType, idNumber (individual) and registeredName, registrationNumber, countryIsoCode2 (business).',
    '- The first registration answers 201 `{customerId, connectorId, kind, status: "PENDING", review: 1, individual|business, reason: null, createdAt, updatedAt, decidedAt: null}`; the same body again 200 with the registration as it stands (whatever its status; the same body after a REJECTED decision is answered as it stands, not reviewed again); another body while PENDING a 409 naming `body`; another body after a decision 200 with the next review, sent to the provider as a new review. Another tenant’s customerId of the same value is another registration.',
    '- The provider is asked before anything is written (503 unavailable or not set up, 504 no answer in time, 502 refused: nothing written), under a reference derived from the registration and the review, so a retry asks it about the same review.',
    '- The decision arrives as the provider’s signed `customer` notification and moves the registration from PENDING once, for the review it names (a late decision of an earlier review changes nothing): `VERIFIED` or `REJECTED` (with `reason`), `decidedAt` set, and the event `Customer_Verified` or `Customer_Rejected` (source `customers`, `data` the registration as the GET shows it; one event per review).',
  );

const CUSTOMER_PROBLEMS = {
  404: 'No such connector.',
  409: 'Another body while the provider is still reviewing the first.',
  422: 'A connector that is not BESPOKE or not active (`connectorId`), or identity members its provider needs (each named).',
  502: 'The provider refused the registration.',
  503: 'The connector’s provider is unavailable or not set up; nothing was written.',
  504: 'The connector’s provider did not answer in time; nothing was written.',
} as const;

/** What both routes paying a beneficiary’s CRYPTO destination say. */
const BENEFICIARY_PAYMENT_RULES =
  '`destinationWalletId` is a 400; an unknown beneficiary is a 404 naming `beneficiaryId`, a destination that is not this beneficiary’s a 404 naming `paymentDestinationId`, a BANK or MOBILE_MONEY destination a 422 naming it (pay it with POST /payments/offramp). The destination account must exist and accept the asset (its own trustline): otherwise the record fails with the ledger’s code (`LEDGER_OP_NO_DESTINATION`, `LEDGER_OP_NO_TRUST`). The record carries `beneficiaryFirstName`/`beneficiaryLastName` (a business’s registered name as the first name, the last name null).';

const SANDBOX_ONLY = 'Sandbox applications only: a production application gets 404, as for an unknown route.';

export const operationDocs: Record<OperationName, OperationDoc> = {
  ...portalDocs,
  ...developersDocs,
  issueToken: {
    tag: 'Auth',
    summary: 'Issue an access token',
    description:
      'Client credentials for a short-lived ES256 bearer token (900 s). Needs only `x-service-auth`; the token is bound to that application. Limits count only what the caller proved, per 60 s window by default: 20 tokens per client (counted once its secret matched); 20 failed requests per application from one source address and 100 over all its sources (a wrong secret, an unknown client or another application’s, counted against the application whose key was presented, never the client named). Another application can therefore never spend this one’s limits.' +
      ' The limits are set by `TOKEN_RATE_LIMIT` (20), `TOKEN_FAILURE_LIMIT` (20) and `TOKEN_APPLICATION_FAILURE_LIMIT` (100) per `TOKEN_RATE_WINDOW_SECONDS` (60); the source address is the caller’s IP address as the API’s edge saw it. The two failure windows are read before the secret is checked, so they cap guessing (give or take the requests in flight at once); a source that keeps failing is refused before the whole application is. One application’s windows never hold another’s requests, even from a shared address: the edge’s per-address rules are what limit an address across applications.',
    success: ok('The token.', tokenResponse, tokenExample),
    problems: {
      401: 'Missing or invalid `x-service-auth`, or wrong client credentials.',
      429: 'Too many tokens for this client, or too many failed requests by this application (from this source or in all); `Retry-After` gives the seconds to the next window.',
    },
  },
  listAssets: {
    tag: 'Assets',
    summary: 'List the asset registry',
    description: 'The registry of the caller’s environment, cursor-paginated.',
    success: ok('A page of assets.', assetPage, pageExample(assetExample)),
  },
  getAsset: {
    tag: 'Assets',
    summary: 'Read one asset',
    description:
      'Codes are matched case-insensitively (`usdc` finds `USDC`); a code that is not 1 to 12 letters or digits is a 400, an unknown one a 404.',
    success: ok('The asset.', assetResource, assetExample),
    problems: { 404: 'No such asset in the registry.' },
  },
  listWallets: {
    tag: 'Wallets',
    summary: 'List wallets',
    description:
      'The caller’s wallets, filtered by `assetCode` (any case) and `networkName`, cursor-paginated.',
    query: {
      assetCode: 'Only wallets of this asset (any case).',
      networkName: 'Only wallets on this network (`stellar-testnet`, `stellar-pubnet`).',
    },
    success: ok('A page of wallets.', walletPage, pageExample(walletExample)),
  },
  createWallet: {
    tag: 'Wallets',
    summary: 'Create a wallet',
    description:
      'Opens a ledger account in the background (`activationStatus` pending → active). `metadata` (FICA) is required when `ownAccount` is false; countries are accepted as alpha-2 or alpha-3 in any case and returned as alpha-3. An own wallet is Verified at once; a third party’s stays Pending until a KYC decision.' +
      ' `walletName` is 1–100 characters, not blank; `assetCode` a registry code in any case; `ownAccount` defaults to false. Any other member (`networkName`, `type`, `custody`, …) is a 400 `is not accepted`. `metadata` is `{entityType: "Person", firstName, lastName, dateOfBirth (YYYY-MM-DD), idType (NATIONAL_ID | PASSPORT | DRIVERS_LICENSE), idNumber, nationality}` or `{entityType: "Business", registeredName, registrationNumber, registrationCountry}`, no other members. A malformed request (a type, a missing or unknown member, a blank name, a country code that is not 2–3 letters, a malformed date) is a 400; a well-formed value that names nothing (an asset not in the registry, a 2–3 letter code that is no country) is a 422. Both name the field (`metadata.nationality`).',
    success: created('The wallet, activationStatus pending.', walletResource, {
      ...walletExample,
      activationStatus: 'pending',
      balances: [],
    }),
    problems: {
      422: 'An asset not in the registry, or a 2–3 letter code that is no country.',
      429: 'The association created as many wallets in this window as it may: `WALLET_CREATE_LIMIT` (1,000) per `WALLET_CREATE_WINDOW_SECONDS` (3,600), a fixed window of its own, since each wallet’s ledger reserve is paid by the platform. `Retry-After` gives the seconds to the next window; nothing was written.',
    },
  },
  getWallet: {
    tag: 'Wallets',
    summary: 'Read a wallet with its balances',
    success: ok(
      'The wallet; `balances` is null when the ledger cannot be read.',
      walletResource,
      walletExample,
    ),
    problems: { 404: 'No such wallet for the caller.' },
  },
  listBeneficiaries: {
    tag: 'Beneficiaries',
    summary: 'List beneficiaries',
    description: 'Cursor-paginated; items come without their payment destinations.',
    success: ok('A page of beneficiaries.', beneficiaryPage, pageExample(beneficiaryExample)),
  },
  createBeneficiary: {
    tag: 'Beneficiaries',
    summary: 'Create a beneficiary',
    description:
      'Exactly one of `individual` or `business` (both or neither → 400 naming both); at most 5 addresses and 20 tags (the Beneficiaries tag has the members). `classification` and `unverifiedTier` are derived: `displayName`, those read-only members and unknown members are 400s naming them.',
    success: created('The beneficiary.', beneficiaryResource, beneficiaryExample),
    problems: { 422: 'A well-formed country code that is no country.' },
  },
  getBeneficiary: {
    tag: 'Beneficiaries',
    summary: 'Read a beneficiary with its payment destinations',
    description: 'The beneficiary with its `paymentDestinations` nested.',
    success: ok('The beneficiary.', beneficiaryWithDestinationsResource, beneficiaryWithDestinationsExample),
    problems: { 404: 'No such beneficiary for the caller.' },
  },
  updateBeneficiary: {
    tag: 'Beneficiaries',
    summary: 'Change a beneficiary (JSON merge patch)',
    description:
      'RFC 7396: present members replace, `null` removes an optional member, absent ones stay, nested objects merge, arrays replace. The merged beneficiary must still be valid (a 400 otherwise); switching individual ↔ business is a 400. Of two concurrent edits the later one is a 409.',
    success: ok('The changed beneficiary.', beneficiaryResource, beneficiaryExample),
    problems: {
      404: 'No such beneficiary for the caller.',
      409: 'Another request changed the beneficiary at the same time; read it and retry.',
      422: 'A well-formed country code that is no country.',
    },
  },
  listPaymentDestinations: {
    tag: 'Payment destinations',
    summary: 'List a beneficiary’s payment destinations',
    description:
      'Cursor-paginated. `method` filters by BANK, MOBILE_MONEY (MOMO is an alias) or CRYPTO in any case; anything else is a 400.',
    query: { method: 'BANK, MOBILE_MONEY (MOMO is an alias) or CRYPTO, any case.' },
    success: ok(
      'A page of payment destinations.',
      paymentDestinationPage,
      pageExample(paymentDestinationExample),
    ),
    problems: { 404: 'No such beneficiary for the caller.' },
  },
  createPaymentDestination: {
    tag: 'Payment destinations',
    summary: 'Add a payment destination',
    description: md(
      'Every method: `method`, `countryIsoCode2`, `currencyIsoCode3` (real ISO 4217; an unknown one is a 422), `verifyAsMe` (default false); `networkId`, `assetId`, `connectorId` are 400s. Account and mobile numbers are masked in every answer.',
      '- `BANK`: `accountNumber`, `bankCode` (bank or branch code), `accountHolderName`, `bankName?`, `accountType?` (CURRENT | SAVINGS | CHEQUE | TRANSMISSION). Per-country formats (the schema’s `accountNumber` and `bankCode` list them): ZA 9–11 digits and a 6-digit branch code; KE 10–14 digits and a 2–5 digit code; NG a 10-digit NUBAN and a 3-digit bank code; GB 8 digits and a 6-digit sort code; elsewhere 4–34 letters or digits and a 2–11 character code. A violation is a 400 naming the field.',
      '- `MOBILE_MONEY`: `mobileNumber` (E.164; a number of another country than the destination’s is a 422) and `provider` (2–30 characters, upper-cased).',
      '- `CRYPTO`: `networkName` (the caller’s environment’s network, else a 422), `assetSymbol` (in the registry, else a 422), `walletAddress` (a G… account or M… muxed address, else a 400).',
    ),
    success: created('The payment destination.', paymentDestinationResource, paymentDestinationExample),
    problems: {
      404: 'No such beneficiary for the caller.',
      422: 'An unknown country or currency, a mobile number of another country, another network, or an asset not in the registry.',
    },
  },
  getPaymentDestination: {
    tag: 'Payment destinations',
    summary: 'Read a payment destination',
    success: ok('The payment destination.', paymentDestinationResource, paymentDestinationExample),
    problems: { 404: 'No such destination under this beneficiary of the caller.' },
  },
  listConnectors: {
    tag: 'Connectors',
    summary: 'List connectors',
    description:
      'The catalogue of the caller’s environment, filtered by `countryIsoCode2`, `method` (MOBILE_MONEY reads as MOMO), `direction` and `flow`, any case. Inactive connectors are listed with their status. With several filters a page may come back short with `hasMore` true: follow `nextCursor`. A malformed filter or an unknown member is a 400; items come without `execution`.',
    query: {
      countryIsoCode2: 'ISO 3166-1 alpha-2, any case.',
      method: 'BANK, MOMO (MOBILE_MONEY reads as MOMO), CASH…, any case.',
      direction: 'ON_RAMP or OFF_RAMP, any case.',
      flow: 'STANDARD or BESPOKE, any case.',
    },
    success: ok(
      'A page of connectors (without execution steps).',
      connectorPage,
      pageExample(connectorExample),
    ),
  },
  getConnector: {
    tag: 'Connectors',
    summary: 'Read a connector with its execution steps',
    description:
      '`transactionType` picks whose execution steps: `C2C`, `c2c` or `C_2_C` (default C2C); another value is a 400; a type the connector does not list gives `execution: []`.',
    query: {
      transactionType: 'Whose execution steps: C2C, C2B, B2C or B2B, also as c2c or C_2_C (default C2C).',
    },
    success: ok('The connector.', connectorWithExecutionResource, connectorWithExecutionExample),
    problems: { 404: 'No such connector.' },
  },
  getEnums: {
    tag: 'Payments',
    summary: 'Read the compliance vocabularies',
    description:
      '`{purposeOfRemittance, sourceOfFunds, idTypes}`, each a list of `{code, label}`: the codes payments’ `purpose` and source-of-funds members take.',
    success: ok('Purposes of remittance, sources of funds and id types.', enumsResource, enumsExample),
  },
  getRequirements: {
    tag: 'Payments',
    summary: 'Read a connector’s compliance requirements',
    description:
      'The fields a payment through the connector needs, by party, for a transaction type: `{connectorId, transactionType, sender[], beneficiary[], destination[]}`, items `{field, type, required, vocabulary?}`. On on-ramp corridors the sender is the paying counterparty.',
    query: {
      connectorId: 'The connector’s id, any case.',
      transactionType: 'C2C, C2B, B2C or B2B, also as c2c or C_2_C (default C2C).',
    },
    success: ok('The requirements.', requirementsResource, requirementsExample),
    problems: {
      404: 'No such connector.',
      422: 'The connector does not support the transaction type.',
    },
  },
  createQuote: {
    tag: 'Quotes',
    summary: 'Create a quote',
    description:
      'Off-ramp by default; `?type=onramp` prices an on-ramp. Exactly one of `beneficiaryId` (the transaction type is derived) or `transactionType`; both or neither is a 422 on both. Quotes expire after 120 s.' +
      md(
        '',
        '- Any other `type` or query member is a 400. `amount` is > 0 with no more decimals than its currency has. `paymentDestinationId` goes only with `beneficiaryId` (else a 422) and must be that beneficiary’s (else a 404).',
        '- The transaction type derived from a beneficiary: off-ramp, the payer is the association, so the first letter is the association’s kind (business B, individual C) and the second the beneficiary’s; on-ramp, the paying counterparty comes first (a business collecting from a person is `C2B`, as the industry uses the term).',
        '- 422s: a connector of the wrong direction, inactive or BESPOKE (`connectorId`); a type the connector does not support or has OFFLINE (`transactionType`, or `beneficiaryId` when derived); a destination whose method, country or currency does not fit the connector, or a CRYPTO one (`paymentDestinationId`); an amount outside the TRANSACTION limits (the message states the limit) or too small to receive anything. An unknown connector, beneficiary or destination, or another tenant’s, is a 404.',
      ),
    query: { type: '`onramp` (any case) prices an on-ramp; omit it for an off-ramp quote.' },
    success: created('The quote.', quoteResource, quoteExample),
    problems: {
      404: 'Unknown connector, beneficiary or payment destination, or another tenant’s.',
      422: 'A connector of the wrong direction, inactive or bespoke; an unsupported or offline transaction type; a destination that does not fit; an amount outside the limits or too small.',
      503: 'No rate is available for the pair right now (or key material is unavailable).',
    },
  },
  payP2pOwn: {
    tag: 'Payments',
    summary: 'Send an asset between two own wallets',
    description: `Same asset, same amount: the destination receives exactly \`amount\`, no fee; if it has no trustline for the asset, one is opened first (a ledger transaction of its own, shared by every payment that needs it; the platform pays its reserve once). Without a \`memo\`, the ledger transaction carries a hash memo holding the record id. Beneficiary members are 400s; a P2P needs two different wallets (a 422 on \`destinationWalletId\`). ${PAYMENT_RULES}`,
    success: acceptedPayment('Accepted: the record is `initiated`.'),
    problems: {
      ...PAYMENT_PROBLEMS,
      422: 'An asset not in the registry, the same wallet on both sides, or more than the wallet can spend (`amount`).',
    },
  },
  payP2pOwnMulti: {
    tag: 'Payments',
    summary: 'Several transfers between own wallets, atomically',
    description: `One ledger transaction, one operation per transfer in submitted order: all settle or none does, under one record whose \`legs\` list them and whose \`sendAmount\` is their sum, which must itself be an amount a JSON number holds exactly (400 naming \`transfers\` otherwise). Every transfer sends the same asset. At most 40 transfers and 18 distinct wallets (one ledger transaction holds 100 operations and 20 signatures: 40 payments; 18 wallets and the channel account), else a 422 naming \`transfers\`. Each transfer \`{walletId, destinationWalletId, sendingAssetCode, amount}\` is checked like an own P2P, with paths \`transfers.<i>.<member>\`; a transfer of another asset is a 422 on \`transfers.<i>.sendingAssetCode\`. The sum must be exactly a JSON number (at most 15 significant digits: \`600000000.0000001\` + \`600000000\` is not) and at most what the ledger holds. The trustlines its destinations lack are opened before it, by transactions of their own. The record lists \`legs[{legIndex, walletPublicKey, destinationStellarAddress, sendingAsset, amount}]\` (with the wallet ids) in submitted order; \`walletId\`/\`walletPublicKey\` are set when every leg has the same source. A failed multi-transfer moves nothing. ${PAYMENT_RULES}`,
    success: acceptedPayment('Accepted: the record is `initiated`.'),
    problems: {
      ...PAYMENT_PROBLEMS,
      422: 'More than 40 transfers or 18 wallets (`transfers`), mixed assets, a transfer from a wallet to itself, or a wallet’s transfers adding up to more than it can spend (`transfers.<i>.<member>`).',
    },
  },
  payP2pBeneficiary: {
    tag: 'Payments',
    summary: 'Send an asset to a beneficiary’s CRYPTO destination',
    description: `\`sendingAssetCode\` must be the destination’s asset. \`notifyEmail\` or \`notifyWhatsApp\` (not both) tells the beneficiary once the payment completes, at the email or mobile registered on it. ${BENEFICIARY_PAYMENT_RULES} ${PAYMENT_RULES}`,
    success: acceptedPayment('Accepted: the record is `initiated`.'),
    problems: {
      ...PAYMENT_PROBLEMS,
      422: 'A BANK or MOBILE_MONEY destination (pay it with POST /payments/offramp), another asset than the destination’s, both notify flags, a flag without the contact it needs, or more than the wallet can spend (`amount`).',
    },
  },
  paySwapOwn: {
    tag: 'Payments',
    summary: 'Convert an asset into another, between own wallets or within one',
    description: `A strict-send path payment: exactly \`amount\` of the sending asset is spent, and the destination (which may be the source wallet) receives what the ledger’s best path delivers at execution, and never less than the bound set at acceptance: the best path’s amount then (Horizon’s \`/paths/strict-send\`) less the slippage (\`SWAP_SLIPPAGE\`, default 0.01: 1 %), rounded down to the stroop, shown as the record’s \`minReceiveAmount\` (swap records only). At execution the worker finds the best path again and sets \`destMin\` to the larger of that bound and the path’s amount then less the slippage: a swap that waited while the price moved fails with \`LEDGER_OP_UNDER_DEST_MIN\` rather than deliver less. \`receivingAssetCode\` must be in the registry, differ from \`sendingAssetCode\` and have a path on the ledger for this amount now (else a 422 naming it); a ledger that cannot be asked is a 503, nothing accepted. The record then carries \`receiveAmount\` and \`exchangeRate\`. A trustline for the received asset is opened first when needed, by a ledger transaction of its own. ${PAYMENT_RULES}`,
    success: acceptedPayment('Accepted: the record is `initiated`.'),
    problems: {
      ...PAYMENT_PROBLEMS,
      422: 'An asset not in the registry, the same asset on both sides, no conversion path on the ledger (`receivingAssetCode`), or more than the wallet can spend (`amount`).',
      503: 'The ledger could not be reached to find a conversion path; nothing was accepted.',
    },
  },
  paySwapBeneficiary: {
    tag: 'Payments',
    summary: 'Convert an asset and pay it to a beneficiary’s CRYPTO destination',
    description: `\`receivingAssetCode\` must be the destination’s asset, which must already accept it (a trustline of its own). The conversion is a swap’s (the own swap route has the rules). ${BENEFICIARY_PAYMENT_RULES} ${PAYMENT_RULES}`,
    success: acceptedPayment('Accepted: the record is `initiated`.'),
    problems: {
      ...PAYMENT_PROBLEMS,
      422: 'A fiat destination, another asset than the destination’s, no conversion path, notify flags that cannot be honoured, or more than the wallet can spend (`amount`).',
      503: 'The ledger could not be reached to find a conversion path; nothing was accepted.',
    },
  },
  listTransactions: {
    tag: 'Transactions',
    summary: 'List transaction records',
    description:
      'Newest first, cursor-paginated, filtered by any of the members below (together, all must hold). Every status and type the contract names is accepted; one that no record holds yet (a refund, an off-ramp) answers an empty page. A malformed or unknown filter value, `createdFrom` not before `createdTo`, or an unknown member is a 400 naming it. `walletId` with `status` may answer a short page with `hasMore` true (`hasMore` is exact): follow `nextCursor`. Dates are ISO 8601 date-times with an offset.',
    query: {
      status: '`initiated`, `processing`, `completed`, `failed` or `refund_completed`.',
      type: '`p2p`, `swap`, `p2p_multi`, `offramp` or `onramp`.',
      walletId: 'Only records that touch this wallet (as a source or an own destination, in any leg).',
      createdFrom: 'Only records created at or after this ISO 8601 date-time.',
      createdTo: 'Only records created before this ISO 8601 date-time.',
    },
    success: ok('A page of records.', transactionPage, pageExample(transactionExample)),
  },
  getTransaction: {
    tag: 'Transactions',
    summary: 'Read a transaction record',
    description:
      'By the `transactionId` the caller submitted it with, or by its `transactionRecordId`; the `transactionId` is looked up first, so a later payment whose `transactionId` is an earlier record’s id is the record found (the earlier one stays readable by its own `transactionId`). Ids in any case. Another association’s record is a 404, as a missing one. `receiveAmount` and `exchangeRate` are what the ledger delivered: null while the record is `initiated` and on a `failed` record, which received nothing; `sendAmount` is what the payment asked to move, whatever its status. `timeline` is every state change with its time, oldest first: its acceptance, each lifecycle move with the event that made it (the ledger’s outcome, each report of a ramp’s provider, a refund or credit paid), and a move a ledger transaction made with its hash, ledger and network fee. The webhook deliveries about the record: `GET /webhooks/deliveries?resourceId=`.',
    success: ok('The record, with its timeline.', transactionResource, readTransactionExample),
    problems: { 404: 'No such record for the caller.' },
  },
  getStatement: {
    tag: 'Statements',
    summary: 'Read a wallet’s statement',
    description:
      'The wallet’s settled lines for one asset over the range, oldest first: one line per balance movement on the ledger (the source of truth), whether or not it came through this API — payments both ways, both sides of a swap, each leg of a multi-transfer, off-ramp legs and their refunds, on-ramp credits, sandbox funding, an outside account paying the wallet. Records only enrich a line (`description`, `reference`, `transactionRecordId`). `runningBalance` is the wallet’s ledger balance after the line; `openingBalance` is the balance before the range, `closingBalance` at its end (the last line’s runningBalance when the range has lines). `rowId` is the ledger’s id of the movement: the same on every export and every page. Cursor-paginated as every list; the range is read up to now. An asset of the registry the wallet never held answers 200 with no lines and balances 0. With `Accept: text/csv` the same page comes as CSV (RFC 4180, a header row, the same columns and rowIds, UTF-8 with a byte order mark), and the next page’s address in a `Link: <…>; rel="next"` header: follow it until there is none to download a long range page by page (`limit` up to 100 lines a page).',
    query: {
      walletId: 'One of the caller’s wallets (another association’s is a 404).',
      assetCode: 'An asset of the registry (another code is a 422).',
      startDate:
        '`YYYY-MM-DD` (from the first second of that UTC day) or an ISO 8601 instant with a zone; not in the future, not after endDate.',
      endDate:
        '`YYYY-MM-DD` (to the last second of that UTC day, inclusive) or an ISO 8601 instant; not in the future (today is fine), at most 366 days after startDate.',
    },
    success: ok('A page of the statement.', statementResource, statementExample),
    problems: {
      404: 'No such wallet for the caller (`errors` names walletId).',
      422: 'An assetCode that is not in the registry.',
      503: 'The ledger could not be read to bring the statement up to date, or a long history is still being read (`Retry-After`).',
    },
  },
  createWebhook: {
    tag: 'Webhooks',
    summary: 'Register a webhook',
    description:
      'Events of the listed types (or `["*"]` for all, present and future) are POSTed to `url`, signed twice: the Standard Webhooks headers with the returned `secret`, which is shown only here, and `X-Service-Signature` as the contract has it. Store this answer’s `id` and `secret` and verify every delivery against them, never against its own `X-Webhook-Id` (see the Webhooks tag). `url` is https, on port 443 or 8443, to a host whose every address is public (checked now and at each delivery; IPv6 transition forms such as 6to4, NAT64, Teredo and IPv4-compatible addresses count as internal); no credentials in it; its host must resolve now (a name that does not is a 422 naming `url`). **Local stack exception:** the sandbox environment of `npm start` (which sets `WEBHOOKS_ALLOW_LOOPBACK=true`) also takes `localhost` and loopback addresses, over http or https and on any port, so a receiver on the tester’s machine works; no deployed environment does. At most 20 active webhooks per association, and one per URL.' +
      md(
        '',
        '- Answers 201 `{id, url, events, description, status: "active", secret, createdAt, updatedAt, deactivatedAt: null}`. `secret` (`whsec_` and 24 random bytes in base64, the Standard Webhooks form) is kept sealed under the key-encryption key of the tenant’s environment (AES-256-GCM, bound to the registration’s id) and never returned again. `events` is a non-empty list of catalogue types (the Webhooks tag), or `["*"]` alone; an unknown name is a 422 naming `events.<i>`.',
        '- `url`: absolute https on port 443 or 8443, no credentials, and every address its host resolves to public: a private, loopback, link-local (cloud metadata), shared, multicast or reserved address (IPv4-mapped IPv6 judged as the IPv4 address; the transition forms refused whatever they carry: 6to4 `2002::/16` and its relay `192.88.99.0/24`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`, IPv4-compatible `::/96`, Teredo `2001::/32`), a literal of one, another port, or a host that does not resolve is a 422 naming `url`. The port rule holds in every environment, so a registration cannot point deliveries at a host’s SSH or database port. Checked at registration and again at every delivery, on the address the connection itself uses (a name rebound to an internal address is refused, not followed); redirects are not followed.',
        '- At most 20 active registrations per association (a counter written in the same transaction as the registration), else a 422; deleting one frees its slot. One active registration per URL (per association and environment; the URL as normalised, so `HTTPS://Host/x` is `https://host/x`): a second is a 409 naming `url` and the registration that holds it. To change a URL’s event types, delete it and register again.',
      ),
    success: created('The registration, with its secret (shown once).', createdWebhookResource, {
      ...webhookExample,
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    }),
    problems: {
      409: 'A webhook for this URL is active already (`url`, naming it): delete it and register again to change its events.',
      422: 'An event type not in the catalogue (`events.<i>`), a URL that is not absolute, not https, uses a port other than 443 or 8443, carries credentials, does not resolve, or resolves to a private, loopback, link-local or transition address (`url`; loopback only outside the local stack’s sandbox), or the 20 active webhooks already registered.',
    },
  },
  listWebhooks: {
    tag: 'Webhooks',
    summary: 'List webhooks',
    description: 'Active and deactivated registrations, cursor-paginated; secrets never appear.',
    success: ok('A page of registrations.', webhookPage, pageExample(webhookExample)),
  },
  getWebhook: {
    tag: 'Webhooks',
    summary: 'Read a webhook',
    success: ok('The registration.', webhookResource, webhookExample),
    problems: { 404: 'No such webhook for the caller.' },
  },
  deleteWebhook: {
    tag: 'Webhooks',
    summary: 'Deactivate a webhook',
    description:
      'The registration is kept for history, `deactivated` (`deactivatedAt` set), and never reactivated: deliveries stop at once, retries in flight included (every attempt reads the registration first and cancels a pending delivery of a deactivated one). Deleting it again answers the same 200 (idempotent, as Stripe’s deletes). Another association’s registration is a 404, as a missing one.',
    success: ok('The registration, now deactivated.', webhookResource, {
      ...webhookExample,
      status: 'deactivated',
      deactivatedAt: '2026-11-24T10:00:00.000Z',
      updatedAt: '2026-11-24T10:00:00.000Z',
    }),
    problems: { 404: 'No such webhook for the caller.' },
  },
  listWebhookDeliveries: {
    tag: 'Webhooks',
    summary: 'List a webhook’s deliveries',
    description:
      'Newest first: each event sent to the webhook, `{id, webhookId, eventId, eventType, status (pending, delivered, failed, cancelled), attempts[{attempt, at, statusCode, error, latencyMs, responseExcerpt}], body, nextAttemptAt, createdAt, updatedAt}`; `body` is the envelope exactly as sent (every attempt sends the same bytes). `attempts` are the delivery’s last 20 (the schedule’s 11 and the latest redeliveries), oldest first. `error` is null when the receiver answered (`statusCode` holds the status; `responseExcerpt` the first 256 characters), else only a category: `blocked` (the URL or the address it resolved to is not allowed), `dns`, `refused`, `unreachable`, `reset`, `tls`, `invalid_response` (the answer was not HTTP), `timeout`, `connection`; never the error’s words or a byte of a non-HTTP answer. `nextAttemptAt` says when the next attempt is due.',
    success: ok('A page of deliveries.', deliveryPage, pageExample(deliveryExample)),
    problems: { 404: 'No such webhook for the caller.' },
  },
  listResourceDeliveries: {
    tag: 'Webhooks',
    summary: 'List the deliveries about a resource',
    description:
      'Every webhook delivery of an event about one resource — a transaction record (by its `transactionRecordId`), a wallet, a payment destination — whichever of the caller’s webhooks it went to, newest first, each with its attempts and the body sent, as `GET /webhooks/{webhookId}/deliveries` shows them. A payment’s page reads its record and this: two calls. An id of another association’s resource, or of none, is an empty page. Deliveries made before this list existed are on their webhook’s list only.',
    query: {
      resourceId:
        'The resource’s id: a `transactionRecordId`, a `walletId`, a payment destination’s `id` (any case).',
    },
    success: ok('A page of deliveries.', deliveryPage, pageExample(deliveryExample)),
  },
  sendTestEvent: {
    tag: 'Webhooks',
    summary: 'Send a test event',
    description:
      'Queues a `webhook.test` event to this webhook, whatever events it subscribes to, through the same path as every event: signed the same way, attempted and retried on the same schedule, its attempts in the webhook’s deliveries. `data` is `{webhookId, message}`; `source` is `webhooks`. Nothing else happens: no resource changed. A viewer of the portal cannot send one (403). Test events and redeliveries share the webhook’s 5 a minute; more answer 429 with `Retry-After`.',
    success: {
      status: 202,
      description: 'The test event’s delivery, pending: its first attempt follows within seconds.',
      schema: deliveryResource,
      example: {
        ...deliveryExample,
        eventType: 'webhook.test',
        status: 'pending',
        attempts: [],
        body: '{"id":"0c7f3f0e-8f0e-4b43-9d3a-2f0f5d7c1a11","type":"webhook.test","createdAt":"2026-11-24T10:00:00.000Z","source":"webhooks","data":{"webhookId":"8e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b","message":"A test event, sent on request: no payment or other resource changed."},"metaData":{"environment":"sandbox"}}',
        nextAttemptAt: '2026-11-24T10:00:00.000Z',
      },
    },
    problems: {
      404: 'No such webhook for the caller.',
      409: 'The webhook is deactivated.',
      429: 'The webhook’s 5 redeliveries and test events of this minute are used: `Retry-After` says when the next may be asked.',
    },
  },
  redeliverWebhook: {
    tag: 'Webhooks',
    summary: 'Deliver an event again',
    description:
      'One more attempt of an ended delivery (delivered, failed or cancelled), with the same event id and body, to an active webhook. A delivery still pending is answered as it is (and not counted): its next attempt is already scheduled. At most 5 redeliveries and test events a minute per webhook (a fixed window); more answer 429 with `Retry-After`.',
    success: {
      status: 202,
      description: 'The delivery, pending: its attempt follows within seconds.',
      schema: deliveryResource,
      example: { ...deliveryExample, status: 'pending', nextAttemptAt: '2026-11-24T10:00:00.000Z' },
    },
    problems: {
      404: 'No such webhook or delivery for the caller.',
      409: 'The webhook is deactivated, or the delivery changed while the request was made.',
      429: 'The webhook’s 5 redeliveries and test events of this minute are used: `Retry-After` says when the next may be asked.',
    },
  },
  payOfframp: {
    tag: 'Payments',
    summary: 'Pay out to a BANK, MOBILE_MONEY or cash-pickup destination against a quote',
    description: `Executes an off-ramp quote (\`POST /quotes\`) once: amount, fee, receiveAmount, receiveCurrency and rate come from the quote. The quote must be the caller’s, an off-ramp quote, unexpired, for this beneficiary and destination (or, exploratory, for the transaction type the beneficiary gives) and for \`sendingAssetCode\`. \`purpose\`, \`sourceOfFunds\` and \`beneficiarySourceOfFunds\` take codes of \`GET /payments/enums\`; the connector’s requirements (\`GET /payments/requirements\`) say which body members and which beneficiary (\`beneficiary.…\`) and destination (\`paymentDestination.…\`) fields must be present. The destination may be in any verification state; its state and the beneficiary’s classification and tier select the limits (below), with the connector’s own; a payment reserves its amount as it is accepted, so concurrent submissions cannot exceed a limit together (those that fit are accepted, the rest 422 on \`amount\`). Execution: the wallet pays \`total\` (amount + fee) to the connector’s settlement account on the ledger → \`processing\` (\`stellarTxHash\`); the provider is instructed (its reference becomes \`externalReference\`; \`toRef\` is the statement reference) and its notification completes the record (\`completedAt\`). A payout the provider fails, refuses or returns after the ledger leg is \`failed\` and then refunded on the ledger exactly once → \`refund_completed\`; a ledger leg that fails moves nothing (\`failed\`). Provider trouble never answers the submission with 502 or 504: acceptance does not call the provider, so an unavailable or slow provider holds the record in \`processing\` (re-queued, 2 s … 15 min, about 2.8 hours, then the alarmed DLQ) and a refusal fails and refunds it (\`PROVIDER_REJECTED\`). The body: \`transactionId\`, \`walletId\`, \`beneficiaryId\`, \`paymentDestinationId\` (BANK or MOBILE_MONEY; a CRYPTO one is a 422 pointing to P2P and swaps; for a CASH connector any non-CRYPTO destination of the beneficiary, who collects in person), \`quoteId\`, \`sendingAssetCode\`, \`purpose\`, \`sourceOfFunds\`, and this service’s names for what the contract leaves unnamed: \`beneficiarySourceOfFunds\` (the beneficiary’s source of funds) and \`senderPhoneNumber\` (E.164); \`fromRef\`, \`toRef\` (the payout’s statement reference at the provider), \`notifyEmail\`, \`notifyWhatsApp\` (the beneficiary is told, in the fiat paid out, when the provider completes the payout). The provider’s failure codes are \`PROVIDER_FAILED\`, \`PROVIDER_REJECTED\`, \`PAYOUT_RETURNED\` and \`PAYOUT_FAILED_AFTER_COMPLETION\` (a payout the provider reports failed after it reported it completed is treated as a return, as card networks and Stripe treat a payout that fails after it was paid: the wallet is refunded); the refund is an intent of its own (\`refund:<id>\`) and its hash is \`refundTxHash\`. A refund is money the platform owes: one the ledger refuses (the settlement account underfunded, the wallet unable to take the asset) stays \`failed\` and is paid again on a fresh intent, with backoff and then every 15 minutes, until it lands — once. ${PAYMENT_RULES}${RAMP_RULES}${OFFRAMP_LIMITS}`,
    success: acceptedPayment('Accepted: the record is `initiated`.'),
    problems: {
      ...PAYMENT_PROBLEMS,
      404: 'A wallet, beneficiary, destination or quote that is not the caller’s (`errors` names it).',
      409: 'The `transactionId` was used with another route or body; another request under it is still being accepted (retry in a moment: its record is then answered, or this request is accepted if that one was refused); or the quote was already executed by another payment (`quoteId`).',
      422: 'A CRYPTO destination; a quote of another type, expired, or priced for another beneficiary, destination, transaction type or asset (`errors` names the member); a missing compliance field (one error each); a code not in the enums; an amount over a limit (`amount`, naming the limit); a total (amount plus fee) over what the wallet can spend (`amount`).',
      503: 'The connector has no settlement account or no provider configured in this environment; nothing was accepted.',
    },
  },
  payOnramp: {
    tag: 'Payments',
    summary: 'Collect from a counterparty’s mobile money into an own wallet, against an on-ramp quote',
    description: `Executes an on-ramp quote (\`POST /quotes?type=onramp\`) once. \`walletId\` is the caller’s own Verified wallet that receives; \`senderId\` the paying counterparty (a beneficiary of the caller) and \`paymentDestinationId\` its MOBILE_MONEY destination, in the connector’s country and currency. The quote must be the caller’s, an on-ramp quote, unexpired, and priced for the corridor the counterparty’s classification gives (and for that counterparty and destination when it named them). The connector’s required fields (\`GET /payments/requirements\`) must be present: on the body (\`senderSourceOfFunds\`, \`senderIdCountryIsoCode\` — or the counterparty’s \`individual.idCountryIsoCode2\` —, \`receiverSourceOfFunds\`, \`purpose\`), on the counterparty (\`sender.individual.…\`) and on its destination (\`paymentDestination.…\`), one error each. \`notifyEmail\`/\`notifyWhatsApp\` need a contact on the association’s profile, which it does not hold yet: true is a 422. Execution: the provider is asked to collect \`sendAmount\` (\`processing\`, \`externalReference\`); when it reports the collection completed, the connector’s settlement account pays \`receiveAmount\` into the wallet on the ledger (\`completed\`, \`stellarTxHash\`); a declined, expired or returned collection is \`failed\` (\`COLLECTION_FAILED\`, \`COLLECTION_REJECTED\`, \`COLLECTION_RETURNED\`) and nothing moved. Once the provider reports the collection completed the credit is owed: a credit the ledger refuses stays \`processing\` and is paid again on a fresh intent until it lands, once; a later report that the collection failed does not undo it. The settlement account’s payment is crash-safe, the record’s own intent. **Limits**: the connector’s own (\`GET /connectors\`: \`TRANSACTION\`, \`DAILY\`, … in the collected fiat, summed over the association’s on-ramps through that connector that are not \`failed\`, in rolling windows), reserved as an off-ramp’s are, so concurrent collections cannot exceed one together; one over a limit is a 422 on \`amount\` naming it, and a failed collection gives its share back. A provider on-ramp (\`POST /onramp/references\`) is not limited here: its money has arrived at the provider when the receipt is reported. ${PAYMENT_RULES}${RAMP_RULES}`,
    success: acceptedPayment('Accepted: the record is `initiated`.'),
    problems: {
      ...PAYMENT_PROBLEMS,
      404: 'A wallet, counterparty, destination or quote that is not the caller’s (`errors` names it).',
      409: 'The `transactionId` was used with another route or body; another request under it is still being accepted (retry in a moment); or the quote was already executed by another payment (`quoteId`).',
      422: 'A destination that is not MOBILE_MONEY or not the connector’s; a quote of another type, expired, or priced for another counterparty, destination or corridor; a missing required field (one error each); a code not in the enums; a notify flag; an amount over one of the connector’s limits (`amount`, naming it).',
      503: 'The connector has no settlement account or no provider configured in this environment; nothing was accepted.',
    },
  },
  receiveProviderNotification: {
    tag: 'Providers',
    summary: 'A provider’s status notification (not for integrators)',
    description:
      'Where the provider behind a connector reports an instruction’s state. Authenticated only by `X-Provider-Signature: t=<unix ms>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the connector’s secret, and checked on the raw bytes before anything else reads them: a missing, forged or stale (over 5 minutes) signature is one fixed 401 of a few hundred bytes, whatever the path, query or body, and nothing of them is parsed or validated; a signed body that is not the provider contract, or a `notificationId` received before, is a 401 too and changes nothing. Each connector’s signed notifications are counted (600 a minute) after the signature: only its provider can spend its window.' +
      md(
        '',
        '- The provider contract: submit a payout, start a collection, read an instruction’s status — each idempotent by our reference (the record id) — and signed notifications to `POST /v1/provider-notifications/{environment}/{connectorId}`: an instruction’s status (`pending`, `processing`, `completed`, `failed`, `returned`), a `customer` decision, a `receipt` on an on-ramp reference. Requests to the provider are signed the same way; a production provider gets an adapter that speaks its API behind this contract, at the environment’s `PROVIDER_URL_<ENV>`, with its secret set per connector (sealed under the environment’s key-encryption key).',
        '- The local stack’s provider simulator (on its own port, `PROVIDER_URL_SANDBOX` and `PROVIDER_URL_PRODUCTION`) serves every seed connector: an instruction is `pending`, then `processing` 0.1 s later, then `completed` `LOCAL_PROVIDER_COMPLETE_MS` after receipt (3 s by default), each change notified, signed, and retried until the gateway answers 2xx. A `toRef` starting with `HOLD` stays `processing` until a sandbox helper moves it. `POST /faults {mode: unavailable | slow | reject, count, statementReference?}` on the simulator makes it misbehave for testers.',
      ),
    success: ok('Received.', providerNotificationReceipt, { received: true }),
    problems: { 401: 'Bad, stale or replayed signature.' },
  },
  registerIndividualCustomer: {
    tag: 'Customers',
    summary: 'Register an individual customer with a bespoke connector',
    description: CUSTOMER_RULES,
    success: created(
      'The registration, PENDING until the provider decides.',
      customerResource,
      customerExample,
    ),
    alsoOk: 'The same body again (the registration as it stands), or a new review after a decision.',
    problems: CUSTOMER_PROBLEMS,
  },
  registerBusinessCustomer: {
    tag: 'Customers',
    summary: 'Register a business customer with a bespoke connector',
    description: `${CUSTOMER_RULES} A business's identity is the beneficiary routes' \`business\` members; the seed ZA connector needs registeredName, registrationNumber and countryIsoCode2.`,
    success: created('The registration, PENDING until the provider decides.', customerResource, {
      ...customerExample,
      kind: 'business',
      individual: undefined,
      business: {
        registeredName: 'Nkosi Traders (Pty) Ltd',
        registrationNumber: '2019/123456/07',
        countryIsoCode2: 'ZA',
      },
    }),
    alsoOk: 'The same body again (the registration as it stands), or a new review after a decision.',
    problems: CUSTOMER_PROBLEMS,
  },
  getCustomer: {
    tag: 'Customers',
    summary: 'Read a customer’s registration with a connector',
    description: 'Where the provider’s review stands: PENDING, VERIFIED or REJECTED (with its reason).',
    success: ok('The registration.', customerResource, customerExample),
    problems: { 404: 'The caller registered no such customer with this connector.' },
  },
  createOnrampReference: {
    tag: 'On-ramp references',
    summary: 'Register an on-ramp reference for a verified customer',
    description:
      'The connector’s provider issues a reference (`PG` and ten digits in the sandbox) for the caller’s VERIFIED customer of a BESPOKE ON_RAMP connector, bound to one of the caller’s own Verified wallets of the asset the connector pays out. The customer pays the provider quoting it; each receipt is paid by the connector’s settlement account into the bound wallet, as a `provider_onramp` transaction record reported by the payment lifecycle events (metaData.data: netAmount, totalFees, assetCode, reference). An association holds at most 1000 references. Answers 201 `{reference, routeId, customerId, connectorId, walletId, settlementAccount, isActive: true, created}`: the reference is issued for our `routeId` and bound to the caller for good. The wallet is read inside the caller’s tenant only; the connector’s settlement account and provider must be there (503 otherwise).',
    success: created('The reference, active.', referenceResource, referenceExample),
    problems: {
      403: 'The wallet is not Verified (`walletId`).',
      404: 'A wallet that is not the caller’s (`walletId`: another tenant’s reads as missing), a customer the caller did not register with this connector (`customerId`), or no such connector.',
      409: 'The association holds 1000 references already.',
      422: 'A connector that is not BESPOKE, not active or not ON_RAMP (`connectorId`); a customer not VERIFIED (`customerId`); a wallet of another asset, or a third party’s wallet (`ownAccount` false), Verified or not (`walletId`).',
      502: 'The provider refused to issue a reference.',
      503: 'The connector’s provider or settlement account is unavailable or not set up; nothing was written.',
      504: 'The connector’s provider did not answer in time; nothing was written.',
    },
  },
  activateOnrampReferences: {
    tag: 'On-ramp references',
    summary: 'Activate or deactivate references, all or none',
    description:
      '`{references: [{reference, isActive}]}`, 1 to 100, each named once (else a 400): every one must be the caller’s, else a 404 naming it (`references.<i>.reference`) and nothing changes. Answers `{data}`: the references in the order named, as they are now. Receipts on an inactive reference are held for platform operations, not paid; activating it again pays later receipts. A customer’s rejection by the provider deactivates every reference of the customer; one is activated again only while its customer is VERIFIED (a 422 naming it otherwise).',
    success: ok('The references as they are now.', referenceList, {
      data: [{ ...referenceExample, isActive: false }],
    }),
    problems: {
      404: 'A reference that is not the caller’s (`errors` names which).',
      409: 'A reference changed while the request was applied; nothing was changed.',
      422: 'A reference activated whose customer is not VERIFIED (`references.<i>.reference`); nothing was changed.',
    },
  },
  moveOnrampReference: {
    tag: 'On-ramp references',
    summary: 'Move a reference to another own wallet',
    description:
      '`{walletId}`: receipts on the reference are paid into this wallet from now on. Only one of the caller’s own Verified wallets of the asset the connector pays out: another tenant’s is a 404, one not Verified a 403, another asset or a third party’s wallet (`ownAccount` false) a 422 (each naming `walletId`). A reference never leaves its tenant.',
    success: ok('The reference, moved.', referenceResource, referenceExample),
    problems: {
      403: 'The wallet is not Verified (`walletId`).',
      404: 'The reference or the wallet is not the caller’s.',
      409: 'The reference changed while the request was applied.',
      422: 'A wallet of another asset than the connector pays, or a third party’s (`walletId`).',
    },
  },
  listOnrampReferences: {
    tag: 'On-ramp references',
    summary: 'List on-ramp references, page by page',
    description:
      'The caller’s references, oldest first, filtered by any of `customerId`, `connectorId`, `walletId` and `isActive` (combined). Page-numbered as the contract has it: `pageNumber` (≥ 1, default 1) and `pageSize` (1–100, default 20); `count` is the number of matches over all pages. A page past the last is empty, with the same count. Other values of the page members are 400s naming them. Served by one key condition on the caller’s partition (no scan), bounded by the 1000-reference cap.',
    query: {
      pageNumber: 'The page, from 1.',
      pageSize: 'References a page, 1 to 100 (default 20).',
      customerId: 'Only this customer’s references.',
      connectorId: 'Only this connector’s references.',
      walletId: 'Only references bound to this wallet.',
      isActive: '`true` or `false`.',
    },
    success: ok('A page of references.', referencePage, {
      data: [referenceExample],
      pageNumber: 1,
      pageSize: 20,
      count: 1,
    }),
  },
  payIntoReference: {
    tag: 'Sandbox',
    summary: 'A customer pays into an on-ramp reference',
    description: `${SANDBOX_ONLY} The sandbox provider takes a payment of \`amount\` \`currency\` on the reference (a new receipt id) and reports it by its signed receipt notification within a moment: on an active reference the settlement account pays the net amount into the bound wallet; on an inactive one the receipt is held for platform operations. \`amount\` is > 0, at most 1,000,000,000 with at most 2 decimals (else a 400 naming it); answers 202 \`{reference, receiptId, amount, currency, message}\`. The sandbox’s settlement accounts are shared by every tenant, so one receipt is at most 100,000 and an association’s receipts at most 1,000,000 a UTC day (in the receipt’s currency): past either, a 422 naming \`amount\` says the amount and the cap, and nothing is paid in.`,
    success: {
      status: 202,
      description: 'Paid in at the provider.',
      schema: sandboxReceiptResource,
      example: {
        reference: 'PG4821937705',
        receiptId: 'RCPT-1f0c6b1e-8d2a-4c47-9f3e-5a6b7c8d9e0f',
        amount: 1000,
        currency: 'ZAR',
        message: 'Paid in at the provider; its receipt notification pays the wallet within moments.',
      },
    },
    problems: {
      404: 'No such reference for the caller, or a production application.',
      422: 'An amount above the cap of 100,000 a receipt, or past the association’s 1,000,000 a day (`amount`).',
      503: 'The sandbox provider is unavailable.',
    },
  },
  decideCustomer: {
    tag: 'Sandbox',
    summary: 'Decide a customer’s pending review now',
    description: `${SANDBOX_ONLY} Asks the sandbox provider to decide the review (\`VERIFIED\` or \`REJECTED\`) instead of waiting for its own decision (about 2 seconds after registration, verified, unless the customer’s lastName or registeredName starts with REJECT, then rejected, or HOLD, then it waits for this helper). The provider’s signed notification decides the registration within a moment and emits Customer_Verified or Customer_Rejected. Asking for the decision it already has answers it again (202); the other decision is a 409 naming \`decision\`.`,
    success: {
      status: 202,
      description: 'Asked of the provider.',
      schema: customerDecisionResource,
      example: {
        customerId: 'cust-00412',
        connectorId: 'za-bank-onramp-zar-usdc',
        decision: 'VERIFIED',
        message: 'Asked of the provider; its notification decides the registration within moments.',
      },
    },
    problems: {
      404: 'No such registration for the caller, or a production application.',
      409: 'The review was decided the other way.',
      503: 'The sandbox provider is unavailable.',
    },
  },
  settleRampInstruction: {
    tag: 'Sandbox',
    summary: 'Complete, fail or return a ramp’s provider instruction',
    description: `${SANDBOX_ONLY} Asks the sandbox provider to move the record’s instruction (\`complete\` or \`fail\` while it is processing, \`return\` once completed); the provider’s signed notification then moves the record, within a moment. Left alone, the sandbox provider completes an instruction about 3 seconds after receiving it, unless its \`toRef\` starts with \`HOLD\`: such an instruction waits for this helper. \`complete\` and \`fail\` apply while the instruction is pending or processing; asking for where it already is answers it again.`,
    success: {
      status: 202,
      description: 'Asked of the provider.',
      schema: rampOutcomeResource,
      example: rampOutcomeExample,
    },
    problems: {
      404: 'No such record for the caller, or a production application.',
      409: 'Not a ramp, not instructed yet, an instruction that cannot move that way, or `return` of an on-ramp’s collection (only payouts are returned).',
      503: 'The sandbox provider is unavailable.',
    },
  },
  decideKyc: {
    tag: 'Sandbox',
    summary: 'Settle a wallet’s KYC review',
    description: `${SANDBOX_ONLY} \`{decision: "Verified" | "Rejected"}\` ends a third party’s Pending review, once: a second decision is a 409.`,
    success: ok('The wallet with its new status.', walletResource, walletExample),
    problems: {
      404: 'No such wallet for the caller, or a production application.',
      409: 'The review already ended.',
    },
  },
  fundWallet: {
    tag: 'Sandbox',
    summary: 'Fund a wallet with test money',
    description:
      `${SANDBOX_ONLY} Pays the wallet on the ledger from the asset’s issuer (XLM from the funding account), opening the trustline first when an own wallet (\`ownAccount: true\`) does not trust the asset yet (as a payment into it would), and answers 200 once the ledger has it, or 202 while the ledger has not confirmed it yet. Send an \`Idempotency-Key\` to retry safely: the same key with the same request answers the first request’s result, resuming a pending payment until it is confirmed; without one, a retry may fund twice.` +
      md(
        '',
        '- Answers 200 `{walletId, assetCode, amount, status: "succeeded", stellarTxHash}`. A wallet can be funded as soon as `POST /wallets` returns it: while its account is still being opened the helper waits for it (re-reading the wallet every 100 ms, for at most 5 s). A 409 when the account could not be opened (the detail gives the ledger’s reason), or is still not open after those 5 s (try again). An own wallet that does not trust the asset yet gets its trustline first (the reserve topped up by the platform); a third party’s wallet does not. A 422 when the ledger refuses the payment, naming the ledger’s reason; a 503 when the ledger cannot be reached, every channel account stays busy, or the trustline is still being opened, and nothing was sent.',
        '- **Caps.** The sandbox’s funding account and its assets’ issuers serve every sandbox tenant: one call pays at most 10,000 (in the asset’s units), and an association at most 100,000 a UTC day over all its calls (per helper; a retry with the same `Idempotency-Key` is counted once). Past either, a 422 naming `amount` says the amount and the cap, and nothing is paid. The count is taken as the request is accepted: a request refused later still counts.',
        '- With an `Idempotency-Key` the payment’s ledger intent is `sandbox-fund:<environment>:<associationId>:<key>`, so the same key with the same request (wallet, asset code in any case, amount) pays once and answers the same body again, also to two requests at once; the same key with another request is a 409 naming `Idempotency-Key`, and nothing is paid.',
        '- A slow ledger (not closed in time, an answer lost): 202 `{walletId, assetCode, amount, status: "pending", stellarTxHash: null}`. The payment may still land, and it settles without you: after the 202 the gateway resumes the same intent 5 s later and, while it is still pending, again (at most 5 times, then it is set aside for the operators, who are alerted). A retry with the same key answers what it came to (200 or 422) and resumes it too; both look the envelope up before anything else and never build a second one without proof.',
      ),
    success: ok('The payment, in a closed ledger.', sandboxFundingResource, sandboxFundingExample),
    accepted: {
      description:
        'The payment is sent but the ledger has not confirmed it yet (a slow ledger): retry with the same `Idempotency-Key` until it answers 200 (or 422). Without a key, read the wallet’s balances instead.',
      schema: sandboxFundingPendingResource,
      example: sandboxFundingPendingExample,
    },
    problems: {
      404: 'No such wallet for the caller, or a production application.',
      409: 'The wallet’s ledger account is not active yet, or the `Idempotency-Key` was used with another request (`errors` names it).',
      422: 'An asset not in the registry, an amount above the cap of 10,000 a call or past the association’s 100,000 a day (`amount`), or a payment the ledger refuses (e.g. a third party’s wallet without a trustline for the asset; an own wallet gets its trustline first).',
      503: 'The ledger could not be reached, or the wallet’s trustline is still being opened, and nothing was sent (or key material is unavailable).',
    },
  },
  requestRecipientCode: {
    tag: 'Sandbox',
    summary: 'Send a notice recipient its verification code',
    description: `${SANDBOX_ONLY} A sandbox notice (\`notifyEmail\` / \`notifyWhatsApp\`) goes only to a recipient the tenant verified, or to one of SES’s mailbox simulator addresses (\`success@simulator.amazonses.com\`, \`bounce@…\`, \`ooto@…\`, \`complaint@…\`, \`suppressionlist@…\`, each with an optional \`+label\`); to anyone else it is not sent, and the record’s \`notification\` says \`skipped\`, reason \`sandbox: recipient not verified\`. What a sandbox notice says starts with TEST. This sends \`{channel: "email" | "whatsapp", address}\` a six-digit code, once, valid for 60 minutes: confirm it with POST /sandbox/notice-recipients/verification. Answers 202 \`{channel, address, status: "pending", codeExpiresAt}\`; an address already verified (or a simulator address) 200 with \`status: "verified"\` and nothing sent. A second request while the code is valid is a 409 naming \`address\`; after it expired (or when it could not be sent) a new code is sent. Platform operators can allow an address without a code (\`npm run admin -- notices allow\`). Each code counts towards the association’s daily notice cap (100 messages a UTC day in the sandbox, 10,000 in production, notices and codes together): past it, 429 with \`Retry-After\` (the end of the day).`,
    success: {
      status: 202,
      description: 'The code is sent.',
      schema: recipientResource,
      example: {
        channel: 'email',
        address: 'lerato@example.com',
        status: 'pending',
        codeExpiresAt: '2026-03-01T11:00:00.000Z',
      },
    },
    alsoOk: 'The address is verified already (or an SES mailbox simulator address): nothing was sent.',
    problems: {
      404: 'A production application.',
      409: 'A code sent to the address is still valid (`address`).',
      429: 'The association’s daily notice cap is reached; `Retry-After` says when the day ends.',
      503: 'No sender of the channel is configured, or it did not take the code: nothing was sent.',
    },
  },
  confirmRecipient: {
    tag: 'Sandbox',
    summary: 'Confirm a notice recipient’s code',
    description: `${SANDBOX_ONLY} \`{channel, address, code}\`: the code the recipient received from POST /sandbox/notice-recipients. Right and in time, the address is verified for good: the association’s sandbox notices to it are sent from now on. A wrong code is a 422 naming \`code\`; after 5 wrong codes, or once it expired, the code no longer verifies (ask for a new one once it expired). Confirming an address verified already answers it again.`,
    success: ok('The recipient, verified.', recipientResource, {
      channel: 'email',
      address: 'lerato@example.com',
      status: 'verified',
      codeExpiresAt: null,
    }),
    problems: {
      404: 'No code was sent to the address (`address`), or a production application.',
      422: 'A wrong or expired code, or 5 wrong codes already (`code`).',
    },
  },
  verifyPaymentDestination: {
    tag: 'Sandbox',
    summary: 'Settle a payment destination’s verification',
    description: `${SANDBOX_ONLY} \`{decision: "APPROVED" | "REJECTED"}\` decides a BANK or MOBILE_MONEY destination’s verification, once, as platform operations would (\`npm run admin -- destination review\`).`,
    success: ok('The destination with its new status.', paymentDestinationResource, {
      ...paymentDestinationExample,
      verificationStatus: 'APPROVED',
    }),
    problems: {
      404: 'No such destination for the caller, or a production application.',
      409: 'The verification already ended, or the destination needs none (CRYPTO).',
    },
  },
};
