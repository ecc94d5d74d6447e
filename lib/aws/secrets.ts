// Key material from Secrets Manager (a local stand-in serves the same API on the local stack), read
// through Powertools Parameters: each secret is kept for SECRET_MAX_AGE_SECONDS, so a warm function
// makes no call meanwhile and a rotation reaches it within that long. A fetch is bounded in time as a
// whole, its retry included: material that does not arrive in time is a 504, an unreachable service or
// an unreadable secret a 503.
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import type { SecretsGetOptions } from '@aws-lambda-powertools/parameters/secrets/types';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '../config.ts';
import { gatewayTimeout, serviceUnavailable } from '../http/problem.ts';
import { logger } from '../log.ts';

/**
 * Powertools' provider (cache, maxAge, JSON transform) with the one thing it has no option for: a
 * deadline on each fetch. Its `sdkOptions` are the command's input, which cannot carry an abort signal.
 */
class DeadlineSecretsProvider extends SecretsProvider {
  protected override async _get(name: string, options?: NonNullable<SecretsGetOptions>) {
    const { SecretString, SecretBinary } = await this.client.send(
      new GetSecretValueCommand({ ...options?.sdkOptions, SecretId: name }),
      { abortSignal: AbortSignal.timeout(config().KEY_FETCH_TIMEOUT_MS) },
    );
    return SecretString ?? SecretBinary;
  }
}

/**
 * The AWSPREVIOUS versions, in a cache of their own (Powertools keys its cache by name, not by stage). A
 * secret that was never replaced has none: that is kept as null like a value, not asked for again.
 */
class PreviousSecretsProvider extends DeadlineSecretsProvider {
  protected override async _get(name: string, options?: NonNullable<SecretsGetOptions>) {
    try {
      return await super._get(name, { ...options, sdkOptions: { VersionStage: 'AWSPREVIOUS' } });
    } catch (error) {
      if ((error as Error).name === 'ResourceNotFoundException') return 'null';
      throw error;
    }
  }
}

const awsSdkV3Client = new SecretsManagerClient({ maxAttempts: 2 });
const secrets = new DeadlineSecretsProvider({ awsSdkV3Client });
const previousSecrets = new PreviousSecretsProvider({ awsSdkV3Client });

export interface SecretReadOptions {
  /**
   * Skip the cache: for a reader that keeps the value itself and asks again only when it has to, such
   * as the JWKS cache of aws-jwt-verify, which refetches only for a key id it has not seen.
   */
  forceFetch?: boolean;
  /** The version the secret held before its current one (null when it has none), instead of the current. */
  previous?: boolean;
}

/** A JSON secret, from the cache while it is younger than SECRET_MAX_AGE_SECONDS. */
export async function readSecretJson(secretId: string, options: SecretReadOptions = {}): Promise<unknown> {
  try {
    return await (options.previous ? previousSecrets : secrets).get(secretId, {
      maxAge: config().SECRET_MAX_AGE_SECONDS,
      transform: 'json',
      forceFetch: options.forceFetch ?? false,
    });
  } catch (error) {
    // Parameters wraps what the SDK threw (GetParameterError) and the cause says what happened.
    const name = ((error as Error).cause as Error | undefined)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw gatewayTimeout('Fetching key material timed out.');
    }
    // A key secret exists empty until its rotation writes its first value (infra/constructs/key-secrets.ts):
    // say so where the operator looks, not to the caller.
    if (name === 'ResourceNotFoundException')
      logger.warn(
        'Key material has no current value: the secret is missing or its first rotation has not run',
        {
          secretId,
          help: 'npm run admin -- keys status --stage <stage>',
        },
      );
    throw serviceUnavailable('Key material is unavailable.');
  }
}
