// A customer-managed KMS key whose policy lets the account administer it but use it for nothing: every
// cryptographic use is a statement of its own, naming who may do what (for the secrets' key,
// infra/function-access.ts adds one per role, limited to that role's secrets). CDK's default key policy
// would give the account root kms:*, so any identity whose IAM policies allow kms:Decrypt on "*" could
// read every secret; here an IAM policy cannot widen what the key policy names.
import type { RemovalPolicy } from 'aws-cdk-lib';
import { Duration } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';

/**
 * What the account's administrators (through IAM, e.g. CloudFormation's execution role) may do with the
 * key: manage and inspect it, never encrypt, decrypt or grant its use to others (no kms:CreateGrant).
 * Changing its policy is possible (kms:PutKeyPolicy, so CloudFormation can update it) and leaves a trail.
 */
export const KEY_ADMIN_ACTIONS = [
  'kms:CancelKeyDeletion',
  'kms:CreateAlias',
  'kms:DeleteAlias',
  'kms:DescribeKey',
  'kms:DisableKey',
  'kms:DisableKeyRotation',
  'kms:EnableKey',
  'kms:EnableKeyRotation',
  'kms:GetKeyPolicy',
  'kms:GetKeyRotationStatus',
  'kms:ListAliases',
  'kms:ListGrants',
  'kms:ListKeyPolicies',
  'kms:ListKeyRotations',
  'kms:ListResourceTags',
  'kms:PutKeyPolicy',
  'kms:RevokeGrant',
  'kms:RotateKeyOnDemand',
  'kms:ScheduleKeyDeletion',
  'kms:TagResource',
  'kms:UntagResource',
  'kms:UpdateAlias',
  'kms:UpdateKeyDescription',
];

export interface CustomerKeyProps {
  description: string;
  /** `alias/<this>`. */
  alias: string;
  removalPolicy: RemovalPolicy;
}

export class CustomerKey extends Construct {
  readonly key: kms.Key;

  constructor(scope: Construct, id: string, props: CustomerKeyProps) {
    super(scope, id);
    const policy = new iam.PolicyDocument({
      statements: [
        new iam.PolicyStatement({
          sid: 'AdministerOnly',
          principals: [new iam.AccountRootPrincipal()],
          actions: KEY_ADMIN_ACTIONS,
          resources: ['*'],
        }),
      ],
    });
    this.key = new kms.Key(this, 'Key', {
      description: props.description,
      alias: props.alias,
      // KMS rotates the key material yearly; the key id, its policy and what it encrypted stay valid.
      enableKeyRotation: true,
      policy,
      removalPolicy: props.removalPolicy,
      pendingWindow: Duration.days(30),
    });
  }

  /**
   * Lets an AWS service use the key for what it does on the stack's behalf (CloudWatch publishing alarm
   * notifications to an encrypted topic), under `conditions` naming the account and the resources it
   * acts for (aws:SourceAccount, aws:SourceArn), so no other account's resource can use it through it.
   */
  admitService(service: string, actions: string[], conditions: Record<string, unknown>): void {
    this.key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [new iam.ServicePrincipal(service)],
        actions,
        resources: ['*'],
        conditions,
      }),
    );
  }
}
