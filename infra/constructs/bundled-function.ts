// The one Lambda function shape of this project: a prebuilt esbuild bundle (see esbuild.config.ts)
// on Node 24 / arm64, with its own log group and its own role. Every API function and worker is one.
import { existsSync } from 'node:fs';
import { Duration, type RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { BundleEntry } from '../../esbuild.config.ts';

/** A function's timeout unless it states another. */
export const DEFAULT_TIMEOUT_SECONDS = 10;

export interface BundledFunctionProps {
  /** The bundle esbuild wrote for this function (`api/auth` → dist/functions/api/auth/). */
  bundle: BundleEntry;
  description: string;
  environment: Record<string, string>;
  logRetention: logs.RetentionDays;
  /** The application's lines kept (the logger's level; an EMF line, with no level, counts as INFO). */
  logLevel: 'DEBUG' | 'INFO';
  /** Lambda's own lines kept: INFO keeps START and REPORT, WARN drops them (infra/stage.ts). */
  systemLogLevel: 'INFO' | 'WARN';
  removalPolicy: RemovalPolicy;
  /** API functions answer within API Gateway's 30 s; workers follow their queue's visibility timeout. */
  timeout?: Duration | undefined;
  /** MB, from infra/function-memory.ts: what the function's measured memory and CPU ask for. */
  memorySize: number;
  /** Invocations kept for this function alone, and its ceiling (infra/stage.ts reservedConcurrency). */
  reservedConcurrentExecutions?: number | undefined;
  /** A fixed role name, for a role another stack's policy must name before it exists (key-replica.ts). */
  roleName?: string | undefined;
}

export class BundledFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;

  constructor(scope: Construct, id: string, props: BundledFunctionProps) {
    super(scope, id);
    const { bundle } = props;
    if (!existsSync(bundle.outFile)) {
      // The stack never bundles by itself (no Docker, no network): infra/app.ts runs buildAll() first.
      throw new Error(
        `No bundle for ${bundle.name} at ${bundle.outFile}: run \`node esbuild.config.ts\` first.`,
      );
    }

    // Explicit, so retention and removal are ours rather than Lambda's never-expiring default group.
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention,
      removalPolicy: props.removalPolicy,
    });

    // Our own role instead of AWSLambdaBasicExecutionRole: that managed policy may write to every log
    // group in the account, this role only to the function's own.
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of ${bundle.name}`,
      ...(props.roleName ? { roleName: props.roleName } : {}),
    });
    this.logGroup.grantWrite(this.role);

    this.function = new lambda.Function(this, 'Function', {
      description: props.description,
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: lambda.Architecture.ARM_64,
      code: lambda.Code.fromAsset(bundle.outDir),
      handler: 'index.handler',
      role: this.role,
      logGroup: this.logGroup,
      // JSON, so Lambda filters by level: its own lines by systemLogLevel, the function's by their
      // `level` (Powertools reads AWS_LAMBDA_LOG_LEVEL, which this sets, before LOG_LEVEL).
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: lambda.ApplicationLogLevel[props.logLevel],
      systemLogLevelV2: lambda.SystemLogLevel[props.systemLogLevel],
      tracing: lambda.Tracing.ACTIVE,
      memorySize: props.memorySize,
      timeout: props.timeout ?? Duration.seconds(DEFAULT_TIMEOUT_SECONDS),
      reservedConcurrentExecutions: props.reservedConcurrentExecutions,
      environment: {
        // Stack traces point into functions/ and lib/ instead of the minified bundle.
        NODE_OPTIONS: '--enable-source-maps',
        ...props.environment,
      },
    });

    // On the role, so it covers the role's default policy where the tracing statement lands.
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active X-Ray tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no ' +
        'resource-level permissions, so their resource must be "*".',
    });
  }
}
