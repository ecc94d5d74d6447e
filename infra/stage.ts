// Per-stage settings. Only `prod` is production; every other stage (dev, a developer's own, CI) is
// disposable: resources are destroyed with the stack and logs are kept briefly.
import { RemovalPolicy } from 'aws-cdk-lib';
import type { ThrottleSettings } from 'aws-cdk-lib/aws-apigatewayv2';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Node } from 'constructs';
import { PRODUCTION_RESERVED_CONCURRENCY } from '../lib/reserved-concurrency.ts';

/** Prefix of physical names and the Powertools service name. */
export const SERVICE_NAME = 'payments-gateway';

export const DEFAULT_STAGE = 'dev';

/** Stellar's test network (the SDK's Networks.TESTNET), spelled out to keep the SDK out of infra. */
export const TEST_NETWORK = {
  horizonUrl: 'https://horizon-testnet.stellar.org',
  passphrase: 'Test SDF Network ; September 2015',
};

export interface StageSettings {
  stage: string;
  production: boolean;
  /** For stateful resources (table, secrets, log groups, queues). */
  removalPolicy: RemovalPolicy;
  logRetention: RetentionDays;
  throttle: Throttles;
  logLevel: 'DEBUG' | 'INFO';
  /**
   * Lambda's own lines (START, END, REPORT: the platform's INFO events) are kept at INFO and dropped at
   * WARN. Production drops them: about 300 bytes an invocation, billed at ingestion, whose figures
   * (duration, memory, init) Lambda's own metrics and the traces already hold. A disposable stage keeps
   * them, for sizing memory from REPORT's "Max Memory Used" (infra/function-memory.ts).
   */
  systemLogLevel: 'INFO' | 'WARN';
  /**
   * Ledger settings every function gets beside lib/config.ts's defaults. Only `prod` reaches the public
   * network: every other stage points its production environment at the test network too, so a
   * developer's stage can never move real money.
   */
  ledger: Record<string, string>;
  /**
   * Reserved concurrency by bundle name: the invocations kept for a function alone, which are also its
   * ceiling. Production only: a new account's concurrency quota can be as low as 10, below which
   * nothing can be reserved (AWS keeps 100 unreserved), so a disposable stage reserves nothing. 35 of
   * the default quota of 1,000 (lib/reserved-concurrency.ts): `npm run admin -- preflight` checks it.
   */
  reservedConcurrency: Readonly<Record<string, number>>;
}

/**
 * API Gateway throttles an HTTP API per route: `DefaultRouteSettings` is the limit of EACH route, not a
 * cap on the stage as a whole (HTTP APIs have none; the only aggregate is the account's regional quota,
 * 10,000 rps with a 5,000 burst by default, shared by every API of the account). So the stage default
 * is a per-route limit, tighter routes get their own, and one client's total is capped at the edge by
 * the web ACL's per-IP rate rules (infra/constructs/edge-firewall.ts). docs/production.md lists them.
 */
export interface Throttles {
  /** Every route without a limit of its own (the stage's DefaultRouteSettings). */
  route: ThrottleSettings;
  /** POST /v1/auth/token: clients keep a token for its lifetime (15 min), they do not ask per call. */
  token: ThrottleSettings;
  /** Each sandbox helper (/v1/sandbox/...): several ledger rounds per call on a shared account pool. */
  sandbox: ThrottleSettings;
  /** `$default`: requests no route matches, answered 404/405 by the fallback function. */
  unmatched: ThrottleSettings;
  /** Web ACL: requests one IP address may make in 5 minutes, all paths together. */
  perIpPer5Minutes: number;
  /** Web ACL: POST /v1/auth/token requests one IP address may make in 5 minutes. */
  tokenPerIpPer5Minutes: number;
  /**
   * Web ACL: POST /v1/auth/token requests with one `x-service-auth` value in 5 minutes, from anywhere:
   * a ceiling in front of the service's own per-application limit (lib/limits: 150 a minute), which
   * counts only keys it has proven.
   */
  tokenPerKeyPer5Minutes: number;
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
    // Kept on delete and replacement, but a first create that fails is rolled back and cleaned up, so it
    // can simply be deployed again (RETAIN would leave the named resources in the way of the retry).
    removalPolicy: production ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY,
    // Payment request logs are evidence in disputes; a year covers the usual chargeback windows.
    logRetention: production ? RetentionDays.ONE_YEAR : RetentionDays.TWO_WEEKS,
    throttle: production
      ? {
          // Ceilings above the sum of the applications' own limits (lib/limits), not a shared budget
          // one tenant or an outsider could spend for the others.
          route: { rateLimit: 1_000, burstLimit: 2_000 },
          token: { rateLimit: 100, burstLimit: 200 },
          sandbox: { rateLimit: 60, burstLimit: 120 },
          unmatched: { rateLimit: 10, burstLimit: 20 },
          perIpPer5Minutes: 15_000,
          tokenPerIpPer5Minutes: 300,
          tokenPerKeyPer5Minutes: 1_000,
        }
      : {
          route: { rateLimit: 50, burstLimit: 100 },
          token: { rateLimit: 5, burstLimit: 10 },
          sandbox: { rateLimit: 5, burstLimit: 10 },
          unmatched: { rateLimit: 5, burstLimit: 10 },
          perIpPer5Minutes: 3_000,
          tokenPerIpPer5Minutes: 100,
          tokenPerKeyPer5Minutes: 1_000,
        },
    logLevel: production ? 'INFO' : 'DEBUG',
    systemLogLevel: production ? 'WARN' : 'INFO',
    ledger: production
      ? {}
      : {
          HORIZON_URL_PRODUCTION: TEST_NETWORK.horizonUrl,
          NETWORK_PASSPHRASE_PRODUCTION: TEST_NETWORK.passphrase,
        },
    reservedConcurrency: production ? PRODUCTION_RESERVED_CONCURRENCY : {},
  };
}

/**
 * A synth the app refuses, for a reason the operator fixes with context (`-c …`): infra/app.ts prints
 * the message alone, in one line, and exits 1.
 */
export class SynthRefusal extends Error {
  override name = 'SynthRefusal';
}

/** The stage from `-c stage=<name>`, `dev` when not given. */
export function stageFromContext(node: Node): string {
  const value: unknown = node.tryGetContext('stage');
  if (value === undefined) return DEFAULT_STAGE;
  if (typeof value !== 'string') throw new Error('Context "stage" must be a string.');
  return value;
}
