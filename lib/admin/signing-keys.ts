// Rotates the token signing keys of a stage: the private ring and the public JWKS, written together.
import {
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { emptyKeyRing, publicJwksOf, rotateKeyRing, type SigningKeyRing } from '../auth/signing-keys.ts';
import { config } from '../config.ts';
import { secretNames } from '../secret-names.ts';

export async function rotateSigningKeys(now = new Date()) {
  const names = secretNames(config().STAGE);
  const secrets = new SecretsManagerClient({});
  const current = await secrets.send(new GetSecretValueCommand({ SecretId: names.signingKeys }));
  const parsed = JSON.parse(current.SecretString ?? '{}') as Partial<SigningKeyRing>;
  const ring = await rotateKeyRing(parsed.keys ? (parsed as SigningKeyRing) : emptyKeyRing(), now);
  // The public JWKS first: a token signed with the new key must never meet a verifier that lacks it.
  await secrets.send(
    new PutSecretValueCommand({
      SecretId: names.tokenJwks,
      SecretString: JSON.stringify(publicJwksOf(ring)),
    }),
  );
  await secrets.send(
    new PutSecretValueCommand({ SecretId: names.signingKeys, SecretString: JSON.stringify(ring) }),
  );
  return { activeKid: ring.activeKid, kids: ring.keys.map((k) => k.kid) };
}
