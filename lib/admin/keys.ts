// Key rotation for the platform team: the CLI asks Secrets Manager to rotate a key secret
// (RotateSecret) and waits until the new version is current. The stage's rotation function makes the new
// key inside AWS (lib/keys/rotation.ts), so no key material passes through the operator's machine, and
// the operator needs no right to read it: only secretsmanager:RotateSecret and DescribeSecret.
import {
  DescribeSecretCommand,
  type DescribeSecretCommandOutput,
  RotateSecretCommand,
  SecretsManagerClient,
} from '@aws-sdk/client-secrets-manager';
import { type SecretName, secretIdVariable } from '../secret-names.ts';
import type { Environment } from '../tenant.ts';
import { AdminRefusal } from './refusal.ts';

export type KeySecret = 'signing-keys' | 'cursor-key' | 'kek';

/** A secret's id from the environment: the stage's stack outputs, or the local stack's. */
function secretIdOf(name: SecretName): string {
  const id = process.env[secretIdVariable[name]];
  if (!id)
    throw new AdminRefusal(`${secretIdVariable[name]} is not set: start the local stack or pass --stage`);
  return id;
}

/** The secret a `keys rotate --secret … [--environment …]` names. */
export function keySecretId(secret: KeySecret, environment: Environment): string {
  return secretIdOf(secret === 'kek' ? `kek-${environment}` : secret);
}

const stagesOf = (described: DescribeSecretCommandOutput) => described.VersionIdsToStages ?? {};

export interface RotationReport {
  secret: string;
  /** The version now current. */
  versionId: string;
}

/**
 * Rotates one key secret and waits (up to `timeoutMs`) until the version it started is AWSCURRENT. The
 * signing keys: a new active key, the previous kept in the JWKS until tokens it signed expire. The cursor
 * key: a new key, the previous still opening cursors. A KEK: a new current key; every earlier key stays.
 */
export async function rotateKeySecret(
  secretId: string,
  options: { timeoutMs?: number; pollMs?: number } = {},
): Promise<RotationReport> {
  const client = new SecretsManagerClient({});
  try {
    const started = await client.send(
      new RotateSecretCommand({ SecretId: secretId, RotateImmediately: true }),
    );
    const versionId = started.VersionId ?? '';
    const deadline = Date.now() + (options.timeoutMs ?? 120_000);
    for (;;) {
      const described = await client.send(new DescribeSecretCommand({ SecretId: secretId }));
      if (stagesOf(described)[versionId]?.includes('AWSCURRENT')) return { secret: secretId, versionId };
      if (Date.now() > deadline)
        throw new Error(
          `The rotation of ${secretId} (version ${versionId}) has not finished: see the rotation function's logs`,
        );
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 2000));
    }
  } finally {
    client.destroy();
  }
}

export interface KeyStatus {
  secret: string;
  rotationEnabled: boolean;
  /** The current version, or null while the secret has no value (its first rotation has not run). */
  currentVersion: string | null;
  /** A rotation under way, or one that failed and will be retried. */
  pendingVersion: string | null;
  lastRotated: string | null;
  nextRotation: string | null;
}

/** What each key secret of the stage holds: versions and rotation dates, never a value. */
export async function keyStatus(): Promise<KeyStatus[]> {
  const client = new SecretsManagerClient({});
  const ids = (Object.keys(secretIdVariable) as SecretName[]).map(secretIdOf);
  try {
    return await Promise.all(
      ids.map(async (secret) => {
        const described = await client.send(new DescribeSecretCommand({ SecretId: secret }));
        const stages = Object.entries(stagesOf(described));
        const labelled = (label: string) => stages.find(([, labels]) => labels.includes(label))?.[0] ?? null;
        return {
          secret,
          rotationEnabled: described.RotationEnabled === true,
          currentVersion: labelled('AWSCURRENT'),
          pendingVersion: labelled('AWSPENDING') === labelled('AWSCURRENT') ? null : labelled('AWSPENDING'),
          lastRotated: described.LastRotatedDate?.toISOString() ?? null,
          nextRotation: described.NextRotationDate?.toISOString() ?? null,
        };
      }),
    );
  } finally {
    client.destroy();
  }
}

/**
 * One line per key secret without a current version: the deploy's first rotation has not finished, or
 * failed. A version becomes AWSCURRENT only once the rotation function's test step has read it back the
 * way the functions will (lib/keys/rotation.ts), so a current version is one its readers accept, and a
 * stage with a line here answers 503 on every authenticated route.
 */
export function keysWithoutCurrentVersion(statuses: readonly KeyStatus[]): string[] {
  return statuses
    .filter((status) => status.currentVersion === null)
    .map(
      (status) =>
        `${status.secret} has no current version` +
        (status.pendingVersion ? ` (rotation to ${status.pendingVersion} not finished or failed)` : '') +
        ": see the rotation function's logs, then npm run admin -- keys rotate for it.",
    );
}
