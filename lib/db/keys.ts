// Every key of the table is built here, from the tenant and the id: tenant-owned items and their
// tenant-facing index keys start with the tenant scope, so no tenant read can reach another tenant's
// data by construction. Look-ups by id alone exist only on the platform index, which only the admin
// CLI's modules (lib/admin) read; no API function bundles it (test/unit/platform-index.test.ts). The
// pending index is sparse and platform-wide too: only the outbox reconciler queries it.
//
// Access patterns
// | entity             | pk                       | sk                              | index                                   | served to                          |
// |--------------------|--------------------------|---------------------------------|-----------------------------------------|------------------------------------|
// | association        | T#<env>#<assoc>          | ASSOCIATION                     |                                         | auth, beneficiaries (Me), quotes   |
// | wallet             | T#<env>#<assoc>          | WALLET#<walletId>               | platform: WALLET#<walletId>             | /wallets, /sandbox/wallets, admin  |
// |                    |                          |                                 | pending: PENDING#<env>#wallet / <since> | reconciler (activation pending)    |
// |                    |                          |                                 | list1: <scope>#WALLET#ASSET#<code> / <walletId>  | /wallets?assetCode         |
// |                    |                          |                                 | list2: <scope>#WALLET#NETWORK#<name> / <walletId> | /wallets?networkName      |
// |                    |                          |                                 | list3: <scope>#WALLET#ASSET#<code>#NETWORK#<name> / <walletId> | both        |
// | walletCreationWindow | T#<env>#<assoc>        | RATE#wallets#<epochSeconds>     |                                         | POST /wallets (TTL)                |
// | beneficiary        | T#<env>#<assoc>          | BENEFICIARY#<beneficiaryId>     |                                         | /beneficiaries                     |
// | paymentDestination | T#<env>#<assoc>          | PAYDEST#<beneficiaryId>#<id>    | gsi1: T#<env>#<assoc> / PAYDEST#<id>;   | /beneficiaries/{id}/payment-…,     |
// |                    |                          |                                 | platform: PAYDEST#<id>                  | /sandbox/payment-destinations, admin |
// |                    |                          |                                 | list1: <scope>#PAYDEST#<beneficiaryId>#METHOD#<m> / <id> | …?method          |
// | quote              | T#<env>#<assoc>          | QUOTE#<quoteId>                 |                                         | /quotes (TTL)                      |
// | feeRow             | T#<env>#<assoc>          | FEE#<connectorId>#<type>        |                                         | /quotes, admin fees                |
// | transaction        | T#<env>#<assoc>          | TXN#<transactionRecordId>       | list4: <scope>#TXN / <createdAt>#<id>   | /transactions (by creation)        |
// |                    |                          |                                 | (gsi1: T#<env>#<assoc> / TXN#<createdAt>#<id> while a stage reads the projected list indexes) |
// |                    |                          |                                 | pending: PENDING#<env>#transaction / <since> | reconciler (initiated)    |
// |                    |                          |                                 | list1: <scope>#TXN#STATUS#<status> / <createdAt>#<id> | ?status              |
// |                    |                          |                                 | list2: <scope>#TXN#TYPE#<type> / <createdAt>#<id> | ?type                    |
// |                    |                          |                                 | list3: <scope>#TXN#STATUS#<status> / <type>#<createdAt>#<id> | ?status&type  |
// | transactionWallet  | T#<env>#<assoc>          | TXNWALLET#<walletId>#<createdAt>#<id> |                                   | /transactions?walletId (+type, status in the page) |
// | statementLine      | T#<env>#<assoc>#STMT#<walletId> | LINE#<asset>#<closedAt>#<rowId> |                            | /statements/transactions           |
// | statementSync      | T#<env>#<assoc>#STMT#<walletId> | SYNC                     |                                         | /statements/transactions           |
// | rampUseHead        | T#<env>#<assoc>          | RAMPUSE#<connectorId>#HEAD      |                                         | /payments/offramp, onramp (limits) |
// | rampUse            | T#<env>#<assoc>          | RAMPUSE#<connectorId>#USE#<id>  |                                         | /payments/offramp, ramps (TTL)     |
// | webhook            | T#<env>#<assoc>          | WEBHOOK#<webhookId>             |                                         | /webhooks, delivery workers        |
// | webhookCount       | T#<env>#<assoc>          | WEBHOOKS                        |                                         | /webhooks (active registrations)   |
// | webhookDelivery    | T#<env>#<assoc>          | WHDELIVERY#<webhookId>#<id>     |                                         | /webhooks/{id}/deliveries, workers |
// | webhookAttempt     | T#<env>#<assoc>          | WHATTEMPT#<webhookId>#<id>#<nnnn> |                                       | /webhooks/{id}/deliveries, workers |
// | webhookUrl         | T#<env>#<assoc>          | WHURL#<sha256 of the URL>       |                                         | /webhooks (one active per URL)     |
// | webhookRedeliver   | T#<env>#<assoc>          | WHREDELIVER#<webhookId>#<epochSeconds> |                                  | …/redeliver (TTL)                  |
// | webhookShare       | T#<env>#<assoc>          | WHSHARE#<lane>                  |                                         | delivery workers (tenant's share)  |
// | customer           | T#<env>#<assoc>          | CUSTOMER#<connectorId>#<customerId> |                                     | /customers/…, provider decisions   |
// | onrampReference    | T#<env>#<assoc>          | ONRAMPREF#<reference>           |                                         | /onramp/references, receipts       |
// | onrampReferenceCount | T#<env>#<assoc>        | ONRAMPREFS                      |                                         | /onramp/references (the cap)       |
// | notice             | T#<env>#<assoc>          | NOTICE#<eventId>                |                                         | payment-notifier (once per event)  |
// | noticeRecipient    | T#<env>#<assoc>          | NOTICETO#<channel>#<address>    |                                         | /sandbox/notice-recipients, notifier |
// | noticeDayCount     | T#<env>#<assoc>          | RATE#notices#<epochSeconds>     |                                         | notifier, recipient codes (TTL)    |
// | sandboxMoneyDay    | T#<env>#<assoc>          | RATE#sandbox-<helper>#<epochSeconds> |                                    | sandbox fund / receipts (TTL)      |
// | sandboxMoneyUse    | T#<env>#<assoc>          | SANDBOXUSE#<helper>#<key>       |                                         | sandbox fund (once per key, TTL)   |
// | suppressedAddress  | SUPPRESSED#<channel>#<address> | SUPPRESSED                |                                         | payment-notifier, SES feedback     |
// | member             | PERSON#<email>           | MEMBER#<env>#<assoc>            | gsi1: T#<env>#<assoc> / MEMBER#<memberId> | portal sign-in, /team/members, every person's call |
// | signInCode         | PERSON#<email>           | SIGNIN                          |                                         | /portal/sign-in, /portal/sessions (TTL) |
// | portalSession      | SESSION#<sha256>         | SESSION                         |                                         | /portal/token, /portal/session (TTL) |
// | auditEntry         | T#<env>#<assoc>#AUDIT    | <at>#<requestId>                |                                         | every person's state change, /team/audit-log (TTL) |
// | application        | APP#<applicationId>      | APPLICATION                     |                                         | auth                               |
// |                    |                          |                                 | gsi1: T#<env>#<assoc> / APPLICATION#<appId> | POST /credentials              |
// | apiKey             | APIKEY#<sha256>          | APIKEY                          | platform: APP#<appId> / APIKEY#<keyId>  | auth, admin                        |
// |                    |                          |                                 | gsi1: T#<env>#<assoc> / APIKEY#<keyId>  | DELETE /credentials/{id}           |
// |                    |                          |                                 | list1: <scope>#CREDENTIAL / <createdAt>#<keyId> | /credentials (newest first) |
// | client             | CLIENT#<clientId>        | CLIENT                          | platform: APP#<appId> / CLIENT#<id>     | /auth/token, admin                 |
// |                    |                          |                                 | gsi1: T#<env>#<assoc> / CLIENT#<id>     | DELETE /credentials/{id}           |
// |                    |                          |                                 | list1: <scope>#CREDENTIAL / <createdAt>#<id> | /credentials (newest first)   |
// | requestLogEntry    | T#<env>#<assoc>#REQLOG   | <at>#<requestId>                |                                         | every state-changing or failed call, /request-log (TTL) |
// | tokenRateWindow    | RATE#token#<subject>     | WINDOW#<epochSeconds>           |                                         | /auth/token (TTL)                  |
// | applicationLimits  | APP#<applicationId>      | LIMITS                          |                                         | every API route, admin limits      |
// | requestRateWindow  | RATE#<group>#<subject>   | WINDOW#<epochSeconds>           |                                         | every API route (TTL, lib/limits)  |
// | asset              | ASSETS#<env>             | ASSET#<code>                    |                                         | /assets, wallets, destinations     |
// | connector          | CONNECTORS#<env>         | CONNECTOR#<connectorId>         | list1…list4: CONNECTORS#<env>#COUNTRY#<iso>, #METHOD#<m>, | /connectors, /payments/…, /quotes |
// |                    |                          |                                 | #DIRECTION#<d>, #FLOW#<f> / <connectorId> | /connectors?<filter>             |
// | providerCredential | PROVIDER#<env>#<connId>  | CREDENTIAL                      |                                         | provider notifications, ramps      |
// | providerInstruction| PROVIDER#<env>#<connId>  | INSTRUCTION#<reference>         |                                         | provider notifications, ramps      |
// | providerNotification| PROVIDER#<env>#<connId> | NOTIFICATION#<notificationId>   |                                         | provider notifications (TTL)       |
// | providerBinding    | PROVIDER#<env>#<connId>  | CUSTOMER#<ref> / REFERENCE#<ref> |                                        | provider notifications (whose)     |
// | providerReceipt    | PROVIDER#<env>#<connId>  | RECEIPT#<receiptId>             |                                         | receipts (once each), admin        |
// | platformAccount    | PLATFORM#<env>           | ACCOUNT#<role>                  |                                         | ledger                             |
// | ledgerChannel      | PLATFORM#<env>           | CHANNEL#<nnnn>                  |                                         | ledger (channel leases, submitOnce)|
// | ledgerChannelKey   | PLATFORM#<env>           | CHANNELKEY#<publicKey>          |                                         | ledger (a channel's number by key) |
// | ledgerSubmission   | SUBMISSION#<env>#<intent>| SUBMISSION                      |                                         | ledger (submitOnce)                |
//
// The list indexes (list1…list4, lib/db/table.ts) are overloaded: each entity writes, with the item, the
// keys of the filters its list route documents, each partition key starting with the item's scope (the
// tenant's, or the environment's for platform data), each sort key ordering it as the route does. A
// filter the chosen index does not key is applied in the page, within a read budget (lib/db/paginate.ts).
import type { Environment, Tenant } from '../tenant.ts';

export interface ItemKey {
  pk: string;
  sk: string;
}

/** The overloaded list indexes' keys (lib/db/table.ts listIndexes): one list filter each. */
export interface ListIndexKeys {
  list1pk?: string;
  list1sk?: string;
  list2pk?: string;
  list2sk?: string;
  list3pk?: string;
  list3sk?: string;
  list4pk?: string;
  list4sk?: string;
}

/** Index keys an item may carry: gsi1 is tenant-scoped, gsi2 is the platform index (look-ups by id). */
export interface IndexKeys extends ListIndexKeys {
  gsi1pk?: string;
  gsi1sk?: string;
  gsi2pk?: string;
  gsi2sk?: string;
  pendingPk?: string;
  pendingSk?: string;
}

/** The list index that serves a filter: `list<n>`, read on `list<n>pk` and `list<n>sk`. */
export type ListIndex = 'list1' | 'list2' | 'list3' | 'list4';

/** What every tenant-owned item's partition key starts with (the reconciler's role is held to it). */
export const TENANT_KEY_PREFIX = 'T#';

export const tenantScope = (tenant: Tenant): string =>
  `${TENANT_KEY_PREFIX}${tenant.environment}#${tenant.associationId}`;

/** The tenant an owned record belongs to. */
export const tenantOf = (record: { environment: Environment; associationId: string }): Tenant => ({
  environment: record.environment,
  associationId: record.associationId,
});

/** The platform index's keys: an item found by its id alone, in whichever tenant holds it. */
export const platformIndexKeys = (kind: string, id: string, sort = kind): IndexKeys => ({
  gsi2pk: `${kind}#${id}`,
  gsi2sk: sort,
});

/**
 * The pending index (sparse): a record whose outbox work is still owed carries these keys, written with
 * the record and removed by the conditional write that moves it on (`pendingKeys.attributes`), so the
 * reconciler's query for "pending since before the bound" reads stuck records and nothing else. One
 * partition per environment and item type: its writes follow the inserts of that type, which the workers
 * that consume them bound far below a partition's 1,000 writes a second.
 */
export const PENDING_INDEX = 'pending';
/**
 * The same index projecting the keys only (lib/db/table.ts): a record's copy on it is its keys, not the
 * whole record, so its insert and its settling write 1 unit there each, whatever the record's size; the
 * reconciler reads the few stuck records by key (lib/db/pending-index.ts).
 */
export const PENDING_KEYS_INDEX = 'pendingKeys';

export const pendingKeys = {
  partition: (environment: Environment, itemType: string): string => `PENDING#${environment}#${itemType}`,
  /** `since`: when the record entered the state (ISO, sorts as text), or when it was last re-driven. */
  of: (environment: Environment, itemType: string, since: string): IndexKeys => ({
    pendingPk: pendingKeys.partition(environment, itemType),
    pendingSk: since,
  }),
  /** What the write that settles the record removes. */
  attributes: ['pendingPk', 'pendingSk'],
};

/** What a tenant's credentials are: API keys (x-service-auth) and clients (client credentials). */
export type CredentialKind = 'APIKEY' | 'CLIENT';

export const keys = {
  association: (tenant: Tenant): ItemKey => ({ pk: tenantScope(tenant), sk: 'ASSOCIATION' }),
  application: (applicationId: string): ItemKey => ({ pk: `APP#${applicationId}`, sk: 'APPLICATION' }),
  /** API keys are found by the hash of the key the caller presents. */
  apiKey: (keyHash: string): ItemKey => ({ pk: `APIKEY#${keyHash}`, sk: 'APIKEY' }),
  client: (clientId: string): ItemKey => ({ pk: `CLIENT#${clientId}`, sk: 'CLIENT' }),
  /** The admin CLI lists an application's API keys and clients (for revocation) on the platform index. */
  byApplication: (applicationId: string, kind: 'APIKEY' | 'CLIENT', id: string): IndexKeys =>
    platformIndexKeys('APP', applicationId, `${kind}#${id}`),
  /**
   * A tenant's own credentials, in its scope (lib/auth/tenant-credentials.ts): its application, API keys
   * and clients by id on gsi1, and its keys and clients together, newest first, on list1. Only records
   * that name their association carry them (a client without one belongs to no tenant).
   */
  ofTenant: (tenant: Tenant, kind: 'APPLICATION' | CredentialKind, id: string): IndexKeys => ({
    gsi1pk: tenantScope(tenant),
    gsi1sk: `${kind}#${id}`,
  }),
  credentialList: (tenant: Tenant): string => `${tenantScope(tenant)}#CREDENTIAL`,
  credentialListed: (tenant: Tenant, createdAt: string, id: string): IndexKeys => ({
    list1pk: keys.credentialList(tenant),
    list1sk: `${createdAt}#${id}`,
  }),
  /**
   * A token-route window. Its subject is what the caller proved (lib/auth/rate-limit.ts: `client#<id>`,
   * `failures#app#<id>`, `failures#app#<id>#ip#<address>`), never a clientId it merely named.
   */
  tokenRateWindow: (subject: string, windowStart: number): ItemKey => ({
    pk: `RATE#token#${subject}`,
    sk: `WINDOW#${windowStart}`,
  }),
  /** An application's own request limits, where the admin CLI set any (lib/limits). */
  applicationLimits: (applicationId: string): ItemKey => ({ pk: `APP#${applicationId}`, sk: 'LIMITS' }),
  /**
   * A request-limit window (lib/limits) of one route group: its subject is what the caller proved
   * (`app#<applicationId>`, or a provider's `connector#<env>#<connectorId>` once its signature verified).
   */
  requestRateWindow: (group: string, subject: string, windowStart: number): ItemKey => ({
    pk: `RATE#${group}#${subject}`,
    sk: `WINDOW#${windowStart}`,
  }),
  assetRegistry: (environment: Environment): string => `ASSETS#${environment}`,
  asset: (environment: Environment, assetCode: string): ItemKey => ({
    pk: `ASSETS#${environment}`,
    sk: `ASSET#${assetCode}`,
  }),
};

export const walletKeys = {
  wallet: (tenant: Tenant, walletId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `WALLET#${walletId}`,
  }),
  walletPrefix: 'WALLET#',
  /** Platform operations (KYC review) find a wallet by id alone. */
  byWalletId: (walletId: string): IndexKeys => platformIndexKeys('WALLET', walletId),
  /** The list filters' partitions (`assetCode` and `networkName` never change), sorted by id as the list is. */
  byAsset: (tenant: Tenant, assetCode: string) => `${tenantScope(tenant)}#WALLET#ASSET#${assetCode}`,
  byNetwork: (tenant: Tenant, networkName: string) => `${tenantScope(tenant)}#WALLET#NETWORK#${networkName}`,
  byAssetAndNetwork: (tenant: Tenant, assetCode: string, networkName: string) =>
    `${tenantScope(tenant)}#WALLET#ASSET#${assetCode}#NETWORK#${networkName}`,
  /** The wallets an association created in the window starting at `windowStart` (epoch seconds). */
  creationWindow: (tenant: Tenant, windowStart: number): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `RATE#wallets#${windowStart}`,
  }),
  listKeys: (tenant: Tenant, wallet: { walletId: string; assetCode: string; networkName: string }) => ({
    list1pk: walletKeys.byAsset(tenant, wallet.assetCode),
    list1sk: wallet.walletId,
    list2pk: walletKeys.byNetwork(tenant, wallet.networkName),
    list2sk: wallet.walletId,
    list3pk: walletKeys.byAssetAndNetwork(tenant, wallet.assetCode, wallet.networkName),
    list3sk: wallet.walletId,
  }),
};

/**
 * Ledger records (platform data, not tenant-owned: no API route reads them). Platform accounts are
 * found by environment and role; a submission by the caller's intent id, which must be unique in its
 * environment (callers prefix it with what it is for, e.g. `wallet-activation:<walletId>`).
 */
const CHANNEL_PREFIX = 'CHANNEL#';

export const ledgerKeys = {
  platformAccount: (environment: Environment, role: string): ItemKey => ({
    pk: `PLATFORM#${environment}`,
    sk: `ACCOUNT#${role}`,
  }),
  /** Channel accounts sort by their number, so one query lists the pool in order. */
  channel: (environment: Environment, index: number): ItemKey => ({
    pk: `PLATFORM#${environment}`,
    sk: `${CHANNEL_PREFIX}${String(index).padStart(4, '0')}`,
  }),
  channelPool: (environment: Environment) => ({ pk: `PLATFORM#${environment}`, skPrefix: CHANNEL_PREFIX }),
  /** A channel's number by its account: renewing or freeing a lease is one write, whatever the pool's size. */
  channelKey: (environment: Environment, publicKey: string): ItemKey => ({
    pk: `PLATFORM#${environment}`,
    sk: `CHANNELKEY#${publicKey}`,
  }),
  submission: (environment: Environment, intentId: string): ItemKey => ({
    pk: `SUBMISSION#${environment}#${intentId}`,
    sk: 'SUBMISSION',
  }),
};

/**
 * Beneficiaries and their payment destinations (tenant-owned). Destinations sort under their
 * beneficiary with a prefix of their own, so a beneficiary list never reads destinations; the sandbox
 * helper finds one by id on gsi1, inside the caller's tenant.
 */
export const beneficiaryKeys = {
  beneficiary: (tenant: Tenant, beneficiaryId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `BENEFICIARY#${beneficiaryId}`,
  }),
  beneficiaryPrefix: 'BENEFICIARY#',
  destination: (tenant: Tenant, beneficiaryId: string, destinationId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `PAYDEST#${beneficiaryId}#${destinationId}`,
  }),
  destinationPrefix: (beneficiaryId: string): string => `PAYDEST#${beneficiaryId}#`,
  /** A tenant's destination by id alone (tenant-scoped), and the platform's (any tenant). */
  destinationIndexKeys: (tenant: Tenant, destinationId: string): IndexKeys => ({
    gsi1pk: tenantScope(tenant),
    gsi1sk: `PAYDEST#${destinationId}`,
    ...platformIndexKeys('PAYDEST', destinationId),
  }),
  /** A beneficiary's destinations of one method (the list's filter), sorted by id as the list is. */
  byMethod: (tenant: Tenant, beneficiaryId: string, method: string) =>
    `${tenantScope(tenant)}#PAYDEST#${beneficiaryId}#METHOD#${method}`,
  listKeys: (
    tenant: Tenant,
    destination: { beneficiaryId: string; destinationId: string; method: string },
  ) => ({
    list1pk: beneficiaryKeys.byMethod(tenant, destination.beneficiaryId, destination.method),
    list1sk: destination.destinationId,
  }),
};

/**
 * The connector catalogue (platform data, one partition per environment, sorted by connector id),
 * and what is tenant-owned around it: quotes, and the business fee rows per connector and
 * transaction type that the platform team sets for an association.
 */
export const connectorKeys = {
  catalogue: (environment: Environment): string => `CONNECTORS#${environment}`,
  connector: (environment: Environment, connectorId: string): ItemKey => ({
    pk: `CONNECTORS#${environment}`,
    sk: `CONNECTOR#${connectorId}`,
  }),
  /** One list filter's partition of the catalogue (list1 country, list2 method, list3 direction, list4 flow). */
  byFilter: (environment: Environment, filter: ConnectorListFilter, value: string) =>
    `CONNECTORS#${environment}#${filter.toUpperCase()}#${value}`,
  listKeys: (
    environment: Environment,
    connector: Record<ConnectorListFilter, string> & { id: string },
  ): ListIndexKeys =>
    Object.fromEntries(
      connectorListFilters.flatMap((filter, i) => [
        [`list${i + 1}pk`, connectorKeys.byFilter(environment, filter, connector[filter])],
        [`list${i + 1}sk`, connector.id],
      ]),
    ),
};

/** The connector list's filters, in the order of the list indexes that serve them (list1 … list4). */
export const connectorListFilters = ['countryIsoCode2', 'method', 'direction', 'flow'] as const;
export type ConnectorListFilter = (typeof connectorListFilters)[number];

/**
 * The provider behind each connector (platform data, one partition per environment and connector): its
 * signing secret, the instructions sent to it (by our reference: which tenant's record each one is), and
 * the notification ids it has sent (each taken once).
 */
export const providerKeys = {
  credential: (environment: Environment, connectorId: string): ItemKey => ({
    pk: `PROVIDER#${environment}#${connectorId}`,
    sk: 'CREDENTIAL',
  }),
  instruction: (environment: Environment, connectorId: string, reference: string): ItemKey => ({
    pk: `PROVIDER#${environment}#${connectorId}`,
    sk: `INSTRUCTION#${reference}`,
  }),
  notification: (environment: Environment, connectorId: string, notificationId: string): ItemKey => ({
    pk: `PROVIDER#${environment}#${connectorId}`,
    sk: `NOTIFICATION#${notificationId}`,
  }),
  /** Which tenant's customer review or on-ramp reference a provider's reference names. */
  binding: (
    environment: Environment,
    connectorId: string,
    kind: 'CUSTOMER' | 'REFERENCE',
    reference: string,
  ): ItemKey => ({ pk: `PROVIDER#${environment}#${connectorId}`, sk: `${kind}#${reference}` }),
  /** A provider on-ramp receipt, taken once: paid (with its record) or held. */
  receipt: (environment: Environment, connectorId: string, receiptId: string): ItemKey => ({
    pk: `PROVIDER#${environment}#${connectorId}`,
    sk: `RECEIPT#${receiptId}`,
  }),
  receiptPrefix: 'RECEIPT#',
  partition: (environment: Environment, connectorId: string): string =>
    `PROVIDER#${environment}#${connectorId}`,
};

export const quoteKeys = {
  quote: (tenant: Tenant, quoteId: string): ItemKey => ({ pk: tenantScope(tenant), sk: `QUOTE#${quoteId}` }),
  feeRow: (tenant: Tenant, connectorId: string, transactionType: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `FEE#${connectorId}#${transactionType}`,
  }),
  feeRowPrefix: 'FEE#',
};

/**
 * Transaction records (tenant-owned). The record id is derived from the caller's transactionId
 * (lib/payments/record-ids.ts), so the idempotency key and the record are one item, written once. gsi1
 * sorts a tenant's records by creation, newest first when read backwards.
 */
export const transactionKeys = {
  record: (tenant: Tenant, transactionRecordId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `TXN#${transactionRecordId}`,
  }),
  byCreation: (tenant: Tenant, createdAt: string, transactionRecordId: string): IndexKeys => ({
    gsi1pk: tenantScope(tenant),
    gsi1sk: `TXN#${createdAt}#${transactionRecordId}`,
  }),
  /** Bounds of gsi1sk for records created in [from, to): ISO timestamps sort as text. */
  creationPrefix: 'TXN#',
  /**
   * The list filters' partitions: by status (list1, by creation; list3, by type then creation), by type
   * (list2), and every record by creation (list4, the unfiltered list, which gsi1 served before the list
   * indexes projected the keys only). A status move sets `statusKeys` with the status; the type never
   * changes.
   */
  byCreationList: (tenant: Tenant) => `${tenantScope(tenant)}#TXN`,
  byStatus: (tenant: Tenant, status: string) => `${tenantScope(tenant)}#TXN#STATUS#${status}`,
  byType: (tenant: Tenant, type: string) => `${tenantScope(tenant)}#TXN#TYPE#${type}`,
  statusKeys: (tenant: Tenant, status: string) => ({
    list1pk: transactionKeys.byStatus(tenant, status),
    list3pk: transactionKeys.byStatus(tenant, status),
  }),
  listKeys: (
    tenant: Tenant,
    record: { status: string; transactionType: string; createdAt: string; transactionRecordId: string },
  ): ListIndexKeys => {
    const created = `${record.createdAt}#${record.transactionRecordId}`;
    return {
      ...transactionKeys.statusKeys(tenant, record.status),
      list1sk: created,
      list2pk: transactionKeys.byType(tenant, record.transactionType),
      list2sk: created,
      list3sk: `${record.transactionType}#${created}`,
      list4pk: transactionKeys.byCreationList(tenant),
      list4sk: created,
    };
  },
  /**
   * One item per wallet a record touches (written once, before the record): the walletId filter, by
   * creation. It holds the record's id, creation and type; the record itself is read by key.
   */
  walletEntry: (
    tenant: Tenant,
    walletId: string,
    createdAt: string,
    transactionRecordId: string,
  ): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `TXNWALLET#${walletId}#${createdAt}#${transactionRecordId}`,
  }),
  walletEntryPrefix: (walletId: string) => `TXNWALLET#${walletId}#`,
};

/**
 * A wallet's statement (tenant-owned): one partition per wallet, so its history can grow without
 * weighing on the tenant's partition. Lines sort by asset, then ledger close time, then the ledger's
 * id of the movement; the sync item holds how far the ledger has been read and the balances there.
 */
export const statementKeys = {
  partition: (tenant: Tenant, walletId: string): string => `${tenantScope(tenant)}#STMT#${walletId}`,
  line: (tenant: Tenant, walletId: string, asset: string, closedAt: string, rowId: string): ItemKey => ({
    pk: statementKeys.partition(tenant, walletId),
    sk: `LINE#${asset}#${closedAt}#${rowId}`,
  }),
  /** Bounds of sk for an asset's lines: close times (ISO, Z) sort as text. */
  linePrefix: (asset: string): string => `LINE#${asset}#`,
  sync: (tenant: Tenant, walletId: string): ItemKey => ({
    pk: statementKeys.partition(tenant, walletId),
    sk: 'SYNC',
  }),
};

/**
 * What an association's off-ramps use of a connector's limits (lib/payments/ramps/usage.ts): one item
 * per accepted payment, and a head whose version every new one moves, so that two submissions cannot
 * both be checked against the same uses.
 */
export const rampUseKeys = {
  head: (tenant: Tenant, connectorId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `RAMPUSE#${connectorId}#HEAD`,
  }),
  use: (tenant: Tenant, connectorId: string, transactionRecordId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `RAMPUSE#${connectorId}#USE#${transactionRecordId}`,
  }),
  usePrefix: (connectorId: string) => `RAMPUSE#${connectorId}#USE#`,
};

/**
 * Webhook registrations and their deliveries (tenant-owned). A delivery's id is time-ordered
 * (lib/webhooks/ids.ts), so one registration's deliveries read newest first from its prefix; a counter
 * item holds the number of active registrations, so the limit is one conditional write.
 */
export const webhookKeys = {
  registration: (tenant: Tenant, webhookId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `WEBHOOK#${webhookId}`,
  }),
  registrationPrefix: 'WEBHOOK#',
  activeCount: (tenant: Tenant): ItemKey => ({ pk: tenantScope(tenant), sk: 'WEBHOOKS' }),
  delivery: (tenant: Tenant, webhookId: string, deliveryId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `WHDELIVERY#${webhookId}#${deliveryId}`,
  }),
  deliveryPrefix: (webhookId: string): string => `WHDELIVERY#${webhookId}#`,
  /** One attempt of a delivery; attempts sort in order under their delivery's prefix. */
  attempt: (tenant: Tenant, webhookId: string, deliveryId: string, attempt: number): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `WHATTEMPT#${webhookId}#${deliveryId}#${String(attempt).padStart(4, '0')}`,
  }),
  attemptPrefix: (webhookId: string, deliveryId: string): string => `WHATTEMPT#${webhookId}#${deliveryId}#`,
  /**
   * A delivery's entry under the resource its event is about (a transaction record, a wallet…), in
   * delivery order: `GET /webhooks/deliveries?resourceId=` reads a resource's deliveries by it.
   */
  resourceDelivery: (tenant: Tenant, resourceId: string, deliveryId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `WHRESOURCE#${resourceId}#${deliveryId}`,
  }),
  resourceDeliveryPrefix: (resourceId: string): string => `WHRESOURCE#${resourceId}#`,
  /** Held by the one active registration of a URL (its hash: a URL may be 2 KB). */
  url: (tenant: Tenant, urlHash: string): ItemKey => ({ pk: tenantScope(tenant), sk: `WHURL#${urlHash}` }),
  redeliverWindow: (tenant: Tenant, webhookId: string, windowStart: number): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `WHREDELIVER#${webhookId}#${windowStart}`,
  }),
  /** The tenant's share of a delivery lane: who holds its slots (lib/webhooks/tenant-share.ts). */
  share: (tenant: Tenant, lane: string): ItemKey => ({ pk: tenantScope(tenant), sk: `WHSHARE#${lane}` }),
};

/**
 * Bespoke connectors (tenant-owned): a customer's registration with a connector's provider, and the
 * on-ramp references bound to the tenant's wallets, with a counter that caps how many a tenant holds
 * (the page-numbered list reads them all: lib/onramp-references/repo.ts).
 */
export const bespokeKeys = {
  customer: (tenant: Tenant, connectorId: string, customerId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `CUSTOMER#${connectorId}#${customerId}`,
  }),
  reference: (tenant: Tenant, reference: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `ONRAMPREF#${reference}`,
  }),
  referencePrefix: 'ONRAMPREF#',
  referenceCount: (tenant: Tenant): ItemKey => ({ pk: tenantScope(tenant), sk: 'ONRAMPREFS' }),
};

/**
 * Beneficiary notices (lib/notifications): one item per event told (tenant-owned; its conditional write is
 * what sends a notice once however often the event is delivered), and one per address that bounced or
 * complained (platform-wide: the address is what SES refuses, whichever tenant names it).
 */
export const notificationKeys = {
  notice: (tenant: Tenant, eventId: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `NOTICE#${eventId}`,
  }),
  suppressed: (channel: string, address: string): ItemKey => ({
    pk: `SUPPRESSED#${channel}#${address.toLowerCase()}`,
    sk: 'SUPPRESSED',
  }),
  /** A sandbox recipient the tenant verified (or is verifying, or the admin allowed). */
  recipient: (tenant: Tenant, channel: string, address: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `NOTICETO#${channel}#${address.toLowerCase()}`,
  }),
  /** The tenant's notices counted in the day that starts at `windowStart` (epoch seconds). */
  dayCount: (tenant: Tenant, windowStart: number): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `RATE#notices#${windowStart}`,
  }),
};

/**
 * The sandbox money helpers' daily totals (lib/wallets/sandbox-limits.ts): one item per helper and UTC
 * day, and one per Idempotency-Key counted, so a retry is not counted twice.
 */
export const sandboxMoneyKeys = {
  day: (tenant: Tenant, helper: string, windowStart: number): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `RATE#sandbox-${helper}#${windowStart}`,
  }),
  use: (tenant: Tenant, helper: string, key: string): ItemKey => ({
    pk: tenantScope(tenant),
    sk: `SANDBOXUSE#${helper}#${key}`,
  }),
};

/** The portal's people (lib/people): a person's memberships sit under their email, listed per tenant on gsi1. */
export const peopleKeys = {
  member: (email: string, tenant: Tenant): ItemKey => ({
    pk: `PERSON#${email}`,
    sk: `MEMBER#${tenant.environment}#${tenant.associationId}`,
  }),
  person: (email: string): string => `PERSON#${email}`,
  memberPrefix: 'MEMBER#',
  byTenant: (tenant: Tenant, memberId: string): IndexKeys => ({
    gsi1pk: tenantScope(tenant),
    gsi1sk: `MEMBER#${memberId}`,
  }),
  signInCode: (email: string): ItemKey => ({ pk: `PERSON#${email}`, sk: 'SIGNIN' }),
  session: (sessionHash: string): ItemKey => ({ pk: `SESSION#${sessionHash}`, sk: 'SESSION' }),
  audit: (tenant: Tenant): string => `${tenantScope(tenant)}#AUDIT`,
};

/** The tenant's request log (lib/request-log): a partition of its own, newest last, removed by TTL. */
export const requestLogKeys = {
  partition: (tenant: Tenant): string => `${tenantScope(tenant)}#REQLOG`,
  entry: (tenant: Tenant, at: string, requestId: string): ItemKey => ({
    pk: requestLogKeys.partition(tenant),
    sk: `${at}#${requestId}`,
  }),
};
