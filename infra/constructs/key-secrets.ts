// The key-material secrets: the private token-signing ring, its public JWKS, the cursor key and one
// key-encryption key (KEK) per environment. Correct by construction:
// - CloudFormation creates each secret EMPTY: the template holds no value and no generator, so no
//   template edit can ever write, regenerate or replace a key (a KEK replaced in place would orphan
//   every secret sealed under it). The value is made by the rotation function (lib/keys/rotation.ts),
//   in the format its readers parse and check before it becomes current: Secrets Manager runs the first
//   rotation as soon as the schedule is created, and the admin CLI's `keys rotate` any time after.
// - Every secret is encrypted with a customer-managed key whose policy lets each role decrypt exactly
//   the secrets it reads (infra/function-access.ts) and no one else: not the account's administrators,
//   not CloudFormation, not an operator's laptop.
import { ArnFormat, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { secretNames } from '../../lib/secret-names.ts';
import type { SecretName } from '../function-access.ts';
import { SERVICE_NAME } from '../stage.ts';
import type { AlarmTopic } from './alarm-topic.ts';
import type { BundledFunction } from './bundled-function.ts';
import { CustomerKey } from './customer-key.ts';
import { KeyGuard } from './key-guard.ts';
import { REPLICATION_ACTIONS } from './key-replica.ts';

export interface KeySecretsProps {
  stage: string;
  removalPolicy: RemovalPolicy;
  /**
   * Production: each secret is replicated to this region, encrypted there with this key (key-replica.ts).
   * Declared at the secrets' creation, while they are empty: turning replication on later, for a secret
   * that holds a value, needs kms:Decrypt of it, which no deploy role has.
   */
  replica?: { region: string; keyArn: string } | undefined;
}

/** What every key secret's name starts with (the stage's other secrets' too): EventBridge matches by it. */
export const keySecretNamePrefix = (stage: string): string => `${stage}/${SERVICE_NAME}/`;

/** Each key secret's physical name (lib/secret-names.ts), by its name in infra/function-access.ts. */
export function keySecretNames(stage: string): Record<SecretName, string> {
  const names = secretNames(stage);
  return {
    'signing-keys': names.signingKeys,
    'token-jwks': names.tokenJwks,
    'cursor-key': names.cursorKey,
    'kek-sandbox': names.kek.sandbox,
    'kek-production': names.kek.production,
  };
}

/**
 * How often Secrets Manager rotates each secret. Signing ring and cursor key keep the key they replace,
 * so one rotation never breaks a token or a cursor in use; a KEK only ever gains keys (a sealed value
 * names its key), so its rotation re-seals nothing. The JWKS is not here: the signing ring's rotation
 * writes it.
 */
export const ROTATION_DAYS: Readonly<Partial<Record<SecretName, number>>> = {
  'signing-keys': 30,
  'cursor-key': 30,
  'kek-sandbox': 90,
  'kek-production': 90,
};

const DESCRIPTIONS: Readonly<Record<SecretName, string>> = {
  'signing-keys': 'Private token-signing keys (JWK set); only the auth function reads it.',
  'token-jwks':
    'Public JWKS the API functions verify bearer tokens against; written by the signing keys rotation.',
  'cursor-key': 'Key that seals pagination cursors (and the key it replaced).',
  'kek-sandbox': 'Key-encryption key ring sealing sandbox wallet, platform, channel and webhook secrets.',
  'kek-production':
    'Key-encryption key ring sealing production wallet, platform, channel and webhook secrets.',
};

export class KeySecrets extends Construct {
  /** The customer-managed key every one of these secrets is encrypted with. */
  readonly key: kms.Key;
  readonly byName: Record<SecretName, secretsmanager.ISecret>;
  /** Physical names, known at synth time (lib/secret-names.ts; the stack outputs them for the admin CLI). */
  readonly names: Record<SecretName, string>;
  /** `arn:…:secret:<name>-??????`: what the key policy names (it cannot refer to the secrets themselves). */
  readonly arnPatterns: Record<SecretName, string>;
  private readonly resources: Record<SecretName, secretsmanager.CfnSecret>;
  readonly #replica: KeySecretsProps['replica'];

  constructor(scope: Construct, id: string, props: KeySecretsProps) {
    super(scope, id);
    this.#replica = props.replica;
    this.names = keySecretNames(props.stage);
    const pattern = (name: string) =>
      Stack.of(this).formatArn({
        service: 'secretsmanager',
        resource: 'secret',
        resourceName: `${name}-??????`,
        arnFormat: ArnFormat.COLON_RESOURCE_NAME,
      });
    this.arnPatterns = {
      'signing-keys': pattern(this.names['signing-keys']),
      'token-jwks': pattern(this.names['token-jwks']),
      'cursor-key': pattern(this.names['cursor-key']),
      'kek-sandbox': pattern(this.names['kek-sandbox']),
      'kek-production': pattern(this.names['kek-production']),
    };
    this.key = new CustomerKey(this, 'Encryption', {
      description: `${SERVICE_NAME} ${props.stage}: encrypts the key-material secrets`,
      alias: `${SERVICE_NAME}/${props.stage}/key-secrets`,
      removalPolicy: props.removalPolicy,
    }).key;

    const secret = (name: SecretName) => {
      // The L1 resource on purpose: the L2 Secret always sets a value or a generator, and admits the
      // whole account to its encryption key through Secrets Manager.
      const created = new secretsmanager.CfnSecret(this, name, {
        name: this.names[name],
        description: DESCRIPTIONS[name],
        kmsKeyId: this.key.keyArn,
        ...(props.replica
          ? { replicaRegions: [{ region: props.replica.region, kmsKeyId: props.replica.keyArn }] }
          : {}),
      });
      created.applyRemovalPolicy(props.removalPolicy);
      return created;
    };
    this.resources = {
      'signing-keys': secret('signing-keys'),
      'token-jwks': secret('token-jwks'),
      'cursor-key': secret('cursor-key'),
      'kek-sandbox': secret('kek-sandbox'),
      'kek-production': secret('kek-production'),
    };
    const reference = (name: SecretName) =>
      secretsmanager.Secret.fromSecretAttributes(this, `${name}-ref`, {
        secretCompleteArn: this.resources[name].ref,
        encryptionKey: this.key,
      });
    this.byName = {
      'signing-keys': reference('signing-keys'),
      'token-jwks': reference('token-jwks'),
      'cursor-key': reference('cursor-key'),
      'kek-sandbox': reference('kek-sandbox'),
      'kek-production': reference('kek-production'),
    };
    Validations.of(this.resources['token-jwks']).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The public JWKS has no rotation of its own: it is the public half of the signing-keys secret, which ' +
        'rotates every 30 days, and that rotation writes it (setSecret step) before its new key signs.',
    });
  }

  /** Production: the key and its secrets can be disabled or deleted by the break-glass role only (key-guard.ts). */
  guard(props: { stage: string; breakGlassRoleArn: string | undefined; alarms: AlarmTopic }): KeyGuard {
    return new KeyGuard(this, 'Guard', {
      key: this.key,
      secrets: Object.values(this.resources),
      secretNamePrefix: keySecretNamePrefix(props.stage),
      breakGlassRoleArn: props.breakGlassRoleArn,
      topic: props.alarms.topic,
      ruleNamePrefix: props.alarms.admitEventRules(),
    });
  }

  /**
   * Secrets Manager rotates each secret of ROTATION_DAYS with `rotation` (infra/function-access.ts
   * grants it the secrets), first as soon as the schedule exists: a new stage's secrets get their first
   * keys during its first deploy.
   */
  rotateWith(rotation: BundledFunction): void {
    // Each version it writes is replicated with its permissions: the replica key's policy admits it
    // (key-replica.ts), and so must its own.
    if (this.#replica)
      rotation.role.addToPrincipalPolicy(
        new iam.PolicyStatement({ actions: REPLICATION_ACTIONS, resources: [this.#replica.keyArn] }),
      );
    const principal = new iam.ServicePrincipal('secretsmanager.amazonaws.com');
    for (const [name, days] of Object.entries(ROTATION_DAYS) as [SecretName, number][]) {
      // Secrets Manager may invoke it for these secrets only, not for any secret of the account.
      rotation.function.addPermission(`InvokedBySecretsManager-${name}`, {
        principal,
        sourceAccount: Stack.of(this).account,
        sourceArn: this.resources[name].ref,
      });
      const schedule = new secretsmanager.CfnRotationSchedule(this, `${name}-rotation`, {
        secretId: this.resources[name].ref,
        rotationLambdaArn: rotation.function.functionArn,
        rotationRules: { scheduleExpression: `rate(${days} days)` },
        rotateImmediatelyOnUpdate: true,
      });
      // The immediate first rotation needs the function, its role's grants, its invoke permission and
      // the key policy that admits it: all of them before the schedule.
      schedule.node.addDependency(rotation, this.key);
    }
  }
}
