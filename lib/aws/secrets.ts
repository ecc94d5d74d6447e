// Reads JSON secrets from Secrets Manager (a local stand-in serves the same API on the local stack),
// bounded in time: key material that does not arrive in time is a 504, an unreachable service a 503.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { gatewayTimeout, serviceUnavailable } from '../http/problem.ts';

const secretsManager = new SecretsManagerClient({ maxAttempts: 2 });

export async function readSecretJson(secretId: string, timeoutMs: number): Promise<unknown> {
  try {
    const { SecretString } = await secretsManager.send(new GetSecretValueCommand({ SecretId: secretId }), {
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    return JSON.parse(SecretString ?? 'null');
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw gatewayTimeout('Fetching key material timed out.');
    }
    throw serviceUnavailable('Key material is unavailable.');
  }
}
