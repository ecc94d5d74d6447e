// The secrets a stage uses. Infra creates them under these names; the local stack serves them from files.
import type { Environment } from './tenant.ts';

export const secretNames = (stage: string) => ({
  /** Private token-signing ring (lib/auth/signing-keys.ts). */
  signingKeys: `${stage}/payments-gateway/signing-keys`,
  /** Public JWKS of that ring: written by the signing ring's rotation, never on its own. */
  tokenJwks: `${stage}/payments-gateway/token-jwks`,
  cursorKey: `${stage}/payments-gateway/cursor-key`,
  /**
   * Key-encryption key rings (lib/secret-box.ts), one per environment: wallet, platform, channel and
   * webhook secrets of one environment are never sealed under the other's key.
   */
  kek: {
    sandbox: `${stage}/payments-gateway/kek-sandbox`,
    production: `${stage}/payments-gateway/kek-production`,
  } satisfies Record<Environment, string>,
  /**
   * The WhatsApp Business Cloud API access token `{accessToken}` (lib/notifications/whatsapp.ts): put
   * there by the operator (Meta issues it), never rotated by the stack; the local stack writes its own.
   */
  whatsAppToken: `${stage}/payments-gateway/whatsapp-token`,
});

/**
 * The key secrets by short name, and the environment variable through which a function learns each
 * one's id (lib/config.ts); the admin CLI reads the same variables (lib/admin/stage-outputs.ts).
 */
export const secretIdVariable = {
  'signing-keys': 'SIGNING_KEYS_SECRET_ID',
  'token-jwks': 'TOKEN_JWKS_SECRET_ID',
  'cursor-key': 'CURSOR_KEY_SECRET_ID',
  'kek-sandbox': 'KEK_SECRET_ID_SANDBOX',
  'kek-production': 'KEK_SECRET_ID_PRODUCTION',
} as const;

export type SecretName = keyof typeof secretIdVariable;
