// Everything one stage of the payments gateway runs on. The shapes come from lib/ (routes, queues,
// table); this file only wires them together. The stage's main stack (this one) keeps what it holds
// and runs: the table, the keys and secrets, the queues, the functions and their logs, the API with its
// domains and distribution. Beside it, deployed after it and reading from it only by its outputs
// (infra/stack-output.ts): `<id>-api`, the API's routes and stage (constructs/api-routes.ts), and
// `<id>-observability`, the alarms and their metric filters (constructs/observability.ts). No resource
// of this stack refers to either, so they can change, or be deleted and made again, without touching it;
// what the stage keeps stayed here under its logical ids when they were split out
// (test/infra/stack-split.test.ts, docs/production.md "What a stage is").
import { CfnOutput, Duration, Stack, type StackProps, Tags, Validations } from 'aws-cdk-lib';
import { FilterCriteria, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { Construct } from 'constructs';
import { type BundleEntry, bundleEntries } from '../esbuild.config.ts';
import type { STAGE_OUTPUT_VARIABLES } from '../lib/admin/stage-outputs.ts';
import { DEFAULT_LEDGER_TIMEOUT_MS, ledgerChannels } from '../lib/config.ts';
import { listIndexesReadAtStep, pendingIndexReadAtStep, pendingStepOf } from '../lib/db/table.ts';
import { outboxItemTypes, outboxStream, REDRIVEN_MESSAGE } from '../lib/outbox.ts';
import { queueUrlVariable } from '../lib/queue-names.ts';
import { type QueueDefinition, queues as queueDefinitions } from '../lib/queues.ts';
import { API_PREFIX, apiFunctionNames, FALLBACK_FUNCTION } from '../lib/routes.ts';
import { stageTargetOf } from '../lib/stage-targets.ts';
import { type AlarmSubscribers, AlarmTopic } from './constructs/alarm-topic.ts';
import { ApiRoutesStack } from './constructs/api-routes.ts';
import { BundledFunction, DEFAULT_TIMEOUT_SECONDS } from './constructs/bundled-function.ts';
import { type EdgeDomain, GatewayEdge } from './constructs/edge.ts';
import { EdgeAlarmsStack } from './constructs/edge-alarms.ts';
import { CLOUDFRONT_WAF_REGION, EdgeFirewallStack } from './constructs/edge-firewall.ts';
import {
  FunctionSchedule,
  RECONCILER_DEAD_LETTERS_QUEUE,
  RECONCILER_RATE,
  SANDBOX_RESERVES_DEAD_LETTERS_QUEUE,
  SANDBOX_RESERVES_RATE,
} from './constructs/function-schedule.ts';
import { GatewayApi } from './constructs/gateway-api.ts';
import { GatewayTable } from './constructs/gateway-table.ts';
import { KeyReplicaStack, rotationRoleName } from './constructs/key-replica.ts';
import { KeySecrets, keySecretNamePrefix, keySecretNames } from './constructs/key-secrets.ts';
import { type NoticeSettings, Notices } from './constructs/notices.ts';
import { Observability, type ObservabilityProps, ObservabilityStack } from './constructs/observability.ts';
import { OutboxFailures } from './constructs/outbox-failures.ts';
import { PortalContentStack, PortalSite } from './constructs/portal.ts';
import { type BackupVaultLock, TableBackup } from './constructs/table-backup.ts';
import { TableProtection } from './constructs/table-protection.ts';
import { WorkQueue } from './constructs/work-queue.ts';
import {
  accessOf,
  type FunctionAccess,
  functionAccess,
  grantAccess,
  secretIdVariable,
} from './function-access.ts';
import { functionMemory, memoryOf } from './function-memory.ts';
import { SERVICE_NAME, type StageSettings, SynthRefusal, stageSettings } from './stage.ts';

export interface PaymentsGatewayStackProps extends StackProps {
  stage: string;
  /** Defaults to lib/queues.ts. Tests pass their own to exercise queues that have a worker. */
  queues?: readonly QueueDefinition[];
  /** Defaults to the bundles esbuild.config.ts writes. */
  bundles?: readonly BundleEntry[];
  /** Defaults to infra/function-access.ts. */
  access?: Readonly<Record<string, FunctionAccess>>;
  /** Defaults to infra/function-memory.ts. */
  memory?: Readonly<Record<string, number>>;
  /** The distribution's custom domain; without one it answers at its *.cloudfront.net name. Prod: required. */
  domain?: EdgeDomain | undefined;
  /** Who the alarms notify (infra/constructs/alarm-topic.ts). Prod: at least one. */
  alarmSubscribers?: AlarmSubscribers;
  /** Prod: the one role that may disable or delete the key material (infra/constructs/key-guard.ts). */
  breakGlassRoleArn?: string | undefined;
  /** Prod: a backup vault in another region or account each daily recovery point is copied to. */
  backupCopyVaultArn?: string | undefined;
  /** Prod: the backup vault's lock mode (infra/constructs/table-backup.ts); compliance unless chosen. */
  backupVaultLock?: BackupVaultLock;
  /** Beneficiary notices' sending identity and WhatsApp number (infra/constructs/notices.ts). */
  notices?: NoticeSettings;
  /**
   * A stage moving its list indexes to keys only: the step it deploys (lib/db/table.ts indexesAtStep);
   * without one, the final shape.
   */
  listIndexStep?: number | undefined;
  /** A stage moving its pending index to keys only: the step it deploys; without one, the final shape. */
  pendingIndexStep?: number | undefined;
}

/**
 * API functions whose timeout differs from BundledFunction's 10 s (API Gateway gives up at 30 s). A
 * function must outlast what it waits on, so that it answers with its own problem body (503 ledger
 * unavailable, balances: null) instead of being killed and leaving the client API Gateway's bare 503.
 * Wallets (balances) wait on one ledger request, up to LEDGER_TIMEOUT_MS, after their DynamoDB reads;
 * payments on two (a swap's path, then the paying wallet's balances: lib/payments/spendable.ts). The
 * sandbox waits up to 5 s for a wallet's account to open (lib/wallets/sandbox.ts), then starts ledger
 * rounds for at most 4 s (a trustline's opening, then the payment), the last of which may wait
 * LEDGER_TIMEOUT_MS. Statements catch a wallet's lines up from the ledger for at most 15 s
 * (lib/statements/ledger-sync.ts), then page them. test/infra/stack.test.ts finds the bundles that reach
 * the ledger.
 */
const LEDGER_WAIT = Duration.millis(DEFAULT_LEDGER_TIMEOUT_MS);
const apiTimeouts: Partial<Record<string, Duration>> = {
  wallets: LEDGER_WAIT.plus(Duration.seconds(5)),
  payments: LEDGER_WAIT.plus(LEDGER_WAIT).plus(Duration.seconds(5)),
  sandbox: Duration.seconds(28),
  statements: Duration.seconds(28),
};

/** A run: at most RECONCILE_MAX_PER_RUN records, each a query share, its sends and one update. */
const RECONCILER_TIMEOUT_SECONDS = 60;

const pascal = (name: string) => name.replace(/(^|[-_/])(\w)/g, (_, _sep, c: string) => c.toUpperCase());

export class PaymentsGatewayStack extends Stack {
  readonly settings: StageSettings;
  /** The API's routes and stage (`<id>-api`). */
  readonly routes: ApiRoutesStack;
  /** The alarms (`<id>-observability`). */
  readonly observability: ObservabilityStack;

  constructor(scope: Construct, id: string, props: PaymentsGatewayStackProps) {
    const {
      stage: stageName,
      queues = queueDefinitions,
      bundles = bundleEntries(),
      access: declaredAccess = functionAccess,
      memory: declaredMemory = functionMemory,
      domain,
      alarmSubscribers = { emails: [], httpsEndpoints: [] },
      breakGlassRoleArn,
      backupCopyVaultArn,
      backupVaultLock = 'compliance',
      notices = {},
      listIndexStep,
      pendingIndexStep,
      ...stackProps
    } = props;
    const settings = stageSettings(stageName);
    // The stage's account and region from cdk.json (lib/stage-targets.ts), never the credentials'.
    const declared = stackProps.env
      ? undefined
      : stageTargetOf(scope.node.tryGetContext('stages'), stageName);
    const { account, region } = stackProps.env ?? declared ?? {};
    const env = { account, region };
    super(scope, id, {
      description: `${SERVICE_NAME} (${settings.stage})`,
      terminationProtection: settings.production,
      ...stackProps,
      env,
    });
    this.settings = settings;
    const { stage, removalPolicy, logRetention } = settings;
    // The web ACL's own stack, in us-east-1 beside this one (same app, same account); deployed first.
    const firewall = new EdgeFirewallStack(scope, `${id}-edge`, {
      description: `${SERVICE_NAME} (${stage}): the web ACL in front of the API's CloudFront distribution`,
      env: { account: env.account, region: CLOUDFRONT_WAF_REGION },
      terminationProtection: settings.production,
      stage,
      throttle: settings.throttle,
      logRetention,
      removalPolicy,
    });

    const { table } = new GatewayTable(this, 'Data', { removalPolicy, listIndexStep, pendingIndexStep });
    const tableBackup = settings.production
      ? new TableBackup(this, 'Backup', {
          table,
          removalPolicy,
          copyVaultArn: backupCopyVaultArn,
          lock: backupVaultLock,
        })
      : undefined;
    // Production's key secrets are replicated to a second region, whose key is made there first.
    const replicaRegion = declared?.keyReplicaRegion;
    if (settings.production && !replicaRegion)
      throw new SynthRefusal(
        `Stage ${stage} needs a second region for its key material: add "keyReplicaRegion": "<region>" to ` +
          `its entry in cdk.json's "stages" (docs/production.md).`,
      );
    const replica =
      settings.production && replicaRegion
        ? new KeyReplicaStack(scope, `${id}-key-replica`, {
            description: `${SERVICE_NAME} (${stage}): the key that encrypts the key secrets' replicas`,
            env: { account, region: replicaRegion },
            terminationProtection: true,
            stage,
            removalPolicy,
            secretNames: Object.values(keySecretNames(stage)),
            secretNamePrefix: keySecretNamePrefix(stage),
            breakGlassRoleArn,
            subscribers: alarmSubscribers,
          })
        : undefined;
    const secrets = new KeySecrets(this, 'Keys', {
      stage,
      removalPolicy,
      replica: replica && { region: replica.region, keyArn: replica.keyArnFor(this) },
    });
    const alarmTopic = new AlarmTopic(this, 'Alarms', {
      stage,
      production: settings.production,
      subscribers: alarmSubscribers,
      removalPolicy,
    });
    if (settings.production) secrets.guard({ stage, breakGlassRoleArn, alarms: alarmTopic });
    // The alarms: a stack of their own, on this stack's topic (its subscriptions stay confirmed here).
    this.observability = new ObservabilityStack(scope, `${id}-observability`, {
      description: `${SERVICE_NAME} (${stage}): the alarms of the stage, on its alarm topic`,
      env,
      terminationProtection: settings.production,
      stage,
      topic: alarmTopic.topic,
    });
    this.observability.addStackDependency(this, 'its alarms watch what this stack runs');
    const alarms = this.observability.alarms;
    if (tableBackup) alarms.onBackupJobs('BackupJobs', tableBackup.vault.backupVaultName);

    // What the dashboard shows (infra/constructs/observability.ts): every queue and function, as made.
    const watched: ObservabilityProps = { stage, queues: [], functions: [] };
    // Queues first: producers get their URLs and send grants when they are created.
    const workQueues = new Map(
      queues.map((definition) => {
        const id = pascal(definition.name);
        const created = new WorkQueue(this, id, { stage, definition, removalPolicy });
        watched.queues.push({
          name: definition.name,
          queue: created.queue,
          deadLetterQueue: created.deadLetterQueue,
        });
        alarms.onDeadLetters(`${id}DeadLetters`, created.deadLetterQueue.queueName, definition.name);
        // Retries delay their own messages, so only a worker that is failing or starved lets one age.
        alarms.onQueueAge(`${id}Age`, created.queue.queueName, definition.name, Duration.minutes(30));
        return [definition.name, created.queue] as const;
      }),
    );

    const bundledFunction = (
      bundleName: string,
      timeout = Duration.seconds(DEFAULT_TIMEOUT_SECONDS),
      roleName?: string,
    ) => {
      const bundle = bundles.find((entry) => entry.name === bundleName);
      if (!bundle) throw new Error(`No source for ${bundleName}: expected functions/${bundleName}.ts.`);
      const granted = accessOf(bundleName, declaredAccess);
      const environment: Record<string, string> = {
        STAGE: stage,
        // Every function validates its config at cold start and TABLE_NAME is required there; a name
        // grants nothing, the role below decides what the function may do with it.
        TABLE_NAME: table.tableName,
        POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
        LOG_LEVEL: settings.logLevel,
        // The pool the functions lease from, as the ledger-submitter's maxConcurrency follows it (lib/queues.ts).
        LEDGER_CHANNELS: String(ledgerChannels()),
        LIST_INDEX_READS: listIndexesReadAtStep(listIndexStep),
        PENDING_INDEX_READS: pendingIndexReadAtStep(pendingStepOf(pendingIndexStep, listIndexStep)),
        ...settings.ledger,
      };
      for (const name of [...granted.secrets, ...(granted.writes ?? [])])
        environment[secretIdVariable[name]] = secrets.byName[name].secretArn;
      for (const name of granted.sends ?? []) {
        const queue = workQueues.get(name);
        if (queue) environment[queueUrlVariable(name)] = queue.queueUrl;
      }
      const created = new BundledFunction(this, pascal(bundleName), {
        bundle,
        description: `${SERVICE_NAME} ${stage} ${bundleName}`,
        environment,
        logRetention,
        logLevel: settings.logLevel,
        systemLogLevel: settings.systemLogLevel,
        removalPolicy,
        reservedConcurrentExecutions: settings.reservedConcurrency[bundleName],
        memorySize: memoryOf(bundleName, declaredMemory),
        timeout,
        roleName,
      });
      alarms.onFunction(pascal(bundleName), created.function.functionName, bundleName, timeout);
      watched.functions.push({ name: bundleName, fn: created.function });
      grantAccess(created.role, granted, {
        table,
        secrets: secrets.byName,
        secretsKey: secrets.key,
        secretArnPatterns: secrets.arnPatterns,
        queues: workQueues,
      });
      return created;
    };

    const apiBundles = new Map(
      apiFunctionNames.map((fn) => [fn, bundledFunction(`api/${fn}`, apiTimeouts[fn])]),
    );
    const apiFunctions = new Map([...apiBundles].map(([fn, bundle]) => [fn, bundle.function]));
    const api = new GatewayApi(this, 'Api', { stage, logRetention, removalPolicy, domain });
    for (const fn of apiFunctions.values()) api.permitInvoke(fn);
    // Its routes and stage: a stack of their own, after this one.
    this.routes = new ApiRoutesStack(scope, `${id}-api`, {
      description: `${SERVICE_NAME} (${stage}): the HTTP API's routes and stage`,
      env,
      terminationProtection: settings.production,
      stage,
      api,
      functionArns: new Map([...apiFunctions].map(([fn, created]) => [fn, created.functionArn])),
      throttle: settings.throttle,
    });
    this.routes.addStackDependency(this, 'its routes integrate the functions of this stack');
    alarms.onServerErrors('Api5xx', api.api.apiId);
    alarms.onLatency('ApiLatency', api.accessLogs.logGroupName, stage, `${API_PREFIX}/sandbox`);
    alarms.onTooManyRequests('Api429', api.accessLogs.logGroupName, stage);
    alarms.onTableThrottles('TableThrottles', table.tableName);
    if (domain)
      alarms.onCertificateExpiry(
        'RegionalCertificateExpiry',
        domain.regionalCertificateArn,
        "The API's regional certificate",
      );
    // The business portal: its bucket behind the same distribution, at /portal (infra/constructs/portal.ts).
    const portal = new PortalSite(this, 'Portal', { stage });
    const edge = new GatewayEdge(this, 'Edge', {
      stage,
      production: settings.production,
      origin: api.origin,
      webAclArn: firewall.webAclArnFor(this),
      domain,
      extraBehaviors: portal.behaviors,
    });
    // Its files, put in the bucket at every deploy by a stack of their own (deployed after this one).
    const portalContent = new PortalContentStack(scope, `${id}-portal`, {
      description: `${SERVICE_NAME} (${stage}): the business portal's files in its bucket`,
      env,
      stage,
      distribution: edge.distribution,
    });
    // It names the bucket rather than importing it: deployed after this stack, deleted before it.
    portalContent.addStackDependency(this, 'it fills the bucket of this stack');
    // Every function of the Middy chain refuses requests that did not come through the edge; the
    // fallback answers only 404/405 from the route table and needs no secret.
    for (const [fn, created] of apiFunctions) if (fn !== FALLBACK_FUNCTION) edge.requireOriginToken(created);

    const workers = new Map<string, BundledFunction>();
    for (const definition of queues) {
      const queue = workQueues.get(definition.name);
      if (definition.worker === null || !queue) continue;
      // SQS hides a received message for the visibility timeout; a worker must finish well inside it
      // (AWS advises a sixth) or the message is redelivered while still being processed.
      const worker = bundledFunction(
        `workers/${definition.worker}`,
        Duration.seconds(Math.max(1, Math.floor(definition.visibilityTimeoutSeconds / 6))),
      );
      worker.function.addEventSource(
        new SqsEventSource(queue, {
          batchSize: definition.batchSize,
          // Batches above 10 messages are only allowed with a batching window.
          ...(definition.batchSize > 10 ? { maxBatchingWindow: Duration.seconds(1) } : {}),
          // Workers use Powertools' BatchProcessor: only the failed messages are retried.
          reportBatchItemFailures: true,
          maxConcurrency: definition.maxConcurrency,
        }),
      );
      workers.set(definition.worker, worker);
    }

    // Beneficiary notices: the payment-notifier's channels, SES's configuration set and its feedback.
    const notifier = workers.get('payment-notifier');
    const sandboxHelpers = apiFunctions.get('sandbox');
    if (notifier && sandboxHelpers?.role) {
      const feedback = new Notices(this, 'Notices', {
        ...notices,
        stage,
        production: settings.production,
        removalPolicy,
        // The sandbox helpers send a recipient its verification code, and the portal its sign-in codes
        // and team invitations, through the same identity.
        senders: [
          notifier,
          { function: sandboxHelpers, role: sandboxHelpers.role },
          ...[apiBundles.get('portal')].filter((sender) => sender !== undefined),
        ],
        feedback: bundledFunction('events/ses-feedback').function,
      });
      alarms.onDeadLetters('SesFeedbackDeadLetters', feedback.deadLetterQueue.queueName, 'SES feedback');
      alarms.onDeadLetters(
        'SesFeedbackFailures',
        feedback.failureQueue.queueName,
        'the SES feedback function',
      );
      alarms.onSesReputation('SesReputation');
    }

    // The admin CLI's `ledger status` and `channels open` invoke it (lib/admin/ledger-admin.ts): opening
    // accounts takes ledger rounds (each up to LEDGER_TIMEOUT_MS), reading the pool one request per channel.
    const ledgerAdmin = bundledFunction('admin/ledger-accounts', Duration.seconds(60));

    // Secrets Manager rotates the key secrets with this function (infra/constructs/key-secrets.ts).
    secrets.rotateWith(
      bundledFunction('rotation/keys', Duration.seconds(20), replica && rotationRoleName(stage)),
    );

    // The outbox (lib/outbox.ts): the table's stream → the router → the queues its rows name.
    const router = bundledFunction('streams/outbox', Duration.seconds(outboxStream.timeoutSeconds));
    const routerFailures = new OutboxFailures(this, 'OutboxFailures', { stage, removalPolicy });
    alarms.onDeadLetters('OutboxFailuresDeadLetters', routerFailures.queue.queueName, 'the outbox stream');
    router.function.addEventSource(
      new DynamoEventSource(table, {
        startingPosition: StartingPosition[outboxStream.startingPosition],
        batchSize: outboxStream.batchSize,
        // The router reports the records it could not send (Powertools' BatchProcessor): the shard resumes
        // at the first of them. A batch that keeps failing is halved until the failing record is alone,
        // retried, then described to the failure queue (and its alarm) so the shard moves on.
        reportBatchItemFailures: true,
        bisectBatchOnError: true,
        retryAttempts: outboxStream.retryAttempts,
        onFailure: new SqsDlq(routerFailures.queue),
        // Only changes of item types a row reads invoke it (REMOVEs carry no new image: none do).
        filters: [FilterCriteria.filter({ dynamodb: { NewImage: { type: { S: [...outboxItemTypes] } } } })],
      }),
    );
    alarms.onIteratorAge(
      'OutboxIteratorAge',
      router.function.functionName,
      'the outbox stream',
      Duration.minutes(10),
    );
    // ListStreams has no resource-level permission: CDK's stream grant names '*', as IAM requires.
    Validations.of(router.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'dynamodb:ListStreams, which the stream event source needs, supports no resource-level permission ' +
        'and must name "*"; it lists stream ARNs only. Reading the stream is granted on its ARN alone.',
    });

    // The outbox's safety net (lib/outbox-reconciler.ts): on a schedule, the records whose work is owed past
    // the bound are re-driven through the same rows to the same queues.
    const reconciler = bundledFunction('schedules/reconciler', Duration.seconds(RECONCILER_TIMEOUT_SECONDS));
    const schedule = new FunctionSchedule(this, 'ReconcilerSchedule', {
      stage,
      fn: reconciler.function,
      removalPolicy,
      description: 'Runs the outbox reconciler: re-drives records whose outbox work is owed past the bound.',
      rate: RECONCILER_RATE,
      deadLetterQueueName: RECONCILER_DEAD_LETTERS_QUEUE,
    });
    alarms.onDeadLetters(
      'ReconcilerDeadLetters',
      schedule.deadLetterQueue.queueName,
      'the outbox reconciler schedule',
    );
    alarms.onRedriven('ReconcilerRedriven', reconciler.logGroup.logGroupName, stage, REDRIVEN_MESSAGE);

    // The sandbox's shared accounts, topped up (lib/ledger/sandbox-reserves.ts): friendbot's lumens for the
    // funding account, the issuers' test money for the settlement accounts; their balances alarmed when
    // they stay low an hour (four runs): a top-up that is not working (friendbot refusing, the function
    // failing), and every sandbox tenant's activations or receipts wait.
    const reserves = bundledFunction('schedules/sandbox-reserves', Duration.seconds(60));
    const reservesSchedule = new FunctionSchedule(this, 'SandboxReservesSchedule', {
      stage,
      fn: reserves.function,
      removalPolicy,
      description: "Tops up the sandbox's funding and settlement accounts where they run low.",
      rate: SANDBOX_RESERVES_RATE,
      deadLetterQueueName: SANDBOX_RESERVES_DEAD_LETTERS_QUEUE,
    });
    alarms.onDeadLetters(
      'SandboxReservesDeadLetters',
      reservesSchedule.deadLetterQueue.queueName,
      'the sandbox reserves schedule',
    );
    alarms.onSandboxReserveLow('SandboxFundingLow', stage, { account: 'funding', asset: 'XLM' }, 1_000);
    // The sandbox's on-ramps pay out USDC: the settlement account lowest in it, a tenth of its floor.
    alarms.onSandboxReserveLow(
      'SandboxSettlementLow',
      stage,
      { account: 'settlement', asset: 'USDC' },
      10_000,
    );

    new Observability(this, 'Observability', watched);

    new CfnOutput(this, 'ApiUrl', {
      description: 'Base URL of the API: every route is under /v1 (e.g. POST <ApiUrl>/auth/token).',
      value: edge.versionedUrl,
    });
    // The edge's alarms, in us-east-1 where CloudFront and WAF publish (deployed after this stack).
    new EdgeAlarmsStack(scope, `${id}-edge-alarms`, {
      description: `${SERVICE_NAME} (${stage}): the alarms of the API's CloudFront distribution and web ACL`,
      env: { account: env.account, region: CLOUDFRONT_WAF_REGION },
      terminationProtection: settings.production,
      stage,
      production: settings.production,
      subscribers: alarmSubscribers,
      removalPolicy,
      distributionId: new CfnOutput(this, 'DistributionId', {
        description: "The distribution's id (the edge alarms' dimension).",
        value: edge.distribution.distributionId,
      }),
      webAclName: firewall.firewall.webAcl.name as string,
      domain,
    });
    new CfnOutput(this, 'DistributionDomainName', {
      description: "Point the custom domain's DNS record (CNAME or alias) here.",
      value: edge.distribution.distributionDomainName,
    });
    // What the admin CLI addresses a stage by (lib/admin/stage-outputs.ts reads them back).
    const adminOutputs: Record<keyof typeof STAGE_OUTPUT_VARIABLES, [string, string]> = {
      TableName: [table.tableName, 'The table.'],
      SigningKeysSecretName: [secrets.names['signing-keys'], 'Private token-signing keys (rotated in AWS).'],
      TokenJwksSecretName: [secrets.names['token-jwks'], 'Public JWKS of the signing keys.'],
      CursorKeySecretName: [secrets.names['cursor-key'], 'Pagination cursor key.'],
      KekSandboxSecretName: [secrets.names['kek-sandbox'], 'Key-encryption key of sandbox tenants.'],
      KekProductionSecretName: [secrets.names['kek-production'], 'Key-encryption key of production tenants.'],
      LedgerAdminFunctionName: [
        ledgerAdmin.function.functionName,
        'The function `admin ledger status` and `channels open` invoke.',
      ],
    };
    for (const [id, [value, description]] of Object.entries(adminOutputs))
      new CfnOutput(this, id, { value, description });
    new CfnOutput(this, 'AlarmTopicArn', {
      description: 'Subscribe on-call here.',
      value: alarmTopic.topic.topicArn,
    });
    // Every resource names its service and stage (cost reports, access reviews, clean-up).
    for (const stack of [this, this.routes, this.observability]) {
      Tags.of(stack).add('service', SERVICE_NAME);
      Tags.of(stack).add('stage', stage);
    }
    // Last: the table is locked only once nothing else of the first create can fail.
    if (settings.production) new TableProtection(this, 'TableProtection', { table }).afterEverythingElse();
  }
}
