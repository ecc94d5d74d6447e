// The key-material secrets. The two token-key secrets are created with an empty key set: the admin CLI
// generates keys and writes (and later rotates) both values. The cursor key is random, made by Secrets Manager. CloudFormation re-sends SecretString only
// when the template value changes, so redeploys leave the CLI's keys alone; never change the placeholder.
import { type RemovalPolicy, SecretValue, Validations } from 'aws-cdk-lib';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { secretNames } from '../../lib/secret-names.ts';
import type { SecretName } from '../function-access.ts';

const PLACEHOLDER = SecretValue.unsafePlainText(JSON.stringify({ keys: [] }));

export interface KeySecretsProps {
  stage: string;
  removalPolicy: RemovalPolicy;
}

export class KeySecrets extends Construct {
  readonly byName: Record<SecretName, secretsmanager.Secret>;
  /** Physical names, known at synth time (the Secret's own secretName is a token parsed from its ARN). */
  readonly names: Record<SecretName, string>;

  constructor(scope: Construct, id: string, props: KeySecretsProps) {
    super(scope, id);
    // Stable names so the admin CLI can address a stage's secrets without reading stack outputs.
    const names = secretNames(props.stage);
    this.names = {
      'signing-keys': names.signingKeys,
      'token-jwks': names.tokenJwks,
      'cursor-key': names.cursorKey,
      'wallet-kek': names.walletKek,
    };
    const secret = (name: SecretName, description: string) => {
      const created = new secretsmanager.Secret(this, name, {
        secretName: this.names[name],
        description,
        ...(name === 'cursor-key' || name === 'wallet-kek'
          ? {
              generateSecretString: {
                secretStringTemplate: '{}',
                generateStringKey: 'key',
                passwordLength: 64,
                excludePunctuation: true,
              },
            }
          : // Placeholder only (an empty key set, nothing secret); see the file comment.
            { secretStringValue: PLACEHOLDER }),
        removalPolicy: props.removalPolicy,
      });
      Validations.of(created).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason:
          'Key material is rotated by the admin CLI (new key published in the JWKS before it signs, old ' +
          'key kept until issued tokens expire); a Secrets Manager rotation Lambda cannot do that overlap.',
      });
      return created;
    };
    this.byName = {
      'signing-keys': secret(
        'signing-keys',
        'Private token-signing keys (JWK set); only the auth function reads it.',
      ),
      'token-jwks': secret('token-jwks', 'Public JWKS the API functions verify bearer tokens against.'),
      'cursor-key': secret('cursor-key', 'Key that seals pagination cursors.'),
      'wallet-kek': secret('wallet-kek', 'Key-encryption key that seals wallet and platform ledger secrets.'),
    };
  }
}
