// What each function may touch: THE place where permissions are declared. A function that is not
// listed here fails the synth rather than silently running with no (or someone else's) access.
import { type CfnElement, Stack, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { outboxQueues } from '../lib/outbox.ts';

export type TableAccess = 'none' | 'read' | 'readWrite';
export type SecretName = 'signing-keys' | 'token-jwks' | 'cursor-key' | 'wallet-kek';

/** The environment variable through which a function learns a secret's id (see lib/config.ts). */
export const secretIdVariable: Readonly<Record<SecretName, string>> = {
  'signing-keys': 'SIGNING_KEYS_SECRET_ID',
  'token-jwks': 'TOKEN_JWKS_SECRET_ID',
  'cursor-key': 'CURSOR_KEY_SECRET_ID',
  'wallet-kek': 'KEK_SECRET_ID',
};

export interface FunctionAccess {
  table: TableAccess;
  /** Secrets the function reads (GetSecretValue only); their ids are passed in its environment. */
  secrets: readonly SecretName[];
  /** Queues (lib/queues.ts names) the function sends to; their URLs are passed as QUEUE_URL_<NAME>. */
  sends?: readonly string[];
}

/** Keyed by bundle name (`api/<fn>`, `workers/<worker>`, `streams/outbox`), as esbuild.config.ts names them. */
export const functionAccess: Readonly<Record<string, FunctionAccess>> = {
  // Issues tokens: reads credentials and writes rate-limit windows; signs with the private keys.
  'api/auth': { table: 'readWrite', secrets: ['signing-keys', 'token-jwks'] },
  // Read-only catalogue; verifies bearer tokens against the public JWKS; pages with sealed cursors.
  'api/assets': { table: 'read', secrets: ['token-jwks', 'cursor-key'] },
  // Answers 404/405 from the route table alone.
  'api/fallback': { table: 'none', secrets: [] },
  // Creates wallets (seals each new ledger key; the record's insert asks for the activation through the
  // outbox, so no queue); reads balances.
  'api/wallets': { table: 'readWrite', secrets: ['token-jwks', 'cursor-key', 'wallet-kek'] },
  // Beneficiaries and their payment destinations: tenant records, paged.
  'api/beneficiaries': { table: 'readWrite', secrets: ['token-jwks', 'cursor-key'] },
  // The connector catalogue, its compliance requirements and vocabularies: read-only, paged.
  'api/connectors': { table: 'read', secrets: ['token-jwks', 'cursor-key'] },
  // Prices and stores quotes (reads connectors, beneficiaries, fee rows).
  'api/quotes': { table: 'readWrite', secrets: ['token-jwks'] },
  // Payment acceptance: reads wallets, beneficiaries and the registry, writes the transaction record (its
  // insert asks for the ledger work through the outbox, so no queue); reads swap paths from Horizon.
  'api/payments': { table: 'readWrite', secrets: ['token-jwks'] },
  // Transaction records: read-only, paged.
  'api/transactions': { table: 'read', secrets: ['token-jwks', 'cursor-key'] },
  // Sandbox helpers: KYC decisions and funding payments signed by platform accounts; a payment still
  // pending is handed to the ledger-submissions queue to be resumed.
  'api/sandbox': {
    table: 'readWrite',
    secrets: ['token-jwks', 'wallet-kek'],
    sends: ['ledger-submissions'],
  },
  // Opens wallets' ledger accounts: signs with the wallet and the platform funding account.
  'workers/wallet-activator': { table: 'readWrite', secrets: ['wallet-kek'] },
  // Executes accepted payments (signs with the wallets, fee-bumps with the funding account) and resumes
  // sandbox funding left pending; re-queues a payment still in flight with a delay.
  'workers/ledger-submitter': { table: 'readWrite', secrets: ['wallet-kek'], sends: ['ledger-submissions'] },
  // Webhook registrations: seals each new signing secret under the KEK; reads deliveries (a redelivery
  // makes one pending again: its change asks for the attempt through the outbox).
  'api/webhooks': { table: 'readWrite', secrets: ['token-jwks', 'cursor-key', 'wallet-kek'] },
  // Fans events out to deliveries (reads registrations, writes deliveries).
  'workers/webhook-dispatcher': { table: 'readWrite', secrets: [] },
  // Attempts deliveries: opens the registration's secret to sign; re-queues the next attempt, and
  // forwards a slow receiver's attempts to the slow lane.
  'workers/webhook-deliverer': {
    table: 'readWrite',
    secrets: ['wallet-kek'],
    sends: ['webhook-deliveries', 'webhook-slow-deliveries'],
  },
  // The slow lane: the same attempts, apart; retries go back through the main queue.
  'workers/webhook-slow-deliverer': {
    table: 'readWrite',
    secrets: ['wallet-kek'],
    sends: ['webhook-deliveries'],
  },
  // The outbox router: reads no item (the table's stream is granted by its event source, infra/stack.ts)
  // and sends to the queues lib/outbox.ts's rows name.
  'streams/outbox': { table: 'none', secrets: [], sends: outboxQueues },
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
  queues: ReadonlyMap<string, IQueue>;
}

/** Grants exactly the declared access to a function's role. */
export function grantAccess(
  grantee: iam.IGrantable & IConstruct,
  access: FunctionAccess,
  targets: AccessTargets,
): void {
  if (access.table === 'read') targets.table.grantReadData(grantee);
  if (access.table === 'readWrite') targets.table.grantReadWriteData(grantee);
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
  for (const name of access.sends ?? []) {
    const queue = targets.queues.get(name);
    if (!queue) throw new Error(`Access names an unknown queue ${name}.`);
    queue.grantSendMessages(grantee);
  }
  // GetSecretValue only: grantRead() would add DescribeSecret, which no function calls.
  for (const name of access.secrets) {
    grantee.grantPrincipal.addToPrincipalPolicy(
      new iam.PolicyStatement({
        actions: ['secretsmanager:GetSecretValue'],
        resources: [targets.secrets[name].secretArn],
      }),
    );
  }
}
