// Descriptions of the document's tags (Markdown): what a group of routes is for, and what holds for
// every route of the group (a resource's members, a lifecycle several routes share), so that each
// operation's own description says only what is its own.
import { md } from './markdown.ts';
import { paymentsTagDescription } from './payment-docs.ts';
import { webhookTagDescription } from './webhook-docs.ts';

const transactionsTagDescription = md(
  'The records payments leave, read one at a time or listed with filters.',
  '- Every member is present, null where it does not apply, except `legs`, which only a multi-transfer’s record carries: `type` (`p2p`, `swap`, `p2p_multi`, `offramp`, `onramp`, `provider_onramp`), `isP2pTransfer`, `sendAmount`, `originalSendAmount`, `sendCurrency`, `receiveAmount`, `receiveCurrency`, `fee` (0 for P2P and swaps) and `feeCurrency`, `exchangeRate`, `sendingAsset`, `receivingAsset` (codes), wallet and destination ids and addresses, beneficiary members, `fromRef`, `toRef`, `memo`, `notification`, `legs[…]`, `idempotencyKey` (= `transactionId`), `intentId`, `stellarTxHash`, `errorCode`, `failureReason`, `createdAt`, `updatedAt`, `completedAt`. The ramp members (`connectorId`, `connectorName`, `method`, `destinationCountryIso`, `quoteId`) and `externalReference` are null for P2P and swaps; off-ramps and on-ramps fill them (the Payments routes say how).',
  '- What the figures mean, as Wise’s transfer figures do: `sendAmount` (= `originalSendAmount`; a multi-transfer’s gross sum of legs) is what the payment asks to move, whatever its status; it is debited when the record completes, and a `failed` record debited nothing. `receiveAmount` and `exchangeRate` are what the ledger delivered: set when the record completes (a P2P receives the amount, rate 1; a swap what its path delivered, rate = receiveAmount / sendAmount to 7 places), null while it is `initiated` (nothing is received yet, and a swap’s figure is not known), and null on a `failed` record, which received nothing: null, not 0, because no conversion happened to give a rate, and a figure of 0 would read as a payment that delivered nothing.',
);

const referencesTagDescription = md(
  'References a verified customer pays into at a BESPOKE on-ramp provider, each bound to one of your own Verified wallets: what the customer pays against a reference is paid, net of fees, into that wallet on the ledger.',
  '- **Receipts**: a customer pays the provider quoting the reference; the provider’s signed `receipt` notification `{notificationId, kind: "receipt", receiptId, reference, amount, currency}` is decided by its signature (the connector’s secret) and its receipt id alone: the reference’s binding names the tenant, the tenant’s reference names the wallet. The receipt is priced as an on-ramp quote of its amount (the connector’s fee out of it, the rest at the environment’s rate, rounded down to the asset’s decimals), and a `provider_onramp` transaction record is written `initiated` with the receipt taken, in one transaction: the record’s id and its ledger intent (`provider-receipt:<env>:<connector>:<receiptId>`) derive from the receipt id, so a receipt reported any number of times, at once or later, is one record and one ledger payment. The settlement account pays `receiveAmount` into the wallet (crash-safe, as every payment) → `completed`.',
  '- The record: `sendAmount`/`sendCurrency` what the customer paid (ZAR), `fee` the total fees, `receiveAmount` the net amount (USDC), `idempotencyKey` and `externalReference` the receipt id, `toRef` the reference, `quoteId` null. Its `payment.initiated` and `payment.completed` events carry `metaData.data: {netAmount, totalFees, feeCurrency, assetCode, reference}`. Worked figures: 1000 ZAR → fee 0.8 % + 5.00 = 13 ZAR → 987 / 18.50 = 53.35 USDC.',
  '- **Held receipts**: a receipt on an unknown or inactive reference, for a customer the provider has rejected, in another currency, not covering the fee, or outside the connector’s `limits` (below its TRANSACTION minimum, above its maximum, or taking your association’s receipts through the connector over a DAILY, WEEKLY or MONTHLY limit) is held, never paid to a guessed wallet; its reason says which. A paid receipt counts toward those limits as every ramp does (reserved as it is decided, so receipts arriving together cannot pass a limit together). Platform operations list held receipts (`npm run admin -- receipts list --environment sandbox --connector za-bank-onramp-zar-usdc`) and resolve each, once (`receipts resolve … --receipt <id> --reference <ref>`: paid to that active reference’s wallet, having been reviewed, and counted toward the limits; or `--returned <note>`: returned to the payer by the provider).',
);

// A new record type's statement lines are one entry of lib/statements/describe.ts (without one they read
// as the ledger's). The lines are materialised by lib/statements/ledger-sync.ts: one partition per
// wallet, a sync item holding Horizon's cursor (`join=transactions` on the operations for the hash and
// memo); opening and closing balances are two one-item Queries, the page's records and wallet names
// one BatchGetItem. Outside movements need no stream: the catch-up reads them where they are.
const statementsTagDescription = md(
  'A wallet’s settled ledger lines per asset, with running balances and stable row ids, as JSON or CSV.',
  '- **The ledger is the source of truth.** A line is one balance movement of the wallet’s ledger account in the asset, as Horizon reports it (its effects: `account_credited`, `account_debited`, and the account’s opening for XLM), whether or not it came through this API: both sides of a P2P, both sides of a swap (the debit in one asset, the credit in the other), each leg of a multi-transfer (its own line, its own rowId), an off-ramp’s ledger leg and its refund, an on-ramp’s credit, sandbox funding, an outside account paying the wallet. Records only enrich a line: the transaction’s hash memo names the record (every payment the gateway makes carries it unless the caller gave a text `memo`), and the record is taken only if its `stellarTxHash` (or `refundTxHash`) is the line’s transaction and it touches the wallet, so a memo an outsider copies names nothing.',
  '- **Line members**: `rowId`, `date` (ledger close time, to the second), `direction` (`credit`/`debit`), `amount` (positive), `assetCode`, `runningBalance`, `description`, `reference`, `transactionRecordId`, `transactionType`, `counterparty` (the other account of the movement on the ledger), `stellarTxHash`. `description` goes by record type and side: “P2P to Treasury” / “P2P from Main” (the own wallet’s name, else the beneficiary’s, else the address), “Swap USDC → EURC”, “Transfer to/from …” (multi-transfer legs), “Payout to Amina Odhiambo (KE mobile money)” and “Refund of payout to …”, “Collection from … (KE mobile money)”; without a record: “Sandbox funding” (the asset’s issuer paying, sandbox), “Account opened”, “Received from G…ABCD” / “Sent to G…ABCD”. `reference` is the viewing wallet’s own: the sender’s `fromRef`, the recipient’s `toRef` (a refund goes back to the sender, who sees `fromRef`).',
  '- **`rowId`** is the ledger’s id of the movement (Horizon’s effect id: operation id and the effect’s position), so it is the same on every export and every page, and two lines of one transaction differ.',
  '- **Balances are exact**: `runningBalance` is the wallet’s ledger balance in the asset after the line; `openingBalance` the balance before the range, `closingBalance` the balance at its end, both 0 for an asset of the registry the wallet never held (200 with no lines). XLM lines are exact because a wallet never pays a fee (the platform fee-bumps every transaction).',
  '- **The envelope**: `{walletId, assetCode, assetIssuer, startDate, endDate, openingBalance, closingBalance, data, pagination}`, cursor-paginated as every list, oldest line first. `startDate` and `endDate` are echoed as the range read: its first and last second (the end is now when the range reaches today).',
  '- **Dates**: `YYYY-MM-DD` is a whole UTC day (startDate from its first second, endDate to its last, inclusive), or an ISO 8601 instant with a zone (`Z` or `±hh:mm`), taken to the second. Each of the four members is required (a 400 naming each missing one); a malformed date, `startDate` after `endDate`, a range over 366 days, or a date in the future (today as a date is not) is a 400 naming the member.',
  '- **CSV**: `Accept: text/csv` (listed before any JSON type) answers the same page as CSV: RFC 4180, CRLF, a header row with the JSON’s member names in order, the same rowIds, numbers in plain decimals, empty fields for null, UTF-8 with a byte order mark so a spreadsheet opens it directly; text a spreadsheet would run as a formula (`=`, `+`, `-`, `@` first) gets a leading `\'`. Each response is one page: the next page’s address is in `Link: <…>; rel="next"`, over the range that page read, so following the links downloads one consistent export; there is no `Link` on the last page.',
  '- **How it stays fast**: the gateway keeps the wallet’s lines, with Horizon’s cursor and the balance of each asset there. A request first reads Horizon’s effects after that cursor (one request when nothing closed since, one per 99 new movements otherwise, each page written with the cursor’s move in one conditional transaction, so two readers catching up at once write the same lines once), then one page of lines and the opening and closing balances: no ledger read per line, and a movement is read from Horizon once in the wallet’s life. A history too long to catch up within 15 s answers 503 with `Retry-After: 1`; what was read stays, and the retry goes on.',
);

const sandboxTagDescription =
  'Test helpers for sandbox applications only (a production application gets 404, as for an unknown route): fund a wallet, decide a KYC or a verification, decide a customer’s review, pay into an on-ramp reference, complete or fail a provider’s payment. They drive the local stack’s provider simulator and ledger the way the real ones would move.';

export const tagDescriptions: Record<string, string> = {
  Auth: 'Access tokens: `POST /auth/token` with the application’s key and client credentials answers a bearer token for 900 s. Fetch a new one before it expires; every other route needs it.',
  Portal:
    'The business portal’s sign-in: a person (not an application) asks for a one-time code by email, signs in with it for a session cookie, and mints short-lived bearer tokens for the public API from it, bound to one tenant and the person’s role there (`viewer`, `developer`, `owner`). These routes take no API key; they answer only the portal’s own pages (same origin).',
  Developers:
    'A tenant’s API keys and clients, made and revoked by its people (owners make and revoke, everyone on the team reads; an application cannot manage credentials), and the request log of what its applications and people changed or failed at, kept 7 days. Secrets are answered once, when made, and stored only as hashes.',
  Team: 'A tenant’s people and their roles, and the audit log of what they did: owners only, with a person’s token from POST /portal/token.',
  Assets: md(
    'The assets of the registry of the caller’s environment, which wallets hold and payments send.',
    '- Record: `{assetCode, assetIssuer, assetType, name, decimals, networkName}`. `assetIssuer` is null for the native asset (XLM); `assetType` is `native`, `credit_alphanum4` or `credit_alphanum12`; `networkName` is `stellar-testnet` (sandbox) or `stellar-pubnet` (production). `decimals` is how many places to show the asset with (2 for USDC and EURC, as their issuers show them), a display hint: balances and ledger amounts keep the ledger’s 7 places, and a P2P payment or a swap may carry up to 7 whatever `decimals` says.',
    '- Codes are matched case-insensitively (`usdc` finds `USDC`). The registry stores them upper case, so two assets that differ only in case cannot both be registered.',
  ),
  Wallets: md(
    'Custodial ledger wallets: own wallets (`ownAccount: true`) and third-party ones that carry the holder’s KYC details (`metadata`), their balances, and their activation on the ledger.',
    '- Resource: `{id, walletName, assetCode, ownAccount, status, accountNumber, networkName, publicKey, activationStatus, balances, metadata, createdAt, updatedAt}`. `accountNumber` is the wallet’s ledger account, the same value as `publicKey`; `networkName` is the asset’s network (`stellar-testnet` in sandbox, `stellar-pubnet` in production). Secrets are never returned.',
    '- `activationStatus` tells where the ledger account is: `pending` (being opened in the background, usually well under a second locally), `active`, or `failed` (with `activationErrorCode` and `activationFailureReason`).',
    '- `balances` is `[]` while pending, the ledger’s balances when active (`{assetCode, balance, assetIssuer, assetType, spendable}`: `balance` a decimal string with 7 places, `assetIssuer` null for XLM), and null when the ledger cannot be read (the wallet is still answered, 200).',
    '- `spendable` (a member added to the contract’s four) is what a payment can take of `balance` now: the balance less its selling liabilities (open offers) and, for XLM, less the account’s minimum reserve, 0.5 XLM × (2 + subentries + sponsoring − sponsored). A new wallet shows `balance: "1.5000000"` XLM and `spendable: "0.0000000"`: that 1.5 XLM is the ledger’s reserve for the account and its trustline, which the ledger never lets it pay out.',
    '- `status`: an own wallet is `Verified` at once; a third party’s is `Pending` until a KYC decision (`Verified` or `Rejected`), which is taken once.',
    '- The ledger account is opened by a funding account of the platform with only its reserve (1 XLM plus 0.5 XLM per trustline); every fee of every wallet transaction is paid by the platform through fee bumps, so a wallet never needs XLM of its own. A wallet of a credit asset gets its trustline in the same transaction.',
    '- `POST /wallets` only writes the record, `pending`; writing the record is what asks for the activation, so a crash can leave neither a record without its activation nor an activation without its record, and an account is opened only for a recorded wallet. The ledger submission is keyed by the wallet (the signed envelope is stored before it is submitted, and looked up by hash after any doubt), so a retry or a message delivered twice never opens a second account.',
    '- `GET /wallets/{walletId}/balances` is gone: the contract removed it in favour of the wallet’s embedded `balances`, so it answers 404 like every removed route.',
  ),
  Beneficiaries: md(
    'The people and businesses payments go to, with their KYC details.',
    '- A beneficiary is exactly one of `individual` `{firstName, lastName, dateOfBirth? (YYYY-MM-DD, not in the future), idType? (NATIONAL_ID | PASSPORT | DRIVERS_LICENSE), idNumber?, idCountryIsoCode2?, email?, mobile? (E.164)}` or `business` `{registeredName, registrationNumber?, countryIsoCode2?, email?, mobile?}`, with optional `addresses[]` (at most 5; `{line1, line2?, city, region?, postalCode?, countryIsoCode2}`) and `tags[]` (at most 20; `{key, value}`, key 1–50 of `A-Za-z0-9_.:-` and unique, value at most 200 characters).',
    '- Countries: two letters, any case, stored upper case; a well-formed code that is no country is a 422.',
    '- `classification` (read-only): `Me` when the beneficiary is the caller itself — a business beneficiary whose `registeredName` equals the (business) association’s name, or an individual whose full name equals the (individual) association’s name, trimmed and in any case; otherwise `Unverified`. `unverifiedTier` (only while Unverified): `TIER_1` once the identity details are complete (individual: dateOfBirth, idType, idNumber, idCountryIsoCode2; business: registrationNumber, countryIsoCode2), else `TIER_0`. Both are recomputed on every change, and select an off-ramp’s limits.',
  ),
  'Payment destinations': md(
    'Where a beneficiary is paid: a bank account, a mobile-money number or a crypto address.',
    '- Answers carry `countryIso` (alpha-2), `countryName`, `currencyCode`, `region` (continent), `verificationStatus` and `verifyAsMe`; account and mobile numbers are masked as `******` and their last 4.',
    '- `verificationStatus`: CRYPTO is `NOT_REQUIRED`; BANK and MOBILE_MONEY are `PENDING` until platform operations (`npm run admin -- destination review --destination <id> --decision APPROVED|REJECTED`) or, in sandbox, `POST /sandbox/payment-destinations/{destinationId}/verification` decide, once. Every state may be paid; the state selects an off-ramp’s limits.',
    '- A destination is read under its own beneficiary only: one under another of the caller’s beneficiaries is a 404.',
  ),
  Connectors: md(
    'The providers’ corridors (country, direction, method, currencies, limits) and what a payment through one requires.',
    '- Connectors are loaded per environment from `seed/connectors.json` (at every local start, and with `npm run admin -- connectors load --environment <env> --file <path>`, which validates the whole file before writing any of it). Settlement details, fee configuration and compliance rules are stored with each connector and never returned.',
    '- `limits` items: `scope` TRANSACTION, DAILY, WEEKLY or MONTHLY (`duration` 0, 86400, 604800, 2592000 seconds), `type` AMOUNT (with `currency`) or COUNT (`currency` null).',
    '- Ids are lower-case slugs, matched in any case. A BESPOKE connector (`flow`) is provider-initiated: customers are registered with its provider (Customers), then pay into on-ramp references (On-ramp references).',
  ),
  Quotes: md(
    'Priced offers for an off-ramp or an on-ramp through a connector, good until `expiresAt`.',
    '- Rates are fiat per 1 USDC from a rate source per environment: sandbox uses a configured table (ZAR 18.50, KES 129.00, NGN 1550.00, GHS 15.20, XAF 605.00, UGX 3700.00); production’s provider interface has only a configured stand-in so far. A missing rate is a 503.',
    '- Fee = amount × percentage / 100 + fixed, in the sending currency: the business fee row for (association, connector, transaction type) wins when there is one, zero included (`npm run admin -- fees set|clear|list …`); otherwise the connector’s own fee. Fee rows apply to off-ramps only.',
    '- Off-ramp: sendAmount = amount, total = sendAmount + fee, receiveAmount = amount × rate. On-ramp: total = sendAmount = amount, receiveAmount = (amount − fee) / rate, in the wallet’s asset.',
    '- Rounding: each figure to its currency’s minor units (ISO 4217 digits for fiat, the registry’s decimals for ledger assets, USDC 2); fees round half-up, received amounts round down; `total` is the sum of the rounded figures, so it is exact.',
    '- Quote members: `quoteId, type, connectorId, transactionType, beneficiaryId, paymentDestinationId, sendAmount, sendCurrency, receiveAmount, receiveCurrency, fee, feeCurrency, total, rate, expiresAt, createdAt`; `expiresAt` is createdAt + 120 s (`QUOTE_TTL_SECONDS`). Quotes belong to the caller and expire: a payment refuses an expired quote with a 422 naming `quoteId` (“quote expired”), and one already deleted reads as unknown (404).',
  ),
  Payments: paymentsTagDescription,
  Transactions: transactionsTagDescription,
  Customers:
    'Your customers registered with a BESPOKE connector’s provider (individual or business): the provider reviews each registration and its decision arrives as `Customer_Verified` or `Customer_Rejected`.',
  'On-ramp references': referencesTagDescription,
  Statements: statementsTagDescription,
  Providers:
    'Signed notifications from the off-ramp and on-ramp providers, authenticated by the provider’s signature rather than an API key.',
  Sandbox: sandboxTagDescription,
  Webhooks: webhookTagDescription,
};
