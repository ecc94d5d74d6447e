// Rotation of the key-material secrets, the way Secrets Manager rotates: RotateSecret (the schedule,
// the admin CLI's `keys rotate`, or the first deploy) labels a new version AWSPENDING and invokes the
// rotation function once per step. The new value is made here, inside AWS: no key passes through an
// operator's machine, and CloudFormation never holds or writes a value (each secret starts empty and
// its first rotation writes its first key).
//   createSecret  the next value, from the current one (none yet: the first), put as AWSPENDING
//   setSecret     signing keys only: the public JWKS of the pending ring is published first, so a token
//                 signed with the new key never meets a verifier that lacks it
//   testSecret    the readers' own parsers accept the pending value, and it keeps every key still needed
//   finishSecret  AWSCURRENT moves to the pending version; functions read it within SECRET_MAX_AGE_SECONDS
// Every step may run again (Secrets Manager retries): each one checks what is already done.
import { randomBytes } from 'node:crypto';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  type SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import type { SecretsManagerRotationEvent } from 'aws-lambda';
import { emptyKeyRing, publicJwksOf, rotateKeyRing, type SigningKeyRing } from '../auth/signing-keys.ts';
import { type CursorKeySecret, cursorKeysOf } from '../db/cursor.ts';
import { logger } from '../log.ts';
import { FIRST_KID, KEK_BYTES, type KekSecret, parseKekRing } from '../secret-box.ts';
import { secretNames } from '../secret-names.ts';

/** The kinds of secret the rotation function rotates (the public JWKS is written by the signing keys'). */
export type RotatedKind = 'signing-keys' | 'cursor-key' | 'kek';

/** What a secret of the stage is, by its name; undefined for a secret this function does not rotate. */
export function rotatedKindOf(name: string | undefined, stage: string): RotatedKind | undefined {
  const names = secretNames(stage);
  if (name === names.signingKeys) return 'signing-keys';
  if (name === names.cursorKey) return 'cursor-key';
  if (name === names.kek.sandbox || name === names.kek.production) return 'kek';
  return undefined;
}

/** The entries of a KEK secret's current value (validated by the reader's parser), none when it has none. */
function kekEntries(current: unknown): KekSecret['keys'] {
  const { keys, key } = (current ?? {}) as Partial<KekSecret> & { key?: string };
  // No value yet, or one that holds no key (nothing can have been sealed under it): a first key.
  if ((keys === undefined && key === undefined) || (Array.isArray(keys) && keys.length === 0)) return [];
  parseKekRing(current, 'The current key-encryption key');
  return Array.isArray(keys) ? keys : [{ kid: FIRST_KID, key: key as string }];
}

/** The next kid of a ring: k1, k2, … after the highest one it holds. */
function nextKid(kids: string[]): string {
  const highest = Math.max(0, ...kids.map((kid) => Number(/^k(\d+)$/.exec(kid)?.[1] ?? 0)));
  return `k${highest + 1}`;
}

/**
 * The value that follows `current` (undefined: the secret has no value yet). A KEK ring only grows: a
 * key is never dropped while values sealed under it may exist. A cursor key keeps the key it replaced,
 * so cursors handed out before the rotation still open; a signing ring its previous active key, so
 * tokens it signed still verify until they expire.
 */
export async function nextSecretValue(kind: RotatedKind, current: unknown, now: Date): Promise<unknown> {
  switch (kind) {
    case 'kek': {
      const keys = kekEntries(current);
      const kid = nextKid(keys.map((entry) => entry.kid));
      const added = { kid, key: randomBytes(KEK_BYTES).toString('base64'), createdAt: now.toISOString() };
      return { current: kid, keys: [...keys, added] } satisfies KekSecret;
    }
    case 'cursor-key': {
      const previous = (current as Partial<CursorKeySecret> | undefined)?.key;
      const key = randomBytes(32).toString('base64url');
      return (typeof previous === 'string' ? { key, previous } : { key }) satisfies CursorKeySecret;
    }
    case 'signing-keys': {
      const ring = current as Partial<SigningKeyRing> | undefined;
      return rotateKeyRing(Array.isArray(ring?.keys) ? (ring as SigningKeyRing) : emptyKeyRing(), now);
    }
  }
}

/**
 * Throws unless the readers accept `pending` (the parsers lib/secret-box.ts, lib/db/cursor.ts and
 * lib/auth/tokens.ts apply) and it keeps what `current` held that is still needed.
 */
export function checkSecretValue(kind: RotatedKind, pending: unknown, current: unknown): void {
  switch (kind) {
    case 'kek': {
      const ring = parseKekRing(pending, 'The pending key-encryption key');
      for (const { kid, key } of kekEntries(current))
        if (ring.byKid.get(kid)?.key.toString('base64') !== key)
          throw new Error(`The pending key-encryption key lost key ${kid}`);
      return;
    }
    case 'cursor-key': {
      cursorKeysOf(pending);
      const before = (current as Partial<CursorKeySecret> | undefined)?.key;
      if (before !== undefined && (pending as CursorKeySecret).previous !== before)
        throw new Error('The pending cursor key does not keep the key it replaces');
      return;
    }
    case 'signing-keys': {
      const ring = pending as SigningKeyRing;
      const active = ring.keys?.find((key) => key.kid === ring.activeKid);
      if (!active?.privateJwk?.d) throw new Error('The pending signing ring has no active private key');
      const wasActive = (current as Partial<SigningKeyRing> | undefined)?.activeKid;
      if (wasActive && !ring.keys.some((key) => key.kid === wasActive))
        throw new Error('The pending signing ring drops the key that signs today');
      if (publicJwksOf(ring).keys.some((key) => 'd' in key))
        throw new Error('A public JWK holds a private part');
      return;
    }
  }
}

export interface RotationDependencies {
  client: SecretsManagerClient;
  stage: string;
  /** Where the signing keys' rotation publishes the public JWKS. */
  jwksSecretId: string | undefined;
  now?: () => Date;
}

const isNotFound = (error: unknown) => (error as Error).name === 'ResourceNotFoundException';

/** One step of a rotation (the rotation function's handler body). */
export async function rotationStep(event: SecretsManagerRotationEvent, deps: RotationDependencies) {
  const { client } = deps;
  const { Step: step, SecretId: secretId, ClientRequestToken: token } = event;
  const described = await client.send(new DescribeSecretCommand({ SecretId: secretId }));
  const name = described.Name;
  const kind = rotatedKindOf(name, deps.stage);
  if (!kind) throw new Error(`${name} is not a key secret of stage ${deps.stage}: not rotated here`);
  if (!described.RotationEnabled) throw new Error(`Rotation is not enabled for ${name}`);
  const stages = described.VersionIdsToStages ?? {};
  const labels = stages[token];
  if (!labels) throw new Error(`${name} has no version ${token} to rotate to`);
  logger.info('Key rotation step', { secret: name, step, versionId: token });
  if (labels.includes('AWSCURRENT')) return; // finished already: a retried step
  if (!labels.includes('AWSPENDING')) throw new Error(`Version ${token} of ${name} is not pending`);

  const read = async (options: { VersionId?: string; VersionStage: string }) => {
    try {
      const { SecretString } = await client.send(
        new GetSecretValueCommand({ SecretId: secretId, ...options }),
      );
      return SecretString === undefined ? undefined : (JSON.parse(SecretString) as unknown);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  };
  const current = () => read({ VersionStage: 'AWSCURRENT' });
  const pending = async () => {
    const value = await read({ VersionId: token, VersionStage: 'AWSPENDING' });
    if (value === undefined) throw new Error(`Version ${token} of ${name} has no value: createSecret first`);
    return value;
  };

  switch (step) {
    case 'createSecret': {
      if ((await read({ VersionId: token, VersionStage: 'AWSPENDING' })) !== undefined) return;
      const next = await nextSecretValue(kind, await current(), deps.now?.() ?? new Date());
      await client.send(
        new PutSecretValueCommand({
          SecretId: secretId,
          ClientRequestToken: token,
          SecretString: JSON.stringify(next),
          VersionStages: ['AWSPENDING'],
        }),
      );
      return;
    }
    case 'setSecret': {
      if (kind !== 'signing-keys') return;
      if (!deps.jwksSecretId)
        throw new Error('TOKEN_JWKS_SECRET_ID is not configured: cannot publish the JWKS');
      const jwks = publicJwksOf((await pending()) as SigningKeyRing);
      await client.send(
        new PutSecretValueCommand({ SecretId: deps.jwksSecretId, SecretString: JSON.stringify(jwks) }),
      );
      return;
    }
    case 'testSecret':
      checkSecretValue(kind, await pending(), await current());
      return;
    case 'finishSecret': {
      const currentVersion = Object.keys(stages).find((id) => stages[id]?.includes('AWSCURRENT'));
      await client.send(
        new UpdateSecretVersionStageCommand({
          SecretId: secretId,
          VersionStage: 'AWSCURRENT',
          MoveToVersionId: token,
          // A secret's first rotation has no current version to take the label from.
          ...(currentVersion ? { RemoveFromVersionId: currentVersion } : {}),
        }),
      );
      logger.info('Key rotated', { secret: name, versionId: token });
      return;
    }
  }
}
