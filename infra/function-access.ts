// What each function may touch: THE place where permissions are declared. A function that is not
// listed here fails the synth rather than silently running with no (or someone else's) access.
import { type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { PENDING_INDEX, PENDING_KEYS_INDEX, TENANT_KEY_PREFIX } from '../lib/db/keys.ts';
import { outboxQueues, reconcilerQueues } from '../lib/outbox.ts';
import { type SecretName, secretIdVariable } from '../lib/secret-names.ts';

export type TableAccess = 'none' | 'read' | 'readWrite';
/** The key secrets (infra/constructs/key-secrets.ts); a KEK per environment (lib/secret-box.ts). */
export { type SecretName, secretIdVariable };

/** Rate-limit windows outside a tenant's partition (per source, per client): counted before any work. */
const RATE_WINDOWS = 'RATE#*';

/**
 * The tenants' request logs (lib/request-log): the HTTP chain of every API function writes a failed
 * request there (lib/http/request-records.ts), so the read-only ones may put items there and nowhere else.
 */
const REQUEST_LOGS = `${TENANT_KEY_PREFIX}*#REQLOG`;

/** Both environments' KEKs: for the functions that serve tenants of either. */
const BOTH_KEKS = ['kek-sandbox', 'kek-production'] as const;

export interface FunctionAccess {
  table: TableAccess;
  /**
   * Secrets the function reads (GetSecretValue, and kms:Decrypt of their encryption key through Secrets
   * Manager for exactly these secrets); their ids are passed in its environment.
   */
  secrets: readonly SecretName[];
  /**
   * Secrets the function rotates (Secrets Manager invokes it; it reads, writes and restages their
   * versions) and secrets it writes (PutSecretValue; their ids are passed in its environment).
   */
  rotates?: readonly SecretName[];
  writes?: readonly SecretName[];
  /** Queues (lib/queues.ts names) the function sends to; their URLs are passed as QUEUE_URL_<NAME>. */
  sends?: readonly string[];
  /**
   * Removes items (DeleteItem, alone or in a transaction): only where the code does. Everything else
   * writes by put and update, so a bug or a stolen role can change records but not erase them.
   */
  deletes?: true;
  /**
   * With table readWrite: the partitions (dynamodb:LeadingKeys patterns) its writes are limited to; every
   * partition when absent. For the functions an outsider reaches most easily, so a bug or a stolen role
   * cannot rewrite credentials, catalogues or another environment's data.
   */
  writesTo?: readonly string[];
  /**
   * With table read: the partitions (dynamodb:LeadingKeys patterns) it may put new items in (PutItem
   * alone): the request logs its failed reads go to.
   */
  appends?: readonly string[];
  /**
   * Reads the pending index alone (Query on its ARN) and moves a re-driven record's place on it
   * (UpdateItem): the outbox reconciler, with table 'none'.
   */
  pendingIndex?: true;
}

/** Keyed by bundle name (`api/<fn>`, `workers/<worker>`, `streams/outbox`), as esbuild.config.ts names them. */
export const functionAccess: Readonly<Record<string, FunctionAccess>> = {
  // Issues tokens: reads credentials and writes rate-limit windows; signs with the private keys.
  'api/auth': { table: 'readWrite', secrets: ['signing-keys', 'token-jwks'] },
  // Read-only catalogue; verifies bearer tokens against the public JWKS; pages with sealed cursors.
  'api/assets': { table: 'read', secrets: ['token-jwks', 'cursor-key'], appends: [REQUEST_LOGS] },
  // Answers 404/405 from the route table alone.
  'api/fallback': { table: 'none', secrets: [] },
  // Creates wallets (seals each new ledger key under its environment's KEK; the record's insert asks for
  // the activation through the outbox, so no queue); reads balances.
  'api/wallets': { table: 'readWrite', secrets: ['token-jwks', 'cursor-key', ...BOTH_KEKS] },
  // Beneficiaries and their payment destinations: tenant records, paged.
  'api/beneficiaries': { table: 'readWrite', secrets: ['token-jwks', 'cursor-key'] },
  // The connector catalogue, its compliance requirements and vocabularies: read-only, paged.
  'api/connectors': { table: 'read', secrets: ['token-jwks', 'cursor-key'], appends: [REQUEST_LOGS] },
  // Prices and stores quotes (reads connectors, beneficiaries, fee rows).
  'api/quotes': { table: 'readWrite', secrets: ['token-jwks'] },
  // Payment acceptance: reads wallets, beneficiaries and the registry, writes the transaction record (its
  // insert asks for the ledger work through the outbox, so no queue); reads swap paths from Horizon.
  'api/payments': { table: 'readWrite', secrets: ['token-jwks'] },
  // Providers' signed notifications: opens the connector's secret to verify them, moves ramp records
  // (their changes ask for refunds through the outbox, so no queue).
  // Writes only tenant records, the providers' partitions and what paying from the ledger writes.
  'api/providers': {
    table: 'readWrite',
    secrets: [...BOTH_KEKS],
    writesTo: [`${TENANT_KEY_PREFIX}*`, 'PROVIDER#*', 'PLATFORM#*', 'SUBMISSION#*', RATE_WINDOWS],
  },
  // Customers of bespoke connectors: registers them with the connector's provider (opens its secret to
  // sign the request), writes the registration and its provider binding.
  'api/customers': { table: 'readWrite', secrets: ['token-jwks', ...BOTH_KEKS] },
  // On-ramp references: asks the connector's provider for one (opens its secret to sign the request),
  // writes it with its binding and the tenant's counter.
  'api/onramp': { table: 'readWrite', secrets: ['token-jwks', ...BOTH_KEKS] },
  // Transaction records: read-only, paged.
  'api/transactions': { table: 'read', secrets: ['token-jwks', 'cursor-key'], appends: [REQUEST_LOGS] },
  // Statements: writes the lines it reads from the ledger (lib/statements/ledger-sync.ts), pages them.
  'api/statements': { table: 'readWrite', secrets: ['token-jwks', 'cursor-key'] },
  // Sandbox helpers: KYC decisions and funding payments signed by platform accounts; a payment still
  // pending is handed to the ledger-submissions queue to be resumed. Sandbox tenants only: never the
  // production KEK.
  'api/sandbox': {
    table: 'readWrite',
    // The sandbox KEK also opens the connectors' provider secrets, to move simulated instructions.
    secrets: ['token-jwks', 'kek-sandbox'],
    sends: ['ledger-submissions'],
    // Tenants' records (a production tenant's only for what is counted before its 404: rate windows in
    // its partition), the sandbox's platform accounts, ledger submissions and providers' items; never a
    // credential, a catalogue or production's ledger and providers.
    writesTo: [
      `${TENANT_KEY_PREFIX}*`,
      'PLATFORM#sandbox',
      'SUBMISSION#sandbox#*',
      'PROVIDER#sandbox#*',
      RATE_WINDOWS,
    ],
  },
  // Opens wallets' ledger accounts: signs with the wallet and the platform funding account; an opening
  // the platform could not pay is asked for again later, on its own queue.
  'workers/wallet-activator': { table: 'readWrite', secrets: [...BOTH_KEKS], sends: ['wallet-activations'] },
  // Keeps the sandbox's funding and settlement accounts topped up (lib/ledger/sandbox-reserves.ts): the
  // sandbox issuers sign the settlement payments, fee-bumped by the funding account.
  'schedules/sandbox-reserves': { table: 'readWrite', secrets: ['kek-sandbox'] },
  // Executes accepted payments (signs with the wallets, fee-bumps with the funding account) and resumes
  // sandbox funding left pending; re-queues a payment still in flight with a delay.
  'workers/ledger-submitter': { table: 'readWrite', secrets: [...BOTH_KEKS], sends: ['ledger-submissions'] },
  // The portal's sign-in (lib/people): emails one-time codes (SES, through infra/constructs/notices.ts),
  // spends them and ends sessions (deletes both), signs people's tokens with the private keys. And the
  // team: adds people (and emails them), removes them (deletes the membership), pages the audit log.
  'api/portal': { table: 'readWrite', secrets: ['signing-keys', 'token-jwks', 'cursor-key'], deletes: true },
  // Webhook registrations: seals each new signing secret under the KEK; reads deliveries (a redelivery
  // makes one pending again: its change asks for the attempt through the outbox).
  // Deactivating one frees its URL: the URL's claim item is deleted (lib/webhooks/repo.ts).
  'api/webhooks': {
    table: 'readWrite',
    secrets: ['token-jwks', 'cursor-key', ...BOTH_KEKS],
    deletes: true,
  },
  // Fans events out to deliveries (reads registrations, writes deliveries).
  'workers/webhook-dispatcher': { table: 'readWrite', secrets: [] },
  // Attempts deliveries: opens the registration's secret to sign; re-queues the next attempt, and
  // forwards a slow receiver's attempts to the slow lane. Recording an attempt drops the oldest kept one
  // (lib/webhooks/repo.ts recordAttempt).
  'workers/webhook-deliverer': {
    table: 'readWrite',
    secrets: [...BOTH_KEKS],
    sends: ['webhook-deliveries', 'webhook-slow-deliveries'],
    deletes: true,
  },
  // The slow lane: the same attempts, apart; retries go back through the main queue.
  'workers/webhook-slow-deliverer': {
    table: 'readWrite',
    secrets: [...BOTH_KEKS],
    sends: ['webhook-deliveries'],
    deletes: true,
  },
  // Tells beneficiaries of completed payments (reads the record and the association, writes the notice,
  // the record's notification and the address marks); re-queues a notice whose channel failed. Sending
  // email is granted on the stage's identity and configuration set alone (infra/constructs/notices.ts).
  'workers/payment-notifier': { table: 'readWrite', secrets: [], sends: ['payment-notifications'] },
  // SES's bounces and complaints (EventBridge): marks the address and the record whose notice it was.
  'events/ses-feedback': { table: 'readWrite', secrets: [] },
  // The outbox router: reads no item (the table's stream is granted by its event source, infra/stack.ts)
  // and sends to the queues lib/outbox.ts's rows name.
  'streams/outbox': { table: 'none', secrets: [], sends: outboxQueues },
  // The outbox reconciler (lib/outbox-reconciler.ts): finds records whose work is owed past the bound on
  // the pending index, re-sends what their inserts ask for, and moves their place on the index.
  'schedules/reconciler': { table: 'none', secrets: [], sends: reconcilerQueues, pendingIndex: true },
  // The platform team's ledger accounts (functions/admin/ledger-accounts.ts, invoked by the admin CLI):
  // makes the funding and channel accounts' keys, sealed under their environment's KEK, and opens the
  // channel accounts from the funding account.
  'admin/ledger-accounts': { table: 'readWrite', secrets: [...BOTH_KEKS] },
  // Secrets Manager's rotation function (lib/keys/rotation.ts): makes each key secret's next value and
  // publishes the signing ring's public JWKS. It reads only what it rotates.
  'rotation/keys': {
    table: 'none',
    secrets: [],
    rotates: ['signing-keys', 'cursor-key', ...BOTH_KEKS],
    writes: ['token-jwks'],
  },
};

export function accessOf(
  bundleName: string,
  declared: Readonly<Record<string, FunctionAccess>>,
): FunctionAccess {
  const access = declared[bundleName];
  if (!access) throw new Error(`No access declared for ${bundleName} in infra/function-access.ts.`);
  return access;
}

export interface AccessTargets {
  table: ITable;
  secrets: Record<SecretName, ISecret>;
  /** The customer-managed key the secrets are encrypted with: its key policy admits each reader. */
  secretsKey: IKey;
  /**
   * Each secret's ARN as a pattern of its name (`…:secret:<name>-??????`), for the key policy: the
   * secrets refer to the key, so the key cannot refer to them.
   */
  secretArnPatterns: Record<SecretName, string>;
  queues: ReadonlyMap<string, IQueue>;
}

/** Grants exactly the declared access to a function's role. */
export const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];
export const TABLE_WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem'];

/**
 * The reconciler's UpdateItem (lib/db/pending-index.ts markRedriven) moves a record's place on the pending
 * index, nothing else: tenant records only (the records it re-drives, transactions and wallets, are
 * tenant-owned; credentials, platform accounts and submissions are not) and no attribute but the item's
 * and the index's keys, so a bug or a stolen role cannot rewrite a record's status, amounts or sealed keys.
 * Its BatchGetItem (the records of the keys-only index's entries) is held to the same tenant records.
 */
export const RECONCILER_UPDATE_CONDITIONS = {
  'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [`${TENANT_KEY_PREFIX}*`] },
};

export function grantAccess(
  grantee: iam.IGrantable & IConstruct,
  access: FunctionAccess,
  targets: AccessTargets,
): void {
  // Exactly what lib/db/items.ts and lib/db/paginate.ts call (transactions need the actions of their
  // parts): not CDK's read/write bundles, which add Scan, the batch operations and more that nothing calls.
  if (access.table === 'read') targets.table.grant(grantee, ...TABLE_READ_ACTIONS);
  if (access.deletes && access.table !== 'readWrite') throw new Error('deletes needs table readWrite');
  if (access.writesTo && access.table !== 'readWrite') throw new Error('writesTo needs table readWrite');
  const writeActions = [...TABLE_WRITE_ACTIONS, ...(access.deletes ? ['dynamodb:DeleteItem'] : [])];
  if (access.table === 'readWrite' && !access.writesTo)
    targets.table.grant(grantee, ...TABLE_READ_ACTIONS, ...writeActions);
  if (access.appends) {
    if (access.table !== 'read') throw new Error('appends is for a function with table read');
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:PutItem'],
        resources: [targets.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...access.appends] } },
      }),
    );
  }
  if (access.writesTo) {
    targets.table.grant(grantee, ...TABLE_READ_ACTIONS);
    // Items are written to the table itself, never to an index: its ARN alone.
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: writeActions,
        resources: [targets.table.tableArn],
        conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...access.writesTo] } },
      }),
    );
  }
  if (access.table !== 'none') {
    // cdk-nag names the finding after the table's logical id, so acknowledge exactly that resource.
    const stack = Stack.of(targets.table);
    const tableId = stack.resolve(stack.getLogicalId(targets.table.node.defaultChild as CfnElement));
    Validations.of(grantee).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${tableId}.Arn>/index/*]`,
      reason:
        'The wildcard is the set of global secondary indexes of this one table (<table arn>/index/*), which ' +
        'the data-access layer queries; no other table or resource is covered.',
    });
  }
  if (access.pendingIndex) {
    if (access.table !== 'none') throw new Error('pendingIndex is for a function with table none');
    // Named ARNs, no wildcard: the table's tenant items for UpdateItem and for BatchGetItem (a keys-only
    // entry's record), the pending index for Query: the projected one or the keys-only one, whichever the
    // stage's step reads (lib/db/table.ts).
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:UpdateItem', 'dynamodb:BatchGetItem'],
        resources: [targets.table.tableArn],
        conditions: RECONCILER_UPDATE_CONDITIONS,
      }),
    );
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['dynamodb:Query'],
        resources: [PENDING_INDEX, PENDING_KEYS_INDEX].map(
          (name) => `${targets.table.tableArn}/index/${name}`,
        ),
      }),
    );
  }
  for (const name of access.sends ?? []) {
    const queue = targets.queues.get(name);
    if (!queue) throw new Error(`Access names an unknown queue ${name}.`);
    queue.grantSendMessages(grantee);
  }
  // GetSecretValue only: grantRead() would add DescribeSecret, which no function calls.
  const arnsOf = (names: readonly SecretName[]) => names.map((name) => targets.secrets[name].secretArn);
  for (const name of access.secrets) {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [targets.secrets[name].secretArn],
      }),
    );
  }
  const rotates = access.rotates ?? [];
  if (rotates.length > 0) {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: [
          'secretsmanager:DescribeSecret',
          'secretsmanager:GetSecretValue',
          'secretsmanager:PutSecretValue',
          'secretsmanager:UpdateSecretVersionStage',
        ],
        resources: arnsOf(rotates),
      }),
    );
  }
  const writes = access.writes ?? [];
  if (writes.length > 0) {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({ actions: ['secretsmanager:PutSecretValue'], resources: arnsOf(writes) }),
    );
  }
  admitToSecretsKey(grantee, targets, 'Decrypt', [...access.secrets, ...rotates, ...writes]);
  // Writing a version encrypts it under a new data key (and Secrets Manager checks it can decrypt it).
  admitToSecretsKey(grantee, targets, 'Encrypt', [...rotates, ...writes]);
}

/**
 * The key policy of the secrets' customer-managed key names each role with exactly the secrets it may
 * use: the key is used only through Secrets Manager (kms:ViaService) and only for those secrets' values
 * (Secrets Manager's encryption context names the secret's ARN). No IAM policy can widen this: the key
 * policy grants the account's identities no cryptographic use (infra/constructs/customer-key.ts).
 */
function admitToSecretsKey(
  grantee: iam.IGrantable & IConstruct,
  targets: AccessTargets,
  use: 'Decrypt' | 'Encrypt',
  names: readonly SecretName[],
): void {
  if (names.length === 0) return;
  const stack = Stack.of(grantee);
  const result = targets.secretsKey.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [grantee.grantPrincipal],
      actions: use === 'Decrypt' ? ['kms:Decrypt'] : ['kms:GenerateDataKey'],
      // In a key policy, "*" is the key itself.
      resources: ['*'],
      conditions: {
        StringEquals: { 'kms:ViaService': `secretsmanager.${stack.region}.amazonaws.com` },
        StringLike: {
          'kms:EncryptionContext:SecretARN': [...new Set(names)].map(
            (name) => targets.secretArnPatterns[name],
          ),
        },
      },
    }),
  );
  if (!result.statementAdded) throw new Error('The secrets key takes no key policy statement');
}
