// Configuration, read once at cold start and validated: missing config fails the start, not a request.
import * as z from './zod.ts';

/** LEDGER_TIMEOUT_MS unless set: infra sizes the timeouts of the functions that wait on the ledger by it. */
export const DEFAULT_LEDGER_TIMEOUT_MS = 10_000;

/**
 * The largest channel pool: the ledger-submitter runs one invocation per channel, and an SQS event source
 * runs at most 1,000 at once.
 */
export const MAX_LEDGER_CHANNELS = 1000;

const positiveInt = (fallback: number) =>
  z._default(z.coerce.number().check(z.int(), z.positive()), fallback);
const nonEmpty = () => z.string().check(z.minLength(1));

/** Where problem `type`s point unless ERRORS_BASE says otherwise; the edge's own answers use it too. */
export const DEFAULT_ERRORS_BASE = 'https://errors.payments-gateway.dev';

const schema = z.object({
  STAGE: z._default(nonEmpty(), 'local'),
  TABLE_NAME: nonEmpty(),
  /**
   * Which list indexes the lists read (lib/db/table.ts): the keys-only ones (then each page's records by
   * key), or, on a stage still moving to them, the projected ones they replace. Infra sets it per step.
   */
  LIST_INDEX_READS: z._default(z.enum(['KEYS_ONLY', 'ALL']), 'KEYS_ONLY'),
  /** Which pending index the reconciler reads (lib/db/table.ts): the keys-only one, or the projected one before it exists. */
  PENDING_INDEX_READS: z._default(z.enum(['KEYS_ONLY', 'ALL']), 'KEYS_ONLY'),
  /** Prefix of the `type` member of problem bodies. */
  ERRORS_BASE: z._default(z.url(), DEFAULT_ERRORS_BASE),
  TOKEN_ISSUER: z._default(nonEmpty(), 'https://auth.payments-gateway.dev'),
  TOKEN_AUDIENCE: z._default(nonEmpty(), 'payments-gateway-api'),
  TOKEN_TTL_SECONDS: positiveInt(900),
  /** Secrets Manager secret with the private signing keys (only the token function reads it). */
  SIGNING_KEYS_SECRET_ID: z.optional(nonEmpty()),
  /** Secrets Manager secret with the public JWKS every API function verifies against. */
  TOKEN_JWKS_SECRET_ID: z.optional(nonEmpty()),
  /** Secrets Manager secret `{key}` that signs pagination cursors. */
  CURSOR_KEY_SECRET_ID: z.optional(nonEmpty()),
  /**
   * Secrets Manager secret `{token}` that CloudFront sends as X-Origin-Verify: when set, a request without
   * it did not come through the edge (CloudFront and its web ACL) and is refused with 403. Unset on the
   * local stack, where there is no edge.
   */
  ORIGIN_VERIFY_SECRET_ID: z.optional(nonEmpty()),
  /** Time allowed to fetch key material before a request answers 504. */
  KEY_FETCH_TIMEOUT_MS: positiveInt(3000),
  /**
   * How long a function keeps a secret it has read (Powertools Parameters' maxAge): a rotation of the
   * signing ring, cursor key or wallet KEK reaches warm functions within this long.
   */
  SECRET_MAX_AGE_SECONDS: positiveInt(300),
  /**
   * How long an execution environment keeps what it read of the credentials and reference data every
   * request needs (an API key, a bearer token's client, a registry asset, the funding account: lib/db/
   * held-reads.ts): a revocation or a registry change takes effect within this. At most 60 (revocation
   * within a minute); 0 reads them afresh every time (the test stack, where tests revoke and expect 401 at once).
   */
  REFERENCE_MAX_AGE_SECONDS: z._default(z.coerce.number().check(z.int(), z.nonnegative(), z.lte(60)), 60),
  /** Token route (lib/auth/rate-limit.ts), per window: tokens issued to one client, */
  TOKEN_RATE_LIMIT: positiveInt(20),
  /** failed requests of one application from one source address, */
  TOKEN_FAILURE_LIMIT: positiveInt(20),
  /** and failed requests of one application from all its sources. */
  TOKEN_APPLICATION_FAILURE_LIMIT: positiveInt(100),
  TOKEN_RATE_WINDOW_SECONDS: positiveInt(60),
  /**
   * Wallets one association may create per window (lib/wallets/service.ts): each one's ledger reserve is
   * the platform's XLM, so no tenant can lock up the funding account, or empty the sandbox's for everyone.
   */
  WALLET_CREATE_LIMIT: positiveInt(1000),
  WALLET_CREATE_WINDOW_SECONDS: positiveInt(3600),
  /**
   * The sandbox's test money (lib/wallets/sandbox-limits.ts): the most one call of POST
   * /sandbox/wallets/{id}/fund may ask (in the asset's units) and one association may take a UTC day,
   * and likewise for the on-ramp receipt helper (in the receipt's currency). The funding and settlement
   * accounts are shared by every sandbox tenant: none may empty them for the others.
   */
  SANDBOX_FUND_MAX_PER_CALL: positiveInt(10_000),
  SANDBOX_FUND_DAILY_LIMIT: positiveInt(100_000),
  SANDBOX_RECEIPT_MAX_PER_CALL: positiveInt(100_000),
  SANDBOX_RECEIPT_DAILY_LIMIT: positiveInt(1_000_000),
  /**
   * The sandbox reserves (lib/ledger/sandbox-reserves.ts): the funding account gets friendbot's lumens
   * below this many XLM; a settlement account's platform-issued asset is paid up to the target below
   * the floor; friendbot's address (the local stack's ledger has its own).
   */
  SANDBOX_FUNDING_FLOOR_XLM: positiveInt(5_000),
  SANDBOX_SETTLEMENT_FLOOR: positiveInt(100_000),
  SANDBOX_SETTLEMENT_TARGET: positiveInt(1_000_000),
  FRIENDBOT_URL_SANDBOX: z._default(z.url(), 'https://friendbot.stellar.org'),
  /** A wallet activation the platform could not pay is asked for again after this many seconds. */
  ACTIVATION_RETRY_DELAY_SECONDS: z._default(
    z.coerce.number().check(z.int(), z.nonnegative(), z.lte(900)),
    60,
  ),
  /**
   * Multiplies the quota of every default request limit (lib/limits/policies.ts): 1 in every deployed
   * stage and on `npm start`; the bench lifts it for its sections that flood on purpose. Limits the admin
   * CLI set for an application are taken as they are.
   */
  RATE_LIMIT_SCALE: z._default(z.coerce.number().check(z.positive()), 1),
  LOG_LEVEL: z._default(z.enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT']), 'INFO'),
  /** Horizon per environment (the local stack points these at its local ledger). */
  HORIZON_URL_SANDBOX: z._default(z.url(), 'https://horizon-testnet.stellar.org'),
  HORIZON_URL_PRODUCTION: z._default(z.url(), 'https://horizon.stellar.org'),
  /** Defaults are the SDK's `Networks.TESTNET` / `Networks.PUBLIC` (spelled out to keep the SDK out of config). */
  NETWORK_PASSPHRASE_SANDBOX: z._default(nonEmpty(), 'Test SDF Network ; September 2015'),
  NETWORK_PASSPHRASE_PRODUCTION: z._default(nonEmpty(), 'Public Global Stellar Network ; September 2015'),
  /** Time allowed for any one Horizon request (a submission that takes longer is looked up by hash). */
  LEDGER_TIMEOUT_MS: positiveInt(DEFAULT_LEDGER_TIMEOUT_MS),
  /**
   * Channel accounts per environment (lib/ledger/channels.ts): how many transactions the gateway can have
   * in flight at once, and so at most how many land per ledger close.
   */
  LEDGER_CHANNELS: z._default(z.coerce.number().check(z.int(), z.positive(), z.lte(MAX_LEDGER_CHANNELS)), 16),
  /**
   * Secrets Manager secrets holding each environment's key-encryption key ring (lib/secret-box.ts):
   * ledger and webhook secrets of sandbox tenants are sealed under the first, production's under the
   * second. A function is given only the ones it may read.
   */
  KEK_SECRET_ID_SANDBOX: z.optional(nonEmpty()),
  KEK_SECRET_ID_PRODUCTION: z.optional(nonEmpty()),
  /**
   * Swaps: how far below the path's quoted amount (at execution) the conversion may deliver before the
   * ledger refuses it (destMin = quoted × (1 − this)). A decimal fraction: 0.01 is 1 %.
   */
  SWAP_SLIPPAGE: z._default(
    z.string().check(z.regex(/^0(\.\d{1,7})?$/, 'must be a decimal fraction below 1, e.g. 0.01')),
    '0.01',
  ),
  /**
   * Sandbox webhooks may point at loopback (a receiver on the tester's machine): only the local stack
   * sets this. In AWS, loopback would be the Lambda itself.
   */
  WEBHOOKS_ALLOW_LOOPBACK: z._default(z.enum(['true', 'false']), 'false'),
  /**
   * Multiplies the webhook retry schedule (lib/webhooks/schedule.ts): 1 in every deployed stage; the test
   * stack runs it faster, so three days of retries fit in seconds.
   */
  WEBHOOK_RETRY_SCALE: z._default(z.coerce.number().check(z.positive(), z.lte(1)), 1),
  /**
   * Beneficiary notices (lib/notifications): the SES sending identity's From address and the
   * configuration set whose event destination reports bounces and complaints. Unset: email notices are
   * recorded `skipped` (no sender configured).
   */
  NOTIFY_EMAIL_FROM: z.optional(z.email()),
  SES_CONFIGURATION_SET: z.optional(nonEmpty()),
  /**
   * WhatsApp notices through the WhatsApp Business Cloud API (lib/notifications/whatsapp.ts): the
   * business phone number's id and the Secrets Manager secret `{accessToken}` it sends with. Both unset:
   * WhatsApp notices are recorded `skipped`. The base URL is Meta's Graph API but on the local stack.
   */
  WHATSAPP_PHONE_NUMBER_ID: z.optional(nonEmpty()),
  WHATSAPP_TOKEN_SECRET_ID: z.optional(nonEmpty()),
  WHATSAPP_API_URL: z._default(z.url(), 'https://graph.facebook.com'),
  WHATSAPP_API_VERSION: z._default(z.string().check(z.regex(/^v\d+\.\d+$/)), 'v21.0'),
  /** The approved message template (body parameters: amount, sender, reference) and its language. */
  WHATSAPP_TEMPLATE: z._default(nonEmpty(), 'payment_received'),
  WHATSAPP_TEMPLATE_LANGUAGE: z._default(nonEmpty(), 'en'),
  /** The approved template a sandbox recipient's verification code goes out with (body: code, sender, TEST). */
  WHATSAPP_CODE_TEMPLATE: z._default(nonEmpty(), 'recipient_code'),
  /**
   * Notices (and sandbox verification codes) one tenant may send per UTC day (lib/notifications): past
   * it a notice is recorded `skipped` and counted (NoticeCapped), a code request answers 429. Each
   * message is the platform's sending reputation and money, so no tenant spends another's.
   */
  NOTICE_DAILY_LIMIT_SANDBOX: positiveInt(100),
  NOTICE_DAILY_LIMIT_PRODUCTION: positiveInt(10_000),
  /** Multiplies the notice retry schedule (lib/notifications/service.ts), as WEBHOOK_RETRY_SCALE does. */
  NOTIFY_RETRY_SCALE: z._default(z.coerce.number().check(z.nonnegative(), z.lte(1)), 1),
  /** How long a quote can be paid against (spec: roughly two minutes). */
  QUOTE_TTL_SECONDS: positiveInt(120),
  /** Rate source per environment (lib/quotes/rates.ts): the configured sandbox table or the provider. */
  QUOTE_RATE_SOURCE_SANDBOX: z._default(z.enum(['configured', 'provider']), 'configured'),
  QUOTE_RATE_SOURCE_PRODUCTION: z._default(z.enum(['configured', 'provider']), 'provider'),
  /**
   * The providers behind the connectors, per environment (lib/providers): the base URL of a service that
   * speaks the provider contract (the local stack's simulator, or a production provider's adapter).
   * Unset: off-ramps and on-ramps of that environment answer 503 and nothing is accepted.
   */
  PROVIDER_URL_SANDBOX: z.optional(z.url()),
  PROVIDER_URL_PRODUCTION: z.optional(z.url()),
  /** Time allowed for one provider request: longer, a submission answers 504 (nothing was accepted). */
  PROVIDER_TIMEOUT_MS: positiveInt(5000),
  /**
   * The outbox reconciler (lib/outbox-reconciler.ts): a payment still `initiated`, or a wallet still
   * `pending` activation, this long after it entered that state (or was last re-driven) is re-driven;
   */
  RECONCILE_AFTER_SECONDS: positiveInt(900),
  /** and at most this many records a run (the oldest first; the next run takes the rest). */
  RECONCILE_MAX_PER_RUN: positiveInt(100),
});

export type Config = z.infer<typeof schema>;

let cached: Config | undefined;

/** The validated configuration; parsed on first use (module load of each handler) and kept. */
/**
 * LEDGER_CHANNELS as config() reads it, alone: the queue definitions and the stack read it where the rest
 * of config is not set (a synth), so the pool the functions lease from and the ledger-submitter's
 * concurrency (lib/queues.ts) come from the same value.
 */
export const ledgerChannels = (env: NodeJS.ProcessEnv = process.env): number =>
  schema.shape.LEDGER_CHANNELS.parse(env.LEDGER_CHANNELS);

export function config(): Config {
  cached ??= schema.parse(process.env);
  return cached;
}

/** Forget the parsed configuration: tests that change the environment call this. */
export function resetConfig(): void {
  cached = undefined;
}
