// Per-stage settings. Only `prod` is production; every other stage (dev, a developer's own, CI) is
// disposable: resources are destroyed with the stack and logs are kept briefly.
import { RemovalPolicy } from 'aws-cdk-lib';
import type { ThrottleSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';

/** Prefix of physical names and the Powertools service name. */
export const SERVICE_NAME = 'payments-gateway';

export const DEFAULT_STAGE = 'dev';

export interface StageSettings {
  stage: string;
  production: boolean;
  /** For stateful resources (table, secrets, log groups, queues). */
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  /** Stage-wide API ceiling, well under the account quota so one stage cannot starve another. */
  throttle: ThrottleSettings;
  logLevel: 'DEBUG' | 'INFO';
}

export function stageSettings(stage: string): StageSettings {
  // Stage names become parts of physical names (`dev-ledger-submissions`), so keep them plain.
  if (!/^[a-z][a-z0-9-]{0,19}$/.test(stage)) {
    throw new Error(`Invalid stage "${stage}": use 1-20 lowercase letters, digits or dashes.`);
  }
  const production = stage === 'prod';
  return {
    stage,
    production,
    removalPolicy: production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
    // Payment request logs are evidence in disputes; a year covers the usual chargeback windows.
    logRetention: production ? RetentionDays.ONE_YEAR : RetentionDays.TWO_WEEKS,
    throttle: production ? { rateLimit: 500, burstLimit: 1000 } : { rateLimit: 50, burstLimit: 100 },
    logLevel: production ? 'INFO' : 'DEBUG',
  };
}

/** The stage from `-c stage=<name>`, `dev` when not given. */
export function stageFromContext(node: Node): string {
  const value: unknown = node.tryGetContext('stage');
  if (value === undefined) return DEFAULT_STAGE;
  if (typeof value !== 'string') throw new Error('Context "stage" must be a string.');
  return value;
}
