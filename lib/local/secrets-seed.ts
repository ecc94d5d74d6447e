// Key material for the local stack, generated into the secrets folder on the first start and kept.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { emptyKeyRing, publicJwksOf, rotateKeyRing } from '../auth/signing-keys.ts';
import { secretNames } from '../secret-names.ts';
import { secretFileName } from './secrets-manager.ts';

export async function ensureLocalSecrets(secretsDir: string, stage: string): Promise<void> {
  mkdirSync(secretsDir, { recursive: true, mode: 0o700 });
  const names = secretNames(stage);
  const file = (name: string) => join(secretsDir, secretFileName(name));
  const write = (name: string, value: unknown) =>
    writeFileSync(file(name), `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  if (!existsSync(file(names.signingKeys)) || !existsSync(file(names.tokenJwks))) {
    const ring = await rotateKeyRing(emptyKeyRing(), new Date());
    write(names.signingKeys, ring);
    write(names.tokenJwks, publicJwksOf(ring));
  }
  if (!existsSync(file(names.cursorKey)))
    write(names.cursorKey, { key: randomBytes(32).toString('base64url') });
  if (!existsSync(file(names.walletKek))) write(names.walletKek, { key: randomBytes(32).toString('base64') });
}
