// Production's key material cannot be lost by one mistake: the KMS key that decrypts the KEKs (and its
// counterpart in the replica region, key-replica.ts) cannot be disabled or scheduled for deletion, nor a
// key secret deleted or its replica removed, by anyone but the break-glass role
// (`-c breakGlassRoleArn=<role ARN>`; without one, by no one) and CloudFormation's execution role,
// which must be able to roll a failed first create back (RETAIN keeps both on every later delete). Each
// such call, a key policy change and a failed rotation notify the alarm topic through EventBridge.
import { Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct, type Node } from 'constructs';
import { SynthRefusal } from '../stage.ts';

/** What only the break-glass role may do to the key and the key secrets. */
export const GUARDED_KEY_ACTIONS = ['kms:DisableKey', 'kms:ScheduleKeyDeletion'];
export const GUARDED_SECRET_ACTIONS = [
  'secretsmanager:DeleteSecret',
  // Either deletes a key secret's replica (key-replica.ts) or cuts it off from its primary.
  'secretsmanager:RemoveRegionsFromReplication',
  'secretsmanager:StopReplicationToReplica',
];
/** CloudTrail events of the primary region that notify the alarm topic for a key secret. */
export const GUARDED_SECRET_EVENTS = ['DeleteSecret', 'RemoveRegionsFromReplication'];
/** CloudTrail events that notify the alarm topic. */
export const GUARDED_KEY_EVENTS = ['DisableKey', 'ScheduleKeyDeletion', 'PutKeyPolicy'];

/** `-c breakGlassRoleArn=arn:aws:iam::<account>:role/<name>`, optional. */
export function breakGlassRoleFromContext(node: Node): string | undefined {
  const value: unknown = node.tryGetContext('breakGlassRoleArn');
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^arn:aws[\w-]*:iam::\d{12}:role\/[\w+=,.@/-]+$/.test(value))
    throw new SynthRefusal(`"breakGlassRoleArn" must be an IAM role ARN: ${String(value)}`);
  return value;
}

/**
 * Who may still do the guarded actions in `stack`'s region: the bootstrap's execution role there
 * (DefaultStackSynthesizer), which CloudFormation deploys and rolls back with, and the break-glass role.
 */
export function keyGuardians(stack: Stack, breakGlassRoleArn: string | undefined): string[] {
  const deployer = `arn:${stack.partition}:iam::${stack.account}:role/cdk-hnb659fds-cfn-exec-role-${stack.account}-${stack.region}`;
  return [deployer, ...(breakGlassRoleArn ? [breakGlassRoleArn] : [])];
}

/** Denies `actions` to every principal (the account root included) but the `allowed` role ARNs. */
export const denyAllBut = (sid: string, actions: string[], allowed: string[]): iam.PolicyStatement =>
  new iam.PolicyStatement({
    sid,
    effect: iam.Effect.DENY,
    principals: [new iam.AnyPrincipal()],
    actions,
    resources: ['*'],
    conditions: { ArnNotLike: { 'aws:PrincipalArn': allowed } },
  });

/** The key's policy refuses disabling it or scheduling its deletion to all but the guardians. */
export function guardKey(key: kms.Key, breakGlassRoleArn: string | undefined): void {
  key.addToResourcePolicy(
    denyAllBut(
      'OnlyBreakGlassDisablesOrDeletes',
      GUARDED_KEY_ACTIONS,
      keyGuardians(Stack.of(key), breakGlassRoleArn),
    ),
  );
}

export interface KeyGuardProps {
  key: kms.Key;
  secrets: secretsmanager.CfnSecret[];
  /** `<stage>/payments-gateway/`: what every key secret's name starts with. */
  secretNamePrefix: string;
  breakGlassRoleArn: string | undefined;
  topic: sns.ITopic;
  /** Each rule's name starts with it (the topic's key admits EventBridge for those rules only). */
  ruleNamePrefix: string;
}

export class KeyGuard extends Construct {
  constructor(scope: Construct, id: string, props: KeyGuardProps) {
    super(scope, id);
    const allowed = keyGuardians(Stack.of(this), props.breakGlassRoleArn);
    guardKey(props.key, props.breakGlassRoleArn);
    // Secrets Manager copies a resource policy to the secret's replicas: it guards them too.
    props.secrets.forEach((secret, index) => {
      new secretsmanager.CfnResourcePolicy(this, `Secret${index}`, {
        secretId: secret.ref,
        blockPublicPolicy: true,
        resourcePolicy: new iam.PolicyDocument({
          statements: [denyAllBut('OnlyBreakGlassDeletes', GUARDED_SECRET_ACTIONS, allowed)],
        }).toJSON(),
      });
    });
    // CloudTrail's management events reach EventBridge in the key's region (the account needs a trail).
    const notify = new targets.SnsTopic(props.topic);
    new events.Rule(this, 'KeyChanged', {
      ruleName: `${props.ruleNamePrefix}key-changed`,
      description: 'The key-secrets KMS key was disabled, scheduled for deletion or had its policy changed.',
      eventPattern: {
        source: ['aws.kms'],
        detailType: ['AWS API Call via CloudTrail'],
        detail: {
          eventName: GUARDED_KEY_EVENTS,
          requestParameters: { keyId: [props.key.keyArn, props.key.keyId] },
        },
      },
      targets: [notify],
    });
    // Secret ids as callers give them (a name or an ARN, which contains the name).
    const keySecret = events.Match.wildcard(`*${props.secretNamePrefix}*`);
    new events.Rule(this, 'SecretDeleted', {
      ruleName: `${props.ruleNamePrefix}key-secret-deleted`,
      description: 'Someone asked to delete a key secret or its replica.',
      eventPattern: {
        source: ['aws.secretsmanager'],
        detailType: ['AWS API Call via CloudTrail'],
        detail: { eventName: GUARDED_SECRET_EVENTS, requestParameters: { secretId: keySecret } },
      },
      targets: [notify],
    });
    new events.Rule(this, 'RotationFailed', {
      ruleName: `${props.ruleNamePrefix}key-rotation-failed`,
      description: 'A rotation of a key secret failed: its new key did not become current.',
      eventPattern: {
        source: ['aws.secretsmanager'],
        detail: { eventName: ['RotationFailed'], additionalEventData: { SecretId: keySecret } },
      },
      targets: [notify],
    });
  }
}
