// The synthesized stack against the sources of truth in lib/ (routes, queues, table) and the access
// each function must have. One synth (dev and prod stacks in one App) for the whole file.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks, type IApplyRule, NagRuleCompliance } from 'cdk-nag';
import { describe, test } from 'vitest';
import { bundleEntries } from '../../esbuild.config.ts';
import { alarmSubscribersFromContext } from '../../infra/constructs/alarm-topic.ts';
import {
  GatewayTable,
  listIndexStepFromContext,
  pendingIndexStepFromContext,
} from '../../infra/constructs/gateway-table.ts';
import { nagChecks } from '../../infra/nag.ts';
import { PaymentsGatewayStack, type PaymentsGatewayStackProps } from '../../infra/stack.ts';
import { stageSettings } from '../../infra/stage.ts';
import { STAGE_OUTPUT_VARIABLES } from '../../lib/admin/stage-outputs.ts';
import { DEFAULT_LEDGER_TIMEOUT_MS } from '../../lib/config.ts';
import { LIST_INDEX_STEPS, listIndexesReadAtStep, tableDefinition } from '../../lib/db/table.ts';
import { outboxItemTypes, outboxQueues, outboxStream } from '../../lib/outbox.ts';
import { physicalDeadLetterQueueName, physicalQueueName, queueUrlVariable } from '../../lib/queue-names.ts';
import { queues } from '../../lib/queues.ts';
import { API_PREFIX, apiFunctionNames, FALLBACK_FUNCTION, routeKeyOf, routes } from '../../lib/routes.ts';
import { stageTargetOf } from '../../lib/stage-targets.ts';
import {
  asArray,
  type CfnResource,
  ensureBundles,
  newApp,
  ofType,
  onlyOfType,
  type PolicyStatement,
  type Resources,
  referencedId,
  stageProps,
  stageTemplate,
  statementsOfRole,
  synthesisMessages,
} from './support.ts';

await ensureBundles();
const app = newApp();
const devStack = new PaymentsGatewayStack(app, 'Dev', { stage: 'dev' });
const prodStack = new PaymentsGatewayStack(app, 'Prod', stageProps('prod'));
const assembly = app.synth();
const dev = stageTemplate(devStack);
const prod = stageTemplate(prodStack);
const resources = dev.toJSON().Resources as Resources;
const resource = (id: string): CfnResource => {
  const found = resources[id];
  assert.ok(found, `no resource ${id}`);
  return found;
};
const props = (id: string) => resource(id).Properties ?? {};

const tableId = onlyOfType(resources, 'AWS::DynamoDB::Table');
const secretId = (name: string) => {
  const ids = ofType(resources, 'AWS::SecretsManager::Secret')
    .filter(([, r]) => String(r.Properties?.Name).endsWith(`/${name}`))
    .map(([id]) => id);
  assert.equal(ids.length, 1, `exactly one ${name} secret`);
  return ids[0] as string;
};

/** The bundle each function ships, read from the asset CDK staged for it (what `cdk deploy` uploads). */
function stagedBundleOf(functionId: string): string {
  const code = props(functionId).Code as { S3Key?: string };
  const hash = code.S3Key?.replace(/\.zip$/, '');
  assert.ok(hash, `${functionId} has an S3 asset`);
  return join(assembly.directory, `asset.${hash}`, 'index.mjs');
}

/** Which bundle a template function ships (`api/auth`, `workers/…`): the esbuild output its asset copies. */
function bundleOf(functionId: string): string {
  const staged = readFileSync(stagedBundleOf(functionId));
  const matches = bundleEntries()
    .filter((entry) => readFileSync(entry.outFile).equals(staged))
    .map((entry) => entry.name);
  assert.equal(matches.length, 1, `${functionId} ships exactly one bundle (got ${matches.join(', ')})`);
  return matches[0] as string;
}

/** The API function a template function is (its bundle under api/). */
function apiFunctionOf(functionId: string): string {
  const bundle = bundleOf(functionId);
  assert.ok(bundle.startsWith('api/'), `${functionId} ships ${bundle}, not an API bundle`);
  return bundle.slice('api/'.length);
}

const functionIds = ofType(resources, 'AWS::Lambda::Function').map(([id]) => id);
const functionIdByBundle = new Map(functionIds.map((id) => [bundleOf(id), id]));
const functionIdByName = new Map(
  [...functionIdByBundle]
    .filter(([bundle]) => bundle.startsWith('api/'))
    .map(([bundle, id]) => [bundle.slice(4), id]),
);

/** Follows a route's Target through its integration to the Lambda function it invokes. */
function functionBehindRoute(routeKey: string): string {
  const found = ofType(resources, 'AWS::ApiGatewayV2::Route').filter(
    ([, r]) => r.Properties?.RouteKey === routeKey,
  );
  assert.equal(found.length, 1, `exactly one route ${routeKey}`);
  const target = found[0]?.[1].Properties?.Target as { 'Fn::Join': [string, unknown[]] };
  const [prefix, integrationRef] = target['Fn::Join'][1];
  assert.equal(prefix, 'integrations/');
  const integration = props(referencedId(integrationRef));
  assert.equal(integration.IntegrationType, 'AWS_PROXY');
  assert.equal(integration.PayloadFormatVersion, '2.0');
  return referencedId(integration.IntegrationUri);
}

/**
 * Resources a stack may hold: CloudFormation refuses a template past 500, and CDK notes one past 80 % of
 * it. Each stack of a stage stays under 400 (test/infra/stack-split.test.ts counts them).
 */
const RESOURCE_BOUND = 400;

describe('HTTP API', () => {
  test('every route of lib/routes.ts is served by the function named in its fn', () => {
    for (const route of routes) {
      const functionId = functionBehindRoute(routeKeyOf(route));
      assert.equal(apiFunctionOf(functionId), route.fn, `${routeKeyOf(route)} → ${route.fn}`);
    }
  });

  test('$default goes to the fallback function', () => {
    assert.equal(apiFunctionOf(functionBehindRoute('$default')), FALLBACK_FUNCTION);
  });

  test('there are no routes besides the route table and $default', () => {
    const keys = ofType(resources, 'AWS::ApiGatewayV2::Route').map(([, r]) => r.Properties?.RouteKey);
    assert.deepEqual(new Set(keys), new Set([...routes.map(routeKeyOf), '$default']));
  });

  test('API Gateway may invoke every API function', () => {
    for (const [name, functionId] of functionIdByName) {
      const permitted = ofType(resources, 'AWS::Lambda::Permission').some(
        ([, r]) =>
          r.Properties?.Principal === 'apigateway.amazonaws.com' &&
          r.Properties.Action === 'lambda:InvokeFunction' &&
          referencedId(r.Properties.FunctionName) === functionId,
      );
      assert.ok(permitted, `no invoke permission for ${name}`);
    }
  });

  test('the $default stage auto-deploys, is throttled and writes JSON access logs', () => {
    const stages = ofType(resources, 'AWS::ApiGatewayV2::Stage');
    assert.equal(stages.length, 1);
    const stage = stages[0]?.[1].Properties ?? {};
    assert.equal(stage.StageName, '$default');
    assert.equal(stage.AutoDeploy, true);
    const throttle = stage.DefaultRouteSettings as {
      ThrottlingRateLimit?: number;
      ThrottlingBurstLimit?: number;
    };
    assert.ok((throttle?.ThrottlingRateLimit ?? 0) > 0 && (throttle?.ThrottlingBurstLimit ?? 0) > 0);
    const logs = stage.AccessLogSettings as { DestinationArn: unknown; Format: string };
    assert.equal(resource(referencedId(logs.DestinationArn)).Type, 'AWS::Logs::LogGroup');
    // JSON once API Gateway has written its values (latencyMs is a number, unquoted).
    assert.equal(
      JSON.parse(logs.Format.replace('$context.responseLatency', '12')).requestId,
      '$context.requestId',
    );
  });

  test('outputs the versioned URL, the table, the secret names: all the admin CLI reads', () => {
    const outputs = dev.toJSON().Outputs as Record<string, { Value: unknown }>;
    assert.match(JSON.stringify(outputs.ApiUrl?.Value), new RegExp(`"${API_PREFIX}"`));
    assert.deepEqual(outputs.TableName?.Value, { Ref: tableId });
    assert.equal(outputs.SigningKeysSecretName?.Value, props(secretId('signing-keys')).Name);
    assert.equal(outputs.TokenJwksSecretName?.Value, props(secretId('token-jwks')).Name);
    assert.equal(outputs.CursorKeySecretName?.Value, props(secretId('cursor-key')).Name);
    assert.equal(outputs.KekSandboxSecretName?.Value, props(secretId('kek-sandbox')).Name);
    assert.equal(outputs.KekProductionSecretName?.Value, props(secretId('kek-production')).Name);
    // Every output the admin CLI reads a stage by is there.
    for (const output of Object.keys(STAGE_OUTPUT_VARIABLES)) assert.ok(outputs[output], output);
  });
});

describe('functions', () => {
  test('one function per API function name and per queue worker, the outbox router and its reconciler, the sandbox reserves top-up, the key rotation, the ledger admin and the SES feedback, nothing else', () => {
    assert.deepEqual(new Set(functionIdByName.keys()), new Set(apiFunctionNames));
    const workers = queues.flatMap((q) => (q.worker ? [`workers/${q.worker}`] : []));
    assert.deepEqual(
      new Set(functionIdByBundle.keys()),
      new Set([
        ...apiFunctionNames.map((fn) => `api/${fn}`),
        ...workers,
        'streams/outbox',
        'schedules/reconciler',
        'schedules/sandbox-reserves',
        'rotation/keys',
        'admin/ledger-accounts',
        'events/ses-feedback',
      ]),
    );
    assert.equal(functionIds.length, apiFunctionNames.length + workers.length + 6);
  });

  test('every function exports a handler from the bundle it ships', () => {
    for (const functionId of functionIds) {
      const p = props(functionId);
      assert.equal(p.Handler, 'index.handler');
      const bundle = stagedBundleOf(functionId);
      assert.ok(existsSync(`${bundle}.map`), `${functionId} ships its source map`);
      // In a child process with stand-in configuration: loading a handler module reads its config.
      const exported = execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(pathToFileURL(bundle).href)}); process.stdout.write(typeof m.handler);`,
        ],
        {
          encoding: 'utf8',
          env: {
            PATH: process.env.PATH,
            AWS_REGION: 'eu-west-1',
            TABLE_NAME: 'stand-in',
            STAGE: 'test',
            LOG_LEVEL: 'SILENT',
            SIGNING_KEYS_SECRET_ID: 'stand-in',
            TOKEN_JWKS_SECRET_ID: 'stand-in',
          },
        },
      );
      assert.equal(exported, 'function', `${functionId}: ${bundle} must export a handler function`);
    }
  });

  test('Node.js 24 on arm64 with tracing, source maps and an explicit log group', () => {
    for (const functionId of functionIds) {
      const p = props(functionId);
      assert.equal(p.Runtime, 'nodejs24.x', functionId);
      assert.deepEqual(p.Architectures, ['arm64'], functionId);
      assert.deepEqual(p.TracingConfig, { Mode: 'Active' }, functionId);
      const env = (p.Environment as { Variables: Record<string, unknown> }).Variables;
      assert.equal(env.NODE_OPTIONS, '--enable-source-maps', functionId);
      const logGroup = resource(referencedId((p.LoggingConfig as { LogGroup: unknown }).LogGroup));
      assert.equal(logGroup.Type, 'AWS::Logs::LogGroup');
      assert.ok(Number(logGroup.Properties?.RetentionInDays) > 0, `${functionId} log retention`);
    }
    // Sandbox funding waits up to 5 s for the wallet's account, then pays within the ledger timeout (10 s).
    const sandbox = functionIdByBundle.get('api/sandbox') as string;
    assert.ok(Number(props(sandbox).Timeout) >= 15, 'the sandbox function outlasts its wait and payment');
    // A statement catches its wallet up from the ledger for up to 15 s before it pages.
    const statements = functionIdByBundle.get('api/statements') as string;
    assert.ok(Number(props(statements).Timeout) >= 20, 'the statements function outlasts its catch-up');
  });
});

// What each function needs, stated here independently of infra/function-access.ts.
// A provider's notification route authenticates by the provider's signature, not a token.
const TOKEN_ROUTE_FUNCTIONS = new Set<string>(
  routes.filter((route) => route.auth !== 'providerSignature').map((route) => route.fn),
);
interface ExpectedAccess {
  table: 'none' | 'read' | 'readWrite';
  /** Removes items (DeleteItem): only the functions whose code does. */
  deletes?: true;
  secrets: string[];
  /** Queues it sends to. */
  sends?: string[];
  /** The queue it consumes (workers). */
  consumes?: string;
  /** Reads the table's stream (through its event source), and describes failed batches to this queue. */
  stream?: { failures: string };
  /** Writes only these partitions (a dynamodb:LeadingKeys condition on its writes, on the table alone). */
  writesTo?: string[];
  /** Read-only, but puts new items in these partitions (PutItem alone, on the table alone). */
  appends?: string[];
}
const expectedAccess: Record<string, ExpectedAccess> = {
  auth: { table: 'readWrite', secrets: ['signing-keys', 'token-jwks'] },
  // Failed reads go to the tenants' request logs (lib/http/request-records.ts).
  assets: { table: 'read', secrets: ['token-jwks', 'cursor-key'], appends: ['T#*#REQLOG'] },
  fallback: { table: 'none', secrets: [] },
  // No queue: a new wallet's insert asks for its activation through the outbox.
  // Both KEKs: it creates wallets for tenants of either environment.
  wallets: { table: 'readWrite', secrets: ['token-jwks', 'cursor-key', 'kek-sandbox', 'kek-production'] },
  // Sandbox tenants only: never the production KEK.
  sandbox: {
    table: 'readWrite',
    secrets: ['token-jwks', 'kek-sandbox'],
    sends: ['ledger-submissions'],
    writesTo: ['T#*', 'PLATFORM#sandbox', 'SUBMISSION#sandbox#*', 'PROVIDER#sandbox#*', 'RATE#*'],
  },
  beneficiaries: { table: 'readWrite', secrets: ['token-jwks', 'cursor-key'] },
  connectors: { table: 'read', secrets: ['token-jwks', 'cursor-key'], appends: ['T#*#REQLOG'] },
  quotes: { table: 'readWrite', secrets: ['token-jwks'] },
  // No queue: an accepted payment's insert asks for its execution through the outbox.
  payments: { table: 'readWrite', secrets: ['token-jwks'] },
  providers: {
    table: 'readWrite',
    secrets: ['kek-sandbox', 'kek-production'],
    writesTo: ['T#*', 'PROVIDER#*', 'PLATFORM#*', 'SUBMISSION#*', 'RATE#*'],
  },
  // Registers customers with the connector's provider: opens its secret to sign the request.
  customers: { table: 'readWrite', secrets: ['token-jwks', 'kek-sandbox', 'kek-production'] },
  // Asks the connector's provider for references: opens its secret to sign the request.
  onramp: { table: 'readWrite', secrets: ['token-jwks', 'kek-sandbox', 'kek-production'] },
  transactions: { table: 'read', secrets: ['token-jwks', 'cursor-key'], appends: ['T#*#REQLOG'] },
  // Writes the lines it reads from the ledger.
  statements: { table: 'readWrite', secrets: ['token-jwks', 'cursor-key'] },
  // Seals each new webhook's signing secret; a redelivery asks for its attempt through the outbox.
  // Deleting a webhook deletes its URL's claim.
  webhooks: {
    table: 'readWrite',
    secrets: ['token-jwks', 'cursor-key', 'kek-sandbox', 'kek-production'],
    deletes: true,
  },
  // The portal's sign-in: signs people's tokens; spends codes and ends sessions (deletes both). Its team
  // routes: removing a person deletes their membership; the audit log pages with sealed cursors.
  portal: { table: 'readWrite', secrets: ['signing-keys', 'token-jwks', 'cursor-key'], deletes: true },
};
const expectedWorkerAccess: Record<string, ExpectedAccess> = {
  // An opening the platform could not pay is asked for again, on its own queue, with a delay.
  'wallet-activator': {
    table: 'readWrite',
    secrets: ['kek-sandbox', 'kek-production'],
    consumes: 'wallet-activations',
    sends: ['wallet-activations'],
  },
  // Re-queues a payment still in flight on its own queue, with a delay.
  'ledger-submitter': {
    table: 'readWrite',
    secrets: ['kek-sandbox', 'kek-production'],
    consumes: 'ledger-submissions',
    sends: ['ledger-submissions'],
  },
  'webhook-dispatcher': { table: 'readWrite', secrets: [], consumes: 'webhook-events' },
  // Re-queues a notice whose channel failed on its own queue, with a delay. Its SES grant and WhatsApp
  // token come with a stage's notice settings (test/infra/notices.test.ts); this stage has none.
  'payment-notifier': {
    table: 'readWrite',
    secrets: [],
    consumes: 'payment-notifications',
    sends: ['payment-notifications'],
  },
  // Opens each registration's secret to sign; re-queues the next attempt on its own queue.
  'webhook-deliverer': {
    table: 'readWrite',
    secrets: ['kek-sandbox', 'kek-production'],
    consumes: 'webhook-deliveries',
    sends: ['webhook-deliveries', 'webhook-slow-deliveries'],
    // Recording an attempt drops the oldest one kept.
    deletes: true,
  },
  'webhook-slow-deliverer': {
    table: 'readWrite',
    secrets: ['kek-sandbox', 'kek-production'],
    consumes: 'webhook-slow-deliveries',
    sends: ['webhook-deliveries'],
    deletes: true,
  },
};
// The outbox router reads no item: only the stream, and sends where its rows say.
const expectedRouterAccess: ExpectedAccess = {
  table: 'none',
  secrets: [],
  sends: [
    'wallet-activations',
    'ledger-submissions',
    'payment-notifications',
    'webhook-events',
    'webhook-deliveries',
  ],
  stream: { failures: 'outbox-failures' },
};
/** The admin CLI's ledger admin: the table and both environments' KEKs (it seals and signs), no queue. */
const expectedLedgerAdminAccess: ExpectedAccess = {
  table: 'readWrite',
  secrets: ['kek-sandbox', 'kek-production'],
};
const STREAM_ACTIONS = ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'];
const SEND_ACTIONS = ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'];
const CONSUME_ACTIONS = [
  'sqs:ReceiveMessage',
  'sqs:ChangeMessageVisibility',
  'sqs:GetQueueUrl',
  'sqs:DeleteMessage',
  'sqs:GetQueueAttributes',
];
const queueIdNamed = (name: string) => {
  const found = ofType(resources, 'AWS::SQS::Queue').filter(
    ([, r]) => r.Properties?.QueueName === physicalQueueName('dev', name),
  );
  assert.equal(found.length, 1, `queue ${name}`);
  return found[0]?.[0] as string;
};
// Stated here independently of infra/function-access.ts: what lib/db calls, and nothing more.
const WRITE_ACTIONS = ['dynamodb:PutItem', 'dynamodb:UpdateItem'];
const DELETE_ACTION = 'dynamodb:DeleteItem';
const READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
];

function statementsOf(functionId: string): PolicyStatement[] {
  const roleId = referencedId(props(functionId).Role);
  const role = props(roleId);
  assert.equal(role.ManagedPolicyArns, undefined, `${functionId}: no managed policies`);
  assert.equal(role.Policies, undefined, `${functionId}: no inline role policies`);
  return statementsOfRole(resources, roleId);
}

describe('ledger admin function', () => {
  test('invoked by name only: no event source, no route; its name is an output the admin CLI reads', () => {
    const functionId = functionIdByBundle.get('admin/ledger-accounts');
    assert.ok(functionId);
    const mappings = ofType(resources, 'AWS::Lambda::EventSourceMapping').filter(
      ([, r]) => referencedId(r.Properties?.FunctionName) === functionId,
    );
    assert.equal(mappings.length, 0);
    const permissions = ofType(resources, 'AWS::Lambda::Permission').filter(
      ([, r]) => referencedId(r.Properties?.FunctionName) === functionId,
    );
    assert.equal(permissions.length, 0, 'no service may invoke it');
    const outputs = dev.toJSON().Outputs as Record<string, { Value: unknown }>;
    assert.deepEqual(outputs.LedgerAdminFunctionName?.Value, { Ref: functionId });
  });
});

describe('timeouts and concurrency', () => {
  const prodResources = prod.toJSON().Resources as Resources;
  /** The sources a bundle was built from (its source map), relative to the repository. */
  const sourcesOf = (bundle: string): string[] => {
    const entry = bundleEntries().find((e) => e.name === bundle);
    assert.ok(entry, bundle);
    const map = JSON.parse(readFileSync(`${entry.outFile}.map`, 'utf8')) as { sources: string[] };
    return map.sources.map((source) => source.replace(/^(\.\.\/)+/, ''));
  };
  const timeoutMs = (functionId: string) => Number(props(functionId).Timeout) * 1000;

  test('a function that waits on the ledger outlasts a ledger request; API functions answer within 30 s', () => {
    const waiting: string[] = [];
    for (const [bundle, functionId] of functionIdByBundle) {
      const reachesLedger = sourcesOf(bundle).includes('lib/ledger/horizon-json.ts');
      if (reachesLedger) {
        waiting.push(bundle);
        // A ledger request, plus the DynamoDB work around it, before the function is killed.
        assert.ok(timeoutMs(functionId) >= DEFAULT_LEDGER_TIMEOUT_MS + 5000, `${bundle} outlasts the ledger`);
      }
      if (bundle.startsWith('api/')) {
        assert.ok(timeoutMs(functionId) < 30_000, `${bundle} answers before API Gateway's 30 s`);
        if (!reachesLedger) assert.equal(timeoutMs(functionId), 10_000, `${bundle}: DynamoDB only`);
      }
    }
    // The check above is only as good as its finding of the functions that reach the ledger.
    for (const bundle of ['api/wallets', 'api/payments', 'api/sandbox', 'workers/ledger-submitter'])
      assert.ok(waiting.includes(bundle), bundle);
  });

  test('a worker that submits to the ledger takes one message per invocation, finished within a sixth of its visibility', () => {
    const submitting: string[] = [];
    for (const definition of queues) {
      if (!definition.worker) continue;
      const bundle = `workers/${definition.worker}`;
      const functionId = functionIdByBundle.get(bundle);
      assert.ok(functionId, bundle);
      const [, mapping] =
        ofType(resources, 'AWS::Lambda::EventSourceMapping').find(
          ([, r]) => referencedId(r.Properties?.FunctionName) === functionId,
        ) ?? [];
      assert.ok(timeoutMs(functionId) * 6 <= definition.visibilityTimeoutSeconds * 1000, bundle);
      if (sourcesOf(bundle).includes('lib/ledger/submit.ts')) {
        submitting.push(bundle);
        // Rounds of up to a ledger timeout each: a second message could only share the first one's fate.
        assert.equal(mapping?.Properties?.BatchSize, 1, bundle);
      }
    }
    assert.deepEqual(submitting.sort(), ['workers/ledger-submitter', 'workers/wallet-activator']);
  });

  test('JSON logs: the stage’s level for the functions’ lines; Lambda’s START and REPORT kept in dev, dropped in prod', () => {
    for (const functionId of functionIds) {
      const dev = props(functionId).LoggingConfig as Record<string, unknown>;
      const prod = prodResources[functionId]?.Properties?.LoggingConfig as Record<string, unknown>;
      assert.deepEqual(
        [dev.LogFormat, dev.ApplicationLogLevel, dev.SystemLogLevel],
        ['JSON', 'DEBUG', 'INFO'],
        `dev ${functionId}`,
      );
      assert.deepEqual(
        [prod.LogFormat, prod.ApplicationLogLevel, prod.SystemLogLevel],
        ['JSON', 'INFO', 'WARN'],
        `prod ${functionId}`,
      );
    }
  });

  test('prod reserves concurrency for what moves money and caps the fallback; other stages reserve none', () => {
    const reserved = stageSettings('prod').reservedConcurrency;
    for (const [bundle, functionId] of functionIdByBundle) {
      assert.equal(props(functionId).ReservedConcurrentExecutions, undefined, `dev ${bundle}`);
      assert.equal(
        prodResources[functionId]?.Properties?.ReservedConcurrentExecutions,
        reserved[bundle],
        `prod ${bundle}`,
      );
    }
    for (const bundle of ['workers/ledger-submitter', 'workers/wallet-activator', 'streams/outbox'])
      assert.ok((reserved[bundle] ?? 0) > 0, bundle);
    // An SQS source's maximum concurrency above the reserved would only throttle its own invocations.
    for (const definition of queues) {
      const kept = reserved[`workers/${definition.worker}`];
      if (kept !== undefined) assert.ok(kept >= definition.maxConcurrency, definition.name);
    }
    // AWS keeps 100 of an account's (default 1,000) concurrency unreserved.
    const total = Object.values(reserved).reduce((sum, n) => sum + n, 0);
    assert.ok(total <= 900, `${total} reserved`);
  });
});

describe('stages', () => {
  const stages = newApp().node.tryGetContext('stages');

  test("each stage deploys to its own account and region from cdk.json, never the credentials'", () => {
    for (const stack of [devStack, prodStack]) {
      const target = stageTargetOf(stages, stack.settings.stage);
      assert.equal(stack.account, target.account);
      assert.equal(stack.region, target.region);
      const edge = assembly.getStackArtifact(`${stack.artifactId}-edge`);
      assert.deepEqual(
        { account: edge.environment.account, region: edge.environment.region },
        { account: target.account, region: 'us-east-1' },
      );
      const artifact = assembly.getStackArtifact(stack.artifactId);
      assert.equal(artifact.environment.account, target.account);
    }
    assert.notEqual(devStack.account, prodStack.account, 'production in an account of its own');
  });

  test('an undeclared stage or a malformed target fails the synth, naming cdk.json', () => {
    assert.throws(
      () => new PaymentsGatewayStack(newApp(), 'Elsewhere', { stage: 'elsewhere' }),
      /Stage "elsewhere" is not declared: add .* to "stages" in cdk.json/,
    );
    assert.throws(() => stageTargetOf({ x: { account: '12', region: 'eu-west-1' } }, 'x'), /12-digit/);
    assert.throws(() => stageTargetOf({ x: { account: '111111111111', region: 'mars' } }, 'x'), /region/);
    assert.throws(() => stageTargetOf({}, 'constructor'), /not declared/);
  });
});

describe('least privilege', () => {
  test('every API function has a stated expectation', () => {
    assert.deepEqual(new Set(Object.keys(expectedAccess)), new Set(apiFunctionNames));
  });

  test('the JWKS is readable by exactly the functions that serve token routes', () => {
    for (const name of apiFunctionNames) {
      assert.equal(
        expectedAccess[name]?.secrets.includes('token-jwks'),
        TOKEN_ROUTE_FUNCTIONS.has(name),
        name,
      );
    }
  });

  test('every worker has a stated expectation', () => {
    const workers = [...functionIdByBundle.keys()]
      .filter((b) => b.startsWith('workers/'))
      .map((b) => b.slice(8));
    assert.deepEqual(new Set(workers), new Set(Object.keys(expectedWorkerAccess)));
  });

  const cases = [
    ...Object.entries(expectedAccess).map(([name, expected]) => [`api/${name}`, expected] as const),
    ...Object.entries(expectedWorkerAccess).map(([name, expected]) => [`workers/${name}`, expected] as const),
    ['streams/outbox', expectedRouterAccess] as const,
    ['admin/ledger-accounts', expectedLedgerAdminAccess] as const,
  ];
  for (const [name, expected] of cases) {
    test(`${name}: table ${expected.table}, secrets [${expected.secrets.join(', ')}], queues, nothing else`, () => {
      const functionId = functionIdByBundle.get(name);
      assert.ok(functionId, `function ${name}`);
      const ownLogGroup = referencedId((props(functionId).LoggingConfig as { LogGroup: unknown }).LogGroup);
      const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
      const indexArn = { 'Fn::Join': ['', [tableArn, '/index/*']] };
      const dynamodbActions = new Set<string>();
      const streamActions = new Set<string>();
      const secretsRead = new Set<string>();
      const sqsActionsByQueue = new Map<string, Set<string>>();

      let scopedWrites = false;
      let appended = false;
      for (const statement of statementsOf(functionId)) {
        assert.equal(statement.Effect, 'Allow');
        if (expected.appends && statement.Condition !== undefined) {
          // New items, on the table alone, in its partitions alone.
          assert.deepEqual(asArray(statement.Resource), [{ 'Fn::GetAtt': [tableId, 'Arn'] }]);
          assert.deepEqual(statement.Condition, {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': expected.appends },
          });
          assert.deepEqual(asArray(statement.Action), ['dynamodb:PutItem']);
          appended = true;
          continue;
        }
        if (expected.writesTo && statement.Condition !== undefined) {
          // Its writes, on the table alone, to its partitions alone.
          assert.deepEqual(asArray(statement.Resource), [{ 'Fn::GetAtt': [tableId, 'Arn'] }]);
          assert.deepEqual(statement.Condition, {
            'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': expected.writesTo },
          });
          assert.deepEqual(new Set(asArray(statement.Action)), new Set(WRITE_ACTIONS));
          for (const action of WRITE_ACTIONS) dynamodbActions.add(action);
          scopedWrites = true;
          continue;
        }
        assert.equal(statement.Condition, undefined);
        const targets = asArray(statement.Resource);
        // CDK merges statements on the same resources: '*' holds X-Ray's actions and, for the outbox
        // router, the stream's ListStreams. Each service's actions are checked on their own.
        const byService = Map.groupBy(asArray(statement.Action), (action) => action.split(':')[0]);
        for (const [service, actions] of byService) {
          switch (service) {
            case 'logs':
              assert.deepEqual(new Set(actions), new Set(['logs:CreateLogStream', 'logs:PutLogEvents']));
              assert.deepEqual(targets, [{ 'Fn::GetAtt': [ownLogGroup, 'Arn'] }], 'only its own log group');
              break;
            case 'xray':
              assert.deepEqual(
                new Set(actions),
                new Set(['xray:PutTraceSegments', 'xray:PutTelemetryRecords']),
              );
              assert.deepEqual(targets, ['*']);
              break;
            case 'dynamodb':
              if (expected.stream && actions.every((action) => action === 'dynamodb:ListStreams')) {
                // No resource-level permission exists for ListStreams (acknowledged in infra/stack.ts).
                assert.deepEqual(targets, ['*']);
                streamActions.add('dynamodb:ListStreams');
              } else if (expected.stream) {
                assert.deepEqual(targets, [{ 'Fn::GetAtt': [tableId, 'StreamArn'] }], 'the stream only');
                for (const action of actions) streamActions.add(action);
              } else {
                assert.deepEqual(targets, [tableArn, indexArn], 'the table and its indexes only');
                for (const action of actions) dynamodbActions.add(action);
              }
              break;
            case 'secretsmanager':
              assert.deepEqual(actions, ['secretsmanager:GetSecretValue']);
              for (const target of targets) secretsRead.add(referencedId(target));
              break;
            case 'sqs':
              for (const target of targets) {
                const queueId = referencedId(target);
                const seen = sqsActionsByQueue.get(queueId) ?? new Set<string>();
                for (const action of actions) seen.add(action);
                sqsActionsByQueue.set(queueId, seen);
              }
              break;
            default:
              assert.fail(`unexpected permission ${actions.join(', ')}`);
          }
        }
      }

      assert.equal(scopedWrites, expected.writesTo !== undefined, 'writes scoped by partition');
      assert.equal(appended, expected.appends !== undefined, 'puts scoped by partition');
      const hasAll = (wanted: string[]) => wanted.every((action) => dynamodbActions.has(action));
      const hasAny = (wanted: string[]) => wanted.some((action) => dynamodbActions.has(action));
      if (expected.table === 'none') assert.equal(dynamodbActions.size, 0, 'no DynamoDB access');
      if (expected.table === 'read') assert.ok(hasAll(READ_ACTIONS) && !hasAny(WRITE_ACTIONS), 'read only');
      if (expected.table === 'readWrite')
        assert.ok(hasAll(READ_ACTIONS) && hasAll(WRITE_ACTIONS), 'read+write');
      // No Scan, no batch operations, nothing else a bundle grant would add.
      if (expected.table !== 'none')
        assert.deepEqual(
          [...dynamodbActions].filter((a) => ![...READ_ACTIONS, ...WRITE_ACTIONS, DELETE_ACTION].includes(a)),
          [],
          'only the actions lib/db calls',
        );
      // Put and update everywhere; erasing an item only where the code does.
      assert.equal(dynamodbActions.has(DELETE_ACTION), expected.deletes === true, 'DeleteItem');
      // Every function of the Middy chain also reads the edge's origin token (test/infra/edge.test.ts).
      const originToken =
        name.startsWith('api/') && name !== `api/${FALLBACK_FUNCTION}` ? ['origin-verify'] : [];
      assert.deepEqual(secretsRead, new Set([...expected.secrets, ...originToken].map(secretId)));
      const expectedSqs = new Map<string, Set<string>>();
      for (const queue of expected.sends ?? []) expectedSqs.set(queueIdNamed(queue), new Set(SEND_ACTIONS));
      if (expected.consumes) {
        const queueId = queueIdNamed(expected.consumes);
        expectedSqs.set(queueId, new Set([...(expectedSqs.get(queueId) ?? []), ...CONSUME_ACTIONS]));
      }
      if (expected.stream) expectedSqs.set(queueIdNamed(expected.stream.failures), new Set(SEND_ACTIONS));
      assert.deepEqual(sqsActionsByQueue, expectedSqs, 'SQS access');
      assert.deepEqual(
        streamActions,
        new Set(expected.stream ? [...STREAM_ACTIONS, 'dynamodb:ListStreams'] : []),
        'stream access',
      );
    });

    test(`${name}: environment names the table, the stage and only the secrets it may read`, () => {
      const functionId = functionIdByBundle.get(name) as string;
      const env = (props(functionId).Environment as { Variables: Record<string, unknown> }).Variables;
      assert.deepEqual(env.TABLE_NAME, { Ref: tableId });
      assert.equal(env.STAGE, 'dev');
      assert.equal(env.POWERTOOLS_SERVICE_NAME, 'payments-gateway');
      assert.ok(['DEBUG', 'INFO', 'WARN', 'ERROR'].includes(String(env.LOG_LEVEL)));
      const secretEnv = {
        'signing-keys': 'SIGNING_KEYS_SECRET_ID',
        'token-jwks': 'TOKEN_JWKS_SECRET_ID',
        'cursor-key': 'CURSOR_KEY_SECRET_ID',
        'kek-sandbox': 'KEK_SECRET_ID_SANDBOX',
        'kek-production': 'KEK_SECRET_ID_PRODUCTION',
      };
      for (const [secret, variable] of Object.entries(secretEnv)) {
        const expectedValue = expected.secrets.includes(secret) ? { Ref: secretId(secret) } : undefined;
        assert.deepEqual(env[variable], expectedValue, variable);
      }
      const queueEnv = Object.keys(env).filter((variable) => variable.startsWith('QUEUE_URL_'));
      assert.deepEqual(queueEnv, (expected.sends ?? []).map(queueUrlVariable));
      for (const queue of expected.sends ?? [])
        assert.deepEqual(env[queueUrlVariable(queue)], { Ref: queueIdNamed(queue) });
    });
  }
});

describe('table', () => {
  test('keys, indexes and TTL come from lib/db/table.ts', () => {
    const p = props(tableId);
    assert.deepEqual(p.KeySchema, [
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
    ]);
    assert.deepEqual(
      p.GlobalSecondaryIndexes,
      tableDefinition.globalSecondaryIndexes.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: index.projection },
      })),
    );
    // The final shape: the list indexes project their keys only, and the projected ones are gone.
    assert.deepEqual(
      tableDefinition.globalSecondaryIndexes.map((index) => `${index.indexName} ${index.projection}`),
      [
        'gsi1 ALL',
        'platform ALL',
        'pendingKeys KEYS_ONLY',
        'keys1 KEYS_ONLY',
        'keys2 KEYS_ONLY',
        'keys3 KEYS_ONLY',
        'keys4 KEYS_ONLY',
      ],
    );
    assert.deepEqual(p.TimeToLiveSpecification, {
      AttributeName: tableDefinition.timeToLiveAttribute,
      Enabled: true,
    });
    // The outbox: as the local stack's table (createTableInput), new and old images.
    assert.deepEqual(p.StreamSpecification, { StreamViewType: tableDefinition.streamViewType });
  });

  test('the list indexes move to keys only one index per deploy: each step of -c listIndexStep creates or deletes at most one, keeping the key attributes, and the functions read the keys-only ones only once all exist', () => {
    /** The table's indexes as `listIndexStep` synthesizes them (none: the final shape). */
    const indexesAt = (step: number | undefined) => {
      const stepApp = new App({ context: step === undefined ? {} : { listIndexStep: String(step) } });
      const stack = new Stack(stepApp, `Step${step ?? 'Final'}`);
      new GatewayTable(stack, 'Data', {
        removalPolicy: RemovalPolicy.RETAIN,
        listIndexStep: listIndexStepFromContext(stepApp.node),
      });
      const [table] = Object.values(Template.fromStack(stack).findResources('AWS::DynamoDB::Table'));
      const indexes = (table?.Properties?.GlobalSecondaryIndexes ?? []) as {
        IndexName: string;
        KeySchema: { AttributeName: string }[];
        Projection: { ProjectionType: string };
      }[];
      return new Map(
        indexes.map((index) => [
          index.IndexName,
          `${index.KeySchema.map((k) => k.AttributeName).join('/')} ${index.Projection.ProjectionType}`,
        ]),
      );
    };
    const steps = Array.from({ length: LIST_INDEX_STEPS + 1 }, (_, step) => indexesAt(step));
    // Step 0 is the shape a stage deployed before the move has: the projected list indexes only.
    assert.deepEqual(
      [...(steps[0] as Map<string, string>).entries()].filter(([name]) => /^(list|keys)/.test(name)),
      [1, 2, 3, 4].map((n) => [`list${n}`, `list${n}pk/list${n}sk ALL`]),
    );
    for (let step = 1; step < steps.length; step++) {
      const before = steps[step - 1] as Map<string, string>;
      const after = steps[step] as Map<string, string>;
      const created = [...after.keys()].filter((name) => !before.has(name));
      const deleted = [...before.keys()].filter((name) => !after.has(name));
      assert.ok(created.length + deleted.length <= 1, `step ${step}: +${created} -${deleted}`);
      // An index kept is kept as it was: no projection or key changes in place.
      for (const [name, shape] of after) if (before.has(name)) assert.equal(before.get(name), shape, name);
      // Reads move to the keys-only indexes once all four exist, and before any projected one goes.
      if (listIndexesReadAtStep(step) === 'KEYS_ONLY')
        for (const n of [1, 2, 3, 4]) assert.ok(after.has(`keys${n}`), `step ${step} reads keys${n}`);
      else for (const n of [1, 2, 3, 4]) assert.ok(after.has(`list${n}`), `step ${step} reads list${n}`);
    }
    for (let n = 1; n <= 4; n++)
      assert.equal(steps[LIST_INDEX_STEPS]?.get(`keys${n}`), `list${n}pk/list${n}sk KEYS_ONLY`);
    // The last step is the final shape but for the pending index, whose own move comes after (below).
    const lists = (indexes: Map<string, string> | undefined) =>
      [...(indexes ?? [])].filter(([name]) => !name.startsWith('pending'));
    assert.deepEqual(lists(steps[LIST_INDEX_STEPS]), lists(indexesAt(undefined)));
    assert.deepEqual(
      steps.map((_, step) => listIndexesReadAtStep(step)),
      ['ALL', 'ALL', 'ALL', 'ALL', 'ALL', 'KEYS_ONLY', 'KEYS_ONLY', 'KEYS_ONLY', 'KEYS_ONLY', 'KEYS_ONLY'],
    );
    assert.throws(() => indexesAt(LIST_INDEX_STEPS + 1), /listIndexStep/);
    // Every function of a stage without the context (the final shape) reads the keys-only indexes.
    for (const functionId of functionIds)
      assert.equal(
        (props(functionId).Environment as { Variables: Record<string, unknown> }).Variables.LIST_INDEX_READS,
        'KEYS_ONLY',
        functionId,
      );
  });

  test('the pending index moves to keys only after the list indexes, one index per deploy: -c pendingIndexStep adds pendingKeys, the reconciler reads it, then pending goes', () => {
    const shapeAt = (context: Record<string, string>) => {
      const stepApp = newApp();
      for (const [name, value] of Object.entries(context)) stepApp.node.setContext(name, value);
      const stack = new PaymentsGatewayStack(stepApp, 'PendingStep', {
        stage: 'dev',
        listIndexStep: listIndexStepFromContext(stepApp.node),
        pendingIndexStep: pendingIndexStepFromContext(stepApp.node),
      });
      const resources = Template.fromStack(stack).toJSON().Resources as Resources;
      const table = resources[onlyOfType(resources, 'AWS::DynamoDB::Table')]?.Properties ?? {};
      const indexes = (
        table.GlobalSecondaryIndexes as { IndexName: string; Projection: { ProjectionType: string } }[]
      )
        .filter((g) => g.IndexName.startsWith('pending'))
        .map((g) => `${g.IndexName} ${g.Projection.ProjectionType}`);
      type Variables = { Variables?: Record<string, unknown> } | undefined;
      const reads = new Set(
        ofType(resources, 'AWS::Lambda::Function').map(
          ([, r]) => (r.Properties?.Environment as Variables)?.Variables?.PENDING_INDEX_READS,
        ),
      );
      return { indexes, reads: [...reads] };
    };
    // A stage moving its list indexes predates the pending move too: it keeps the projected one.
    assert.deepEqual(shapeAt({ listIndexStep: '9' }), { indexes: ['pending ALL'], reads: ['ALL'] });
    assert.deepEqual(
      [1, 2, 3].map((step) => shapeAt({ listIndexStep: '9', pendingIndexStep: String(step) })),
      [
        { indexes: ['pending ALL', 'pendingKeys KEYS_ONLY'], reads: ['ALL'] },
        { indexes: ['pending ALL', 'pendingKeys KEYS_ONLY'], reads: ['KEYS_ONLY'] },
        { indexes: ['pendingKeys KEYS_ONLY'], reads: ['KEYS_ONLY'] },
      ],
    );
    assert.deepEqual(shapeAt({}), { indexes: ['pendingKeys KEYS_ONLY'], reads: ['KEYS_ONLY'] });
    assert.throws(
      () => shapeAt({ listIndexStep: '4', pendingIndexStep: '1' }),
      /finish "listIndexStep" first/,
    );
    assert.throws(() => shapeAt({ pendingIndexStep: '4' }), /pendingIndexStep/);
  });

  test('on demand, point-in-time recovery, KMS encryption', () => {
    const p = props(tableId);
    assert.equal(p.BillingMode, 'PAY_PER_REQUEST');
    assert.deepEqual(p.PointInTimeRecoverySpecification, { PointInTimeRecoveryEnabled: true });
    assert.equal((p.SSESpecification as { SSEEnabled: boolean }).SSEEnabled, true);
  });

  test('prod is retained, and deletion-protected only once the rest of its first create succeeded; dev is disposable', () => {
    // The main stack's own template: the lock waits for everything of the stack that holds the table.
    const prodResources = Template.fromStack(prodStack).toJSON().Resources as Resources &
      Record<string, { DependsOn?: string[] }>;
    const prodTableId = onlyOfType(prodResources, 'AWS::DynamoDB::Table');
    const prodTable = prodResources[prodTableId] as CfnResource;
    assert.equal(prodTable.DeletionPolicy, 'RetainExceptOnCreate');
    assert.equal(prodTable.UpdateReplacePolicy, 'Retain');
    // Created unprotected, so rolling back a failed first create can delete it (no ROLLBACK_FAILED).
    assert.notEqual(prodTable.Properties?.DeletionProtectionEnabled, true);
    const [[lockId, lock]] = ofType(prodResources, 'Custom::AWS') as [[string, CfnResource]];
    const calls = lock.Properties as Record<string, unknown>;
    for (const event of ['Create', 'Update']) {
      const call = JSON.parse(
        String(
          (calls[event] as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1]
            .map((part) => (typeof part === 'string' ? part : 'TABLE'))
            .join(''),
        ),
      );
      assert.deepEqual(
        [call.service, call.action, call.parameters],
        ['DynamoDB', 'UpdateTable', { TableName: 'TABLE', DeletionProtectionEnabled: true }],
        event,
      );
    }
    // Created last: it depends on every other resource but its own provider (and what that needs).
    const dependsOn = new Set(prodResources[lockId]?.DependsOn ?? []);
    const provider = Object.keys(prodResources).filter((id) =>
      id.startsWith('AWS679f53fac002430cb0da5b7982bd2287'),
    );
    const others = Object.keys(prodResources).filter(
      (id) => id !== lockId && !provider.includes(id) && !id.startsWith('TableProtection'),
    );
    assert.deepEqual(
      others.filter((id) => !dependsOn.has(id)),
      [],
    );
    assert.notEqual(props(tableId).DeletionProtectionEnabled, true);
    assert.equal(resource(tableId).DeletionPolicy, 'Delete');
    assert.deepEqual(ofType(resources, 'Custom::AWS'), [], 'dev: no lock');
  });

  test('prod backs the table up daily with AWS Backup, kept 35 days, copied to the vault -c backupCopyVaultArn names; dev has no plan', () => {
    const copyVault = 'arn:aws:backup:eu-central-1:333333333333:backup-vault:payments-gateway-copies';
    const withCopy = Template.fromStack(
      new PaymentsGatewayStack(newApp(), 'ProdCopied', {
        ...stageProps('prod'),
        backupCopyVaultArn: copyVault,
      }),
    );
    const rulesOf = (template: Template) =>
      Object.values(template.findResources('AWS::Backup::BackupPlan')).map(
        (r) => (r.Properties.BackupPlan as { BackupPlanRule: Record<string, unknown>[] }).BackupPlanRule,
      );
    const [[daily]] = rulesOf(prod) as [[Record<string, unknown>]];
    assert.equal(daily.ScheduleExpression, 'cron(0 5 * * ? *)');
    assert.deepEqual(daily.Lifecycle, { DeleteAfterDays: 35 });
    assert.equal(daily.CopyActions, undefined, 'no copy unless a vault is named');
    const [[copied]] = rulesOf(withCopy) as [[Record<string, unknown>]];
    assert.deepEqual(copied.CopyActions, [
      { DestinationBackupVaultArn: copyVault, Lifecycle: { DeleteAfterDays: 35 } },
    ]);
    const prodResources = prod.toJSON().Resources as Resources;
    const [[, selection]] = ofType(prodResources, 'AWS::Backup::BackupSelection') as [[string, CfnResource]];
    const prodTableId = onlyOfType(prodResources, 'AWS::DynamoDB::Table');
    assert.deepEqual(
      (selection.Properties as { BackupSelection: { Resources: unknown[] } }).BackupSelection.Resources,
      [{ 'Fn::GetAtt': [prodTableId, 'Arn'] }],
    );
    assert.equal(
      ofType(prodResources, 'AWS::Backup::BackupVault')[0]?.[1].DeletionPolicy,
      'RetainExceptOnCreate',
    );
    assert.deepEqual(ofType(resources, 'AWS::Backup::BackupPlan'), [], 'dev: none');
  });

  test('prod: a resource kept after its stack is deleted has a name of its stack (or is a key secret, taken back by import)', () => {
    const fixed: string[] = [];
    const suffixed: string[] = [];
    for (const template of [prod.toJSON(), assembly.getStackArtifact('Prod-edge').template])
      for (const [id, r] of Object.entries(template.Resources as Resources)) {
        if (r.DeletionPolicy === 'Delete' || r.DeletionPolicy === undefined) continue;
        // The physical-name property: QueueName, LogGroupName, BackupVaultName, TableName…, or Name.
        const nameKey = [`${r.Type.split('::')[2]}Name`, 'Name'].find(
          (key) => r.Properties?.[key] !== undefined,
        );
        if (!nameKey) continue;
        const name = r.Properties?.[nameKey];
        // `<base>-<first group of the stack id's UUID>` (infra/retained-name.ts), new at each creation, or
        // the generated name of another resource of the stack (a provider function's log group).
        const json = JSON.stringify(name);
        const ownRef = [...json.matchAll(/\{"Ref":"(\w+)"\}/g)].some(
          ([, ref]) => template.Resources[ref ?? ''],
        );
        if (json.includes('{"Fn::Split":["/",{"Ref":"AWS::StackId"}]}')) suffixed.push(id);
        else if (!ownRef) fixed.push(typeof name === 'string' ? name : json);
      }
    assert.deepEqual(
      fixed.sort(),
      ['cursor-key', 'kek-production', 'kek-sandbox', 'signing-keys', 'token-jwks'].map(
        (n) => `prod/payments-gateway/${n}`,
      ),
    );
    // Every queue and its dead-letter queue, the outbox failure queue, the reconciler's and the sandbox
    // reserves' schedules' and the SES feedback rule's dead-letter queues, the SES feedback function's
    // failure queue, the backup vault, the WAF log group.
    assert.equal(suffixed.length, queues.length * 2 + 7, suffixed.join(', '));
  });

  test('prod retains the key secrets', () => {
    const keySecrets = ofType(prod.toJSON().Resources, 'AWS::SecretsManager::Secret').filter(
      ([, r]) => !String(r.Properties?.Name).endsWith('/origin-verify'),
    );
    assert.equal(keySecrets.length, 5);
    for (const [id, secret] of keySecrets) assert.equal(secret.DeletionPolicy, 'RetainExceptOnCreate', id);
  });
});

describe('queues', () => {
  const allQueues = ofType(resources, 'AWS::SQS::Queue');
  const queueNamed = (name: string) => {
    const found = allQueues.filter(([, r]) => r.Properties?.QueueName === name);
    assert.equal(found.length, 1, `exactly one queue ${name}`);
    return found[0] as [string, CfnResource];
  };
  const alarms = ofType(resources, 'AWS::CloudWatch::Alarm');
  const topicId = onlyOfType(resources, 'AWS::SNS::Topic');

  test('one queue and one DLQ per definition, the outbox failure queue, the schedules’ (reconciler, sandbox reserves) and the SES feedback rule’s DLQs, the SES feedback function’s failure queue, nothing else', () => {
    assert.equal(allQueues.length, queues.length * 2 + 5);
  });

  test('outbox-failures: encrypted, TLS only, kept 14 days, alarmed on any message', () => {
    const [id] = queueNamed(physicalQueueName('dev', 'outbox-failures'));
    assert.equal(props(id).SqsManagedSseEnabled, true);
    assert.equal(props(id).MessageRetentionPeriod, 14 * 24 * 3600);
    const tlsOnly = ofType(resources, 'AWS::SQS::QueuePolicy').some(
      ([, r]) =>
        asArray(r.Properties?.Queues).some((ref) => referencedId(ref) === id) &&
        JSON.stringify(r.Properties?.PolicyDocument).includes('"aws:SecureTransport":"false"'),
    );
    assert.ok(tlsOnly, 'denies non-TLS requests');
    const alarm = alarms.find(
      ([, r]) =>
        r.Properties?.MetricName === 'ApproximateNumberOfMessagesVisible' &&
        String(JSON.stringify(r.Properties?.Dimensions)).includes(
          JSON.stringify({ 'Fn::GetAtt': [id, 'QueueName'] }),
        ),
    );
    assert.ok(alarm, 'alarm on the outbox failures');
    assert.equal(alarm[1].Properties?.Threshold, 0);
    assert.deepEqual(alarm[1].Properties?.AlarmActions, [{ Ref: topicId }]);
  });

  test('alarms reach the topic: every function (errors, throttles, p99 duration near its timeout), every queue (age of the oldest message), the API (5xx, p99 latency), the table (throttles); the subscribers prod is given', () => {
    const ofMetric = (name: string) =>
      alarms.filter(([, r]) => r.Properties?.MetricName === name).map(([, r]) => r.Properties);
    for (const metric of ['Errors', 'Throttles', 'Duration'])
      assert.equal(ofMetric(metric).length, functionIds.length, `${metric} alarms, one per function`);
    // A count held over two periods pages; a single failed or throttled invocation does not.
    for (const [metric, threshold] of [
      ['Errors', 3],
      ['Throttles', 10],
    ] as const)
      for (const alarm of ofMetric(metric)) {
        assert.equal(alarm?.Threshold, threshold, metric);
        assert.equal(alarm?.EvaluationPeriods, 2, metric);
        assert.equal(alarm?.Period, 300, metric);
      }
    // The outbox stream's oldest unrouted record: paged at 10 minutes, long before the stream's 24 hours.
    const [iteratorAge, ...moreIteratorAges] = ofMetric('IteratorAge');
    assert.equal(moreIteratorAges.length, 0);
    assert.equal(iteratorAge?.Threshold, 600_000);
    assert.equal(iteratorAge?.Statistic, 'Maximum');
    assert.deepEqual(iteratorAge?.Dimensions, [
      { Name: 'FunctionName', Value: { Ref: functionIdByBundle.get('streams/outbox') } },
    ]);
    for (const duration of ofMetric('Duration')) {
      const functionId = referencedId(
        asArray(duration?.Dimensions as { Name: string; Value: unknown }[]).find(
          (d) => d.Name === 'FunctionName',
        )?.Value,
      );
      assert.equal(duration?.Threshold, Number(props(functionId).Timeout) * 1000 * 0.8, functionId);
    }
    assert.equal(ofMetric('ApproximateAgeOfOldestMessage').length, queues.length);
    assert.equal(ofMetric('5xx').length, 1);
    assert.equal(ofMetric('dev-http-latency').length, 1);
    assert.ok(
      alarms.some(([, r]) => JSON.stringify(r.Properties?.Metrics ?? '').includes('ThrottledRequests')),
      'table throttles',
    );
    for (const [, r] of alarms) assert.deepEqual(r.Properties?.AlarmActions, [{ Ref: topicId }]);
    const prodResources = prod.toJSON().Resources as Resources;
    const subscriptions = ofType(prodResources, 'AWS::SNS::Subscription').map(([, r]) => r.Properties);
    assert.deepEqual(subscriptions, [
      {
        Protocol: 'email',
        Endpoint: 'oncall@payments.example',
        TopicArn: { Ref: onlyOfType(prodResources, 'AWS::SNS::Topic') },
      },
    ]);
    assert.deepEqual(ofType(resources, 'AWS::SNS::Subscription'), [], 'dev: subscribers are optional');
  });

  test("CloudWatch may publish to the topic and use its key, for this account's alarms of this stage only", () => {
    const { account, region } = devStack;
    const alarmArns = `arn:aws:cloudwatch:${region}:${account}:alarm:payments-gateway-dev-*`;
    const fromOwnAlarms = {
      StringEquals: { 'aws:SourceAccount': account },
      ArnLike: { 'aws:SourceArn': alarmArns },
    };
    for (const [, r] of alarms) assert.match(String(r.Properties?.AlarmName), /^payments-gateway-dev-/);
    const topicPolicyId = onlyOfType(resources, 'AWS::SNS::TopicPolicy');
    const { Statement: statements } = props(topicPolicyId).PolicyDocument as {
      Statement: Record<string, unknown>[];
    };
    const publish = statements.find((st) => st.Effect === 'Allow');
    assert.deepEqual(publish, {
      Sid: 'CloudWatchAlarmsPublish',
      Effect: 'Allow',
      Principal: { Service: 'cloudwatch.amazonaws.com' },
      Action: 'sns:Publish',
      Resource: { Ref: topicId },
      Condition: fromOwnAlarms,
    });
    const keyId = referencedId(props(topicId).KmsMasterKeyId);
    const keyStatements = (props(keyId).KeyPolicy as { Statement: Record<string, unknown>[] }).Statement;
    const keyUse = keyStatements.find((st) => JSON.stringify(st.Principal).includes('cloudwatch'));
    assert.deepEqual(keyUse?.Condition, fromOwnAlarms);
  });

  test('prod refuses to synthesize without an alarm subscriber or a custom domain, saying what to pass', () => {
    const { alarmSubscribers, domain } = stageProps('prod');
    const build = (extra: Partial<PaymentsGatewayStackProps>) => () =>
      new PaymentsGatewayStack(newApp(), 'Refused', { stage: 'prod', ...extra });
    assert.throws(
      build({ domain }),
      (error: Error) =>
        error.name === 'SynthRefusal' &&
        /^Stage prod needs an alarm subscriber: pass -c alarmEmail=<on-call address> and\/or -c alarmHttpsEndpoint=/.test(
          error.message,
        ) &&
        !error.message.includes('\n'),
    );
    assert.throws(
      build({ alarmSubscribers }),
      (error: Error) =>
        error.name === 'SynthRefusal' &&
        /^Stage prod needs a custom domain: pass -c domainName=<name> -c certificateArn=/.test(error.message),
    );
    const fromContext = (context: Record<string, string>) =>
      alarmSubscribersFromContext(new App({ context }).node);
    assert.deepEqual(
      fromContext({
        alarmEmail: 'a@x.example, b@x.example',
        alarmHttpsEndpoint: 'https://events.pagerduty.com/integration/abc/enqueue',
      }),
      {
        emails: ['a@x.example', 'b@x.example'],
        httpsEndpoints: ['https://events.pagerduty.com/integration/abc/enqueue'],
      },
    );
    assert.throws(() => fromContext({ alarmEmail: 'oncall' }), /not an e-mail address/);
    assert.throws(() => fromContext({ alarmHttpsEndpoint: 'http://pager.example' }), /https:\/\/ URL/);
  });

  const metricFilter = (pattern: string): [string, CfnResource] => {
    const found = ofType(resources, 'AWS::Logs::MetricFilter').find(
      ([, r]) => r.Properties?.FilterPattern === pattern,
    );
    assert.ok(found, `a metric filter ${pattern}`);
    return found;
  };

  test("the p99 latency alarm reads each request's latency from the access log, the sandbox helpers excepted", () => {
    const stage = props(onlyOfType(resources, 'AWS::ApiGatewayV2::Stage')).AccessLogSettings as {
      DestinationArn: unknown;
      Format: string;
    };
    // The sandbox helpers wait on ledger rounds by design (up to 28 s): they would page on every slow call.
    const sandboxRoutes = routes.filter((route) => route.fn === 'sandbox');
    assert.ok(sandboxRoutes.length > 0 && sandboxRoutes.every((route) => route.path.startsWith('/sandbox/')));
    const [, filter] = metricFilter(`{ $.path != "${API_PREFIX}/sandbox/*" }`);
    assert.equal(referencedId(filter.Properties?.LogGroupName), referencedId(stage.DestinationArn));
    type Transformation = { MetricName: string; MetricNamespace: string; MetricValue: string };
    const transformations = filter.Properties?.MetricTransformations as Transformation[];
    const transformation = transformations[0] as Transformation;
    assert.equal(transformation.MetricValue, '$.latencyMs');
    // A number in the log line, or the filter would have no value to take.
    assert.match(stage.Format, /"latencyMs":\$context\.responseLatency,/);
    const alarm = alarms.find(([, r]) => r.Properties?.MetricName === transformation.MetricName);
    assert.ok(alarm, 'latency alarm');
    const p = alarm[1].Properties ?? {};
    assert.equal(p.Namespace, transformation.MetricNamespace);
    assert.equal(p.ExtendedStatistic, 'p99');
    assert.equal(p.Threshold, 5000);
    assert.equal(
      alarms.filter(([, r]) => r.Properties?.MetricName === 'Latency').length,
      0,
      "not API Gateway's Latency, which counts every route",
    );
  });

  test('429s are counted from the access log and alarmed when they are many, twice in a row', () => {
    const stageLogs = (
      props(onlyOfType(resources, 'AWS::ApiGatewayV2::Stage')).AccessLogSettings as {
        DestinationArn: unknown;
      }
    ).DestinationArn;
    const [, filter] = metricFilter('{ $.status = "429" }');
    assert.equal(
      filter.Properties?.LogGroupName && referencedId(filter.Properties.LogGroupName),
      referencedId(stageLogs),
    );
    assert.equal(filter.Properties?.FilterPattern, '{ $.status = "429" }');
    const transformations = filter.Properties?.MetricTransformations as
      | { MetricNamespace: string; MetricName: string }[]
      | undefined;
    const transformation = transformations?.[0];
    const alarm = alarms.find(([, r]) => r.Properties?.MetricName === transformation?.MetricName);
    assert.ok(alarm, '429 alarm');
    const p = alarm[1].Properties ?? {};
    assert.equal(p.Namespace, transformation?.MetricNamespace);
    assert.equal(p.Statistic, 'Sum');
    assert.equal(p.EvaluationPeriods, 2);
    assert.deepEqual(p.AlarmActions, [{ Ref: topicId }]);
  });

  test('only prod reaches the public network: every other stage points production at the test network', () => {
    const envOf = (functionId: string, of: Resources) =>
      (of[functionId]?.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)
        ?.Variables ?? {};
    for (const functionId of functionIds) {
      assert.equal(
        envOf(functionId, resources).HORIZON_URL_PRODUCTION,
        'https://horizon-testnet.stellar.org',
      );
      assert.equal(
        envOf(functionId, resources).NETWORK_PASSPHRASE_PRODUCTION,
        'Test SDF Network ; September 2015',
      );
    }
    const prodResources = prod.toJSON().Resources as Resources;
    for (const [functionId] of ofType(prodResources, 'AWS::Lambda::Function')) {
      assert.equal(envOf(functionId, prodResources).HORIZON_URL_PRODUCTION, undefined, functionId);
      assert.equal(envOf(functionId, prodResources).NETWORK_PASSPHRASE_PRODUCTION, undefined, functionId);
    }
  });

  test('every function is tagged with its service and stage', () => {
    for (const functionId of functionIds) {
      const tags = props(functionId).Tags as { Key: string; Value: string }[];
      assert.ok(
        tags.some((t) => t.Key === 'service' && t.Value === 'payments-gateway'),
        functionId,
      );
      assert.ok(
        tags.some((t) => t.Key === 'stage' && t.Value === 'dev'),
        functionId,
      );
    }
  });

  for (const definition of queues) {
    test(`${definition.name}: DLQ after ${definition.maxReceiveCount} receives, encrypted, TLS only`, () => {
      const [queueId, queue] = queueNamed(physicalQueueName('dev', definition.name));
      const [dlqId] = queueNamed(physicalDeadLetterQueueName('dev', definition.name));
      assert.deepEqual(queue.Properties?.RedrivePolicy, {
        deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] },
        maxReceiveCount: definition.maxReceiveCount,
      });
      assert.equal(queue.Properties?.VisibilityTimeout, definition.visibilityTimeoutSeconds);
      // Kept past SQS's default 4 days, and half as long as dead letters (which keep their enqueue time).
      assert.equal(queue.Properties?.MessageRetentionPeriod, 7 * 86_400);
      assert.equal(props(dlqId).MessageRetentionPeriod, 14 * 86_400);
      if (definition.worker) {
        const [, mapping] = ofType(resources, 'AWS::Lambda::EventSourceMapping').find(
          ([, r]) => referencedId(r.Properties?.EventSourceArn) === queueId,
        ) ?? [undefined, undefined];
        assert.deepEqual(mapping?.Properties?.ScalingConfig, {
          MaximumConcurrency: definition.maxConcurrency,
        });
      }
      for (const id of [queueId, dlqId]) {
        assert.equal(props(id).SqsManagedSseEnabled, true, `${id} encrypted`);
        const tlsOnly = ofType(resources, 'AWS::SQS::QueuePolicy').some(
          ([, r]) =>
            asArray(r.Properties?.Queues).some((ref) => referencedId(ref) === id) &&
            JSON.stringify(r.Properties?.PolicyDocument).includes('"aws:SecureTransport":"false"'),
        );
        assert.ok(tlsOnly, `${id} denies non-TLS requests`);
      }
    });

    test(`${definition.name}: an alarm fires on any message in its DLQ`, () => {
      const [dlqId] = queueNamed(physicalDeadLetterQueueName('dev', definition.name));
      const alarm = alarms.find(([, r]) =>
        JSON.stringify(r.Properties?.Dimensions).includes(
          JSON.stringify({ 'Fn::GetAtt': [dlqId, 'QueueName'] }),
        ),
      );
      assert.ok(alarm, `alarm on ${dlqId}`);
      const p = alarm[1].Properties ?? {};
      assert.equal(p.Namespace, 'AWS/SQS');
      assert.equal(p.MetricName, 'ApproximateNumberOfMessagesVisible');
      assert.equal(p.Threshold, 0);
      assert.equal(p.ComparisonOperator, 'GreaterThanThreshold');
      assert.deepEqual(p.AlarmActions, [{ Ref: topicId }]);
    });

    test(`${definition.name}: consumed by its worker exactly when it has one`, () => {
      const [queueId] = queueNamed(physicalQueueName('dev', definition.name));
      const mappings = ofType(resources, 'AWS::Lambda::EventSourceMapping').filter(
        ([, r]) => referencedId(r.Properties?.EventSourceArn) === queueId,
      );
      assert.equal(mappings.length, definition.worker === null ? 0 : 1);
    });
  }

  test('the API 5xx alarm notifies the topic, which only accepts TLS', () => {
    const apiId = onlyOfType(resources, 'AWS::ApiGatewayV2::Api');
    const alarm = alarms.find(([, r]) => r.Properties?.MetricName === '5xx');
    assert.ok(alarm, '5xx alarm');
    const p = alarm[1].Properties ?? {};
    assert.equal(p.Namespace, 'AWS/ApiGateway');
    assert.deepEqual(p.Dimensions, [{ Name: 'ApiId', Value: { Ref: apiId } }]);
    assert.deepEqual(p.AlarmActions, [{ Ref: topicId }]);
    const tlsOnly = ofType(resources, 'AWS::SNS::TopicPolicy').some(
      ([, r]) =>
        asArray(r.Properties?.Topics).some((ref) => referencedId(ref) === topicId) &&
        JSON.stringify(r.Properties?.PolicyDocument).includes('"aws:SecureTransport":"false"'),
    );
    assert.ok(tlsOnly, 'topic denies non-TLS publishing');
  });
});

describe('outbox stream', () => {
  test('the table stream invokes the router: from the trim horizon, partial batches, bisected, bounded retries, failures to their queue, filtered to the rows’ item types', () => {
    const tableStream = ofType(resources, 'AWS::Lambda::EventSourceMapping').filter(([, r]) =>
      JSON.stringify(r.Properties?.EventSourceArn).includes('StreamArn'),
    );
    assert.equal(tableStream.length, 1);
    const p = tableStream[0]?.[1].Properties ?? {};
    assert.deepEqual(p.EventSourceArn, { 'Fn::GetAtt': [tableId, 'StreamArn'] });
    assert.equal(referencedId(p.FunctionName), functionIdByBundle.get('streams/outbox'));
    assert.equal(p.StartingPosition, 'TRIM_HORIZON');
    assert.equal(p.BatchSize, outboxStream.batchSize);
    assert.deepEqual(p.FunctionResponseTypes, ['ReportBatchItemFailures']);
    assert.equal(p.BisectBatchOnFunctionError, true);
    assert.equal(p.MaximumRetryAttempts, outboxStream.retryAttempts);
    const failures = ofType(resources, 'AWS::SQS::Queue').find(
      ([, r]) => r.Properties?.QueueName === physicalQueueName('dev', 'outbox-failures'),
    );
    assert.ok(failures);
    assert.deepEqual(p.DestinationConfig, {
      OnFailure: { Destination: { 'Fn::GetAtt': [failures[0], 'Arn'] } },
    });
    const patterns = (p.FilterCriteria as { Filters: { Pattern: string }[] }).Filters.map((f) =>
      JSON.parse(f.Pattern),
    );
    assert.deepEqual(patterns, [{ dynamodb: { NewImage: { type: { S: [...outboxItemTypes] } } } }]);
  });

  test('the router is told the URLs of exactly the queues its rows send to', () => {
    const env = (
      props(functionIdByBundle.get('streams/outbox') as string).Environment as {
        Variables: Record<string, unknown>;
      }
    ).Variables;
    const queueEnv = Object.keys(env).filter((variable) => variable.startsWith('QUEUE_URL_'));
    assert.deepEqual(queueEnv, outboxQueues.map(queueUrlVariable));
  });
});

describe('synthesis', () => {
  test(`no stack of either stage (their us-east-1 stacks included) carries an annotation, and each holds fewer than ${RESOURCE_BOUND} resources`, () => {
    // CDK notes a stack past 80 % of CloudFormation's 500 resources (400): a split stage never gets there.
    // The main stacks held 474 (prod) and 451 (dev) before the split (issue #36 §6, docs/production.md).
    assert.deepEqual(synthesisMessages(assembly), []);
    for (const artifact of assembly.stacksRecursively) {
      const count = Object.keys(artifact.template.Resources ?? {}).length;
      assert.ok(count < RESOURCE_BOUND, `${artifact.id}: ${count} resources`);
    }
  });
});

describe('cdk-nag (AwsSolutions)', () => {
  test('no unacknowledged findings, errors or warnings, in dev and prod', () => {
    const report = nagChecks(app).validateScope(app);
    const findings = report.violations.map(
      (v) => `${v.severity} ${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
    );
    assert.deepEqual(findings, []);
  });

  test('every acknowledgment silences a finding the rule really makes there (none that never fires)', () => {
    // The pack's rules, run without acknowledgments: every finding, by resource path.
    class EveryFinding extends AwsSolutionsChecks {
      readonly findings: { path: string; rule: string }[] = [];
      protected override applyRule(params: IApplyRule): void {
        const rule = `${this.packName}-${params.ruleSuffixOverride ?? params.rule.name}`;
        const path = params.node.node.path;
        let result: ReturnType<IApplyRule['rule']>;
        try {
          result = params.rule(params.node);
        } catch {
          result = NagRuleCompliance.NON_COMPLIANT;
        }
        if (result === NagRuleCompliance.NON_COMPLIANT) this.findings.push({ path, rule });
        else if (Array.isArray(result))
          for (const finding of result) this.findings.push({ path, rule: `${rule}[${finding}]` });
      }
    }
    const pack = new EveryFinding(app);
    pack.validateScope(app);
    const unused = app.node.findAll().flatMap((c) =>
      c.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((m) => Object.keys(m.data as Record<string, string>))
        .map((key) => key.replace(/^annotation::/i, ''))
        .filter(
          (rule) =>
            !pack.findings.some(
              (f) => f.rule === rule && (f.path === c.node.path || f.path.startsWith(`${c.node.path}/`)),
            ),
        )
        .map((rule) => `${rule} on ${c.node.path}`),
    );
    assert.deepEqual(unused, []);
  });

  test('a "*" resource in any IAM policy is only X-Ray tracing or dynamodb:ListStreams (what the IAM5[Resource::*] acknowledgments claim)', () => {
    // cdk-nag names no action in IAM5[Resource::*], so its acknowledgment on a role covers whatever the
    // role gains later: this holds it to the actions that support no resource-level permission.
    const allowedOnStar = new Set([
      'xray:PutTraceSegments',
      'xray:PutTelemetryRecords',
      'dynamodb:ListStreams',
    ]);
    const templates = [
      prod.toJSON(),
      dev.toJSON(),
      ...['Prod-edge', 'Dev-edge'].map((id) => assembly.getStackArtifact(id).template),
    ];
    const onStar: string[] = [];
    let policies = 0;
    for (const template of templates)
      for (const [id, r] of Object.entries(template.Resources as Resources)) {
        const documents =
          r.Type === 'AWS::IAM::Policy' || r.Type === 'AWS::IAM::ManagedPolicy'
            ? [r.Properties?.PolicyDocument]
            : r.Type === 'AWS::IAM::Role'
              ? asArray(r.Properties?.Policies as { PolicyDocument: unknown }[]).map((p) => p.PolicyDocument)
              : [];
        for (const document of documents as { Statement: PolicyStatement[] }[]) {
          policies++;
          for (const statement of document.Statement)
            if (statement.Effect === 'Allow' && asArray(statement.Resource as string[]).includes('*'))
              onStar.push(
                ...asArray(statement.Action)
                  .filter((a) => !allowedOnStar.has(a))
                  .map((a) => `${id}: ${a}`),
              );
        }
      }
    assert.ok(policies > 20);
    assert.deepEqual(onStar, []);
  });

  test('every acknowledgment gives a specific reason', () => {
    const acknowledged = app.node
      .findAll()
      .flatMap((c) => c.node.metadata.filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY))
      .flatMap((m) => Object.entries(m.data as Record<string, string>));
    assert.ok(acknowledged.length > 0);
    for (const [rule, reason] of acknowledged) {
      assert.ok(reason.length >= 60, `${rule}: reason too thin: ${reason}`);
      assert.doesNotMatch(rule, /\[\*\]|^[^[]*IAM5$/, `${rule}: acknowledge IAM5 findings one by one`);
    }
  });
});
