// Production's key material in a second region: every key secret is a multi-Region secret whose replica,
// in the stage's `keyReplicaRegion` (cdk.json `stages`), is encrypted with the key this stack makes there.
// Losing the stage's region must not lose the KEKs, which alone open every custodial wallet key.
//
// Why replication and not a backup: AWS Backup does not back up Secrets Manager secrets, and an export
// of a KEK would need someone outside the functions to decrypt it, which the key policy refuses by design
// (docs/production.md, Key custody). Replication keeps that: the replicas are declared when the secrets
// are created, still empty (key-secrets.ts), so turning it on decrypts nothing; each later value is
// replicated when the rotation function writes it, Secrets Manager decrypting it with the primary key and
// encrypting it with this one under the writer's own permissions. So this key admits the rotation role
// alone, and only to encrypt key secrets through Secrets Manager here: nobody can read a replica until a
// recovery changes this key's policy (a PutKeyPolicy this region's alarm topic is told of, a deliberate
// act).
//
// Deployed before the main stack (which reads the key's ARN with Fn::GetStackOutput): the secrets need
// their replica key at creation.
import { ArnFormat, CfnOutput, type RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type { Construct } from 'constructs';
import { stackOutputFor } from '../stack-output.ts';
import { SERVICE_NAME } from '../stage.ts';
import { type AlarmSubscribers, AlarmTopic } from './alarm-topic.ts';
import { CustomerKey } from './customer-key.ts';
import { GUARDED_REPLICA_EVENTS, guardKey, notifyKeyChanges, notifySecretCalls } from './key-guard.ts';

/**
 * The rotation function's role has this fixed name where key secrets are replicated: the replica key's
 * policy must name it before the main stack (and so the role) exists.
 */
export const rotationRoleName = (stage: string): string => `${SERVICE_NAME}-${stage}-key-rotation`;

/** What the replica key admits: encrypting a new version of a replicated key secret, nothing else. */
export const REPLICATION_ACTIONS = ['kms:Encrypt', 'kms:GenerateDataKey'];

export interface KeyReplicaStackProps extends StackProps {
  stage: string;
  removalPolicy: RemovalPolicy;
  /** Each key secret's name: its replica has the same. */
  secretNames: string[];
  /** What every key secret's name starts with. */
  secretNamePrefix: string;
  breakGlassRoleArn: string | undefined;
  /** The stage's alarm subscribers: a topic of this region tells them what is done to this key here. */
  subscribers: AlarmSubscribers;
}

export class KeyReplicaStack extends Stack {
  readonly key: kms.Key;
  readonly #keyArn: CfnOutput;

  constructor(scope: Construct, id: string, props: KeyReplicaStackProps) {
    super(scope, id, props);
    this.key = new CustomerKey(this, 'Encryption', {
      description: `${SERVICE_NAME} ${props.stage}: encrypts the replicas of the key-material secrets`,
      alias: `${SERVICE_NAME}/${props.stage}/key-secrets-replica`,
      removalPolicy: props.removalPolicy,
    }).key;
    // The account root as principal, narrowed to the rotation role by its ARN: a key policy cannot name a
    // role that does not exist yet, and this stack is deployed before the role's. The role's own policy
    // must allow these actions on this key too (key-secrets.ts rotateWith).
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'RotationReplicatesKeySecrets',
        principals: [new iam.AccountRootPrincipal()],
        actions: REPLICATION_ACTIONS,
        resources: ['*'],
        conditions: {
          ArnEquals: {
            'aws:PrincipalArn': `arn:${this.partition}:iam::${this.account}:role/${rotationRoleName(props.stage)}`,
          },
          StringEquals: { 'kms:ViaService': `secretsmanager.${this.region}.amazonaws.com` },
          StringLike: {
            'kms:EncryptionContext:SecretARN': props.secretNames.map((name) =>
              this.formatArn({
                service: 'secretsmanager',
                resource: 'secret',
                resourceName: `${name}-??????`,
                arnFormat: ArnFormat.COLON_RESOURCE_NAME,
              }),
            ),
          },
        },
      }),
    );
    guardKey(this.key, props.breakGlassRoleArn);
    // The key policy refuses disabling or deleting it, but an attempt, a policy change that would open the
    // replicas, or a replica cut off from its primary must still reach someone. CloudTrail gives those
    // events to this region's EventBridge only, so the rules and their topic are this region's.
    const alarms = new AlarmTopic(this, 'Alarms', {
      stage: props.stage,
      production: true,
      subscribers: props.subscribers,
      removalPolicy: props.removalPolicy,
    });
    const ruleNamePrefix = alarms.admitEventRules();
    notifyKeyChanges(this, this.key, "The key secrets' replica key", alarms.topic, ruleNamePrefix);
    notifySecretCalls(this, GUARDED_REPLICA_EVENTS, props.secretNamePrefix, alarms.topic, ruleNamePrefix);
    this.#keyArn = new CfnOutput(this, 'KeyArn', {
      description: "The key the key secrets' replicas are encrypted with.",
      value: this.key.keyArn,
    });
  }

  /** The key's ARN for a stack in another region (read when that stack is deployed, after this one). */
  keyArnFor(consumer: Stack): string {
    return stackOutputFor(consumer, this.#keyArn, "its key secrets' replicas are encrypted with this key");
  }
}
