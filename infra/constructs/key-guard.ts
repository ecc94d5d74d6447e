// Production's key material cannot be lost by one mistake: the KMS key that decrypts the KEKs (and its
// counterpart in the replica region, key-replica.ts) cannot be disabled or scheduled for deletion, nor a
// key secret deleted or its replica removed, by anyone but the break-glass role
// (`-c breakGlassRoleArn=<role ARN>`; without one, by no one) and CloudFormation's execution role,
// which must be able to roll a failed first create back (RETAIN keeps both on every later delete). Each
// such call, a key policy change and a failed rotation notify the alarm topic of its region through
// EventBridge.
import { BOOTSTRAP_QUALIFIER_CONTEXT, DefaultStackSynthesizer, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type * as sns from 'aws-cdk-lib/aws-sns';
import { Construct, type Node } from 'constructs';
import { SynthRefusal } from '../stage.ts';
import { alarmTopicTarget } from './alarm-topic.ts';

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
/** The same in the replica region, where a replica is cut off (a replica cannot be deleted there). */
export const GUARDED_REPLICA_EVENTS = ['StopReplicationToReplica'];
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
  // The bootstrap's qualifier: `-c @aws-cdk/core:bootstrapQualifier=<q>` for accounts bootstrapped with
  // their own (the synthesizer reads the same context), else CDK's default.
  const qualifier: unknown =
    stack.node.tryGetContext(BOOTSTRAP_QUALIFIER_CONTEXT) ?? DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  if (typeof qualifier !== 'string' || !/^[a-z0-9]{1,10}$/i.test(qualifier))
    throw new SynthRefusal(
      `"${BOOTSTRAP_QUALIFIER_CONTEXT}" must be 1 to 10 letters or digits: ${String(qualifier)}`,
    );
  const deployer = `arn:${stack.partition}:iam::${stack.account}:role/cdk-${qualifier}-cfn-exec-role-${stack.account}-${stack.region}`;
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

/**
 * EventBridge tells `topic` (of the key's region) when `key` is disabled, scheduled for deletion or has
 * its policy changed: CloudTrail's management events reach EventBridge in the key's region only (the
 * account needs a trail), so each region holding a guarded key has this rule and a topic of its own.
 */
export function notifyKeyChanges(
  scope: Construct,
  key: kms.Key,
  label: string,
  topic: sns.ITopic,
  ruleNamePrefix: string,
): void {
  new events.Rule(scope, 'KeyChanged', {
    ruleName: `${ruleNamePrefix}key-changed`,
    description: `${label} was disabled, scheduled for deletion or had its policy changed.`,
    eventPattern: {
      source: ['aws.kms'],
      detailType: ['AWS API Call via CloudTrail'],
      detail: { eventName: GUARDED_KEY_EVENTS, requestParameters: { keyId: [key.keyArn, key.keyId] } },
    },
    targets: [alarmTopicTarget(topic)],
  });
}

/** A key secret's id as callers give it: a name or an ARN, which contains the name. */
const keySecretId = (secretNamePrefix: string) => events.Match.wildcard(`*${secretNamePrefix}*`);

/**
 * EventBridge tells `topic` of the calls named `eventNames` on a key secret (its name starting with
 * `secretNamePrefix`) in the scope's region: in the primary region, deleting one or removing its
 * replica; in the replica region, cutting a replica off from its primary.
 */
export function notifySecretCalls(
  scope: Construct,
  eventNames: string[],
  secretNamePrefix: string,
  topic: sns.ITopic,
  ruleNamePrefix: string,
): void {
  new events.Rule(scope, 'SecretDeleted', {
    ruleName: `${ruleNamePrefix}key-secret-deleted`,
    description: `Someone asked to ${eventNames.join(' or ')} a key secret.`,
    eventPattern: {
      source: ['aws.secretsmanager'],
      detailType: ['AWS API Call via CloudTrail'],
      detail: { eventName: eventNames, requestParameters: { secretId: keySecretId(secretNamePrefix) } },
    },
    targets: [alarmTopicTarget(topic)],
  });
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
    notifyKeyChanges(this, props.key, 'The key-secrets KMS key', props.topic, props.ruleNamePrefix);
    notifySecretCalls(this, GUARDED_SECRET_EVENTS, props.secretNamePrefix, props.topic, props.ruleNamePrefix);
    new events.Rule(this, 'RotationFailed', {
      ruleName: `${props.ruleNamePrefix}key-rotation-failed`,
      description: 'A rotation of a key secret failed: its new key did not become current.',
      eventPattern: {
        source: ['aws.secretsmanager'],
        detail: {
          eventName: ['RotationFailed'],
          additionalEventData: { SecretId: keySecretId(props.secretNamePrefix) },
        },
      },
      targets: [alarmTopicTarget(props.topic)],
    });
  }
}
