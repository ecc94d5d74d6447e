// Where each stage deploys: its AWS account and region, declared once in cdk.json's `stages` context.
// Pinning them makes `cdk deploy -c stage=prod` with another account's credentials fail before it
// changes anything (the CDK CLI checks the credentials' account against the stack's), and tells the
// admin CLI which region a stage's stack is in. No CDK import: the admin CLI reads this too.
import { readFileSync } from 'node:fs';

export interface StageTarget {
  account: string;
  region: string;
  /**
   * A second region of the same account that holds a replica of every key secret (production: required;
   * infra/constructs/key-replica.ts). Declared here because it is where the stage lives, like `region`.
   */
  keyReplicaRegion?: string;
}

/** A stage that cdk.json does not declare, or declares wrongly. */
export class StageTargetError extends Error {
  override name = 'StageTargetError';
}

const ACCOUNT = /^\d{12}$/;
const REGION = /^[a-z]{2}(-gov)?-[a-z]+-\d$/;

/** The target of `stage` in a `stages` context value; throws, naming cdk.json, when it is not declared. */
export function stageTargetOf(stages: unknown, stage: string): StageTarget {
  const declared = (stages ?? {}) as Record<string, Partial<StageTarget> | undefined>;
  const target = Object.hasOwn(declared, stage) ? declared[stage] : undefined;
  if (!target) {
    throw new StageTargetError(
      `Stage "${stage}" is not declared: add "${stage}": {"account": "<12 digits>", "region": "<region>"} ` +
        'to "stages" in cdk.json\'s context (docs/production.md).',
    );
  }
  const { account, region } = target;
  if (typeof account !== 'string' || !ACCOUNT.test(account))
    throw new StageTargetError(`Stage "${stage}" in cdk.json: "account" must be a 12-digit AWS account id.`);
  if (typeof region !== 'string' || !REGION.test(region))
    throw new StageTargetError(
      `Stage "${stage}" in cdk.json: "region" must be an AWS region such as eu-west-1.`,
    );
  const { keyReplicaRegion } = target;
  if (keyReplicaRegion === undefined) return { account, region };
  if (typeof keyReplicaRegion !== 'string' || !REGION.test(keyReplicaRegion) || keyReplicaRegion === region)
    throw new StageTargetError(
      `Stage "${stage}" in cdk.json: "keyReplicaRegion" must be an AWS region other than "region".`,
    );
  return { account, region, keyReplicaRegion };
}

/** A context value of the repository's cdk.json, for callers without a CDK App (the admin CLI). */
export function declaredContext(name: string): unknown {
  const cdkJson = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context?.[name];
}

/** The `stages` context of the repository's cdk.json. */
export const declaredStages = (): unknown => declaredContext('stages');
