// Key material for the local stack, made the way a deployed stage makes it: each key secret is declared
// empty and its first rotation (the rotation function, run by the Secrets Manager stand-in) writes its
// first value. Values are files in the secrets folder, kept from one start to the next.
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  RotateSecretCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { secretNames } from '../lib/secret-names.ts';

/** Every key secret of a stage, and which of them rotate (the JWKS is written by the signing keys' rotation). */
export function keySecretsOf(stage: string): { declared: string[]; rotated: string[] } {
  const names = secretNames(stage);
  const rotated = [names.signingKeys, names.cursorKey, names.kek.sandbox, names.kek.production];
  return { declared: [...rotated, names.tokenJwks], rotated };
}

/** Rotates, once, every key secret that has no value yet (through the stand-in at AWS_ENDPOINT_URL_SECRETS_MANAGER). */
export async function ensureLocalSecrets(stage: string): Promise<void> {
  const names = secretNames(stage);
  const client = new SecretsManagerClient({});
  const hasValue = (SecretId: string) =>
    client.send(new GetSecretValueCommand({ SecretId })).then(
      () => true,
      (error: Error) => {
        if (error.name === 'ResourceNotFoundException') return false;
        throw error;
      },
    );
  try {
    for (const secretId of keySecretsOf(stage).rotated) {
      // The signing ring rotates again when its public JWKS is missing: the rotation publishes it.
      const complete =
        (await hasValue(secretId)) && (secretId !== names.signingKeys || (await hasValue(names.tokenJwks)));
      if (!complete) await client.send(new RotateSecretCommand({ SecretId: secretId }));
    }
  } finally {
    client.destroy();
  }
}

/** Writes a secret the operator would put in AWS (the WhatsApp token): the local stack's own value. */
export async function putLocalSecret(secretId: string, value: unknown): Promise<void> {
  const client = new SecretsManagerClient({});
  try {
    await client.send(new PutSecretValueCommand({ SecretId: secretId, SecretString: JSON.stringify(value) }));
  } finally {
    client.destroy();
  }
}
