// The provider of a connector in an environment: the adapter configured for it, with its secret.
import { config } from '../config.ts';
import { badGateway, gatewayTimeout, serviceUnavailable } from '../http/problem.ts';
import type { Environment } from '../tenant.ts';
import {
  type ProviderAdapter,
  ProviderNotConfiguredError,
  ProviderRejectedError,
  ProviderUnavailableError,
} from './contract.ts';
import { httpProvider } from './http-provider.ts';
import {
  findProviderSecret,
  giveBackNotificationId,
  notificationApplied,
  takeNotificationId,
} from './repo.ts';

export { bindingOf, findBinding, findInstruction, recordInstruction } from './repo.ts';

const urlOf = (environment: Environment) =>
  environment === 'sandbox' ? config().PROVIDER_URL_SANDBOX : config().PROVIDER_URL_PRODUCTION;

export async function providerFor(environment: Environment, connectorId: string): Promise<ProviderAdapter> {
  const url = urlOf(environment);
  const secret = url ? await findProviderSecret(environment, connectorId) : undefined;
  if (!url || !secret) throw new ProviderNotConfiguredError(environment, connectorId);
  return httpProvider(url, connectorId, secret);
}

/** Whether the connector's provider can be reached at all: a URL and a secret for it. */
export async function providerConfigured(environment: Environment, connectorId: string): Promise<boolean> {
  return Boolean(urlOf(environment) && (await findProviderSecret(environment, connectorId)));
}

/**
 * Asks the connector's provider something a request waits on (a customer's registration, a reference):
 * its trouble is the caller's problem, and nothing was written — 503 (unreachable or not set up), 504
 * (no answer in time), 502 (it refused).
 */
export async function askProvider<T>(
  environment: Environment,
  connectorId: string,
  ask: (provider: ProviderAdapter) => Promise<T>,
): Promise<T> {
  try {
    return await ask(await providerFor(environment, connectorId));
  } catch (error) {
    if (error instanceof ProviderNotConfiguredError)
      throw serviceUnavailable(`Connector ${connectorId}'s provider is not set up in ${environment}.`);
    if (error instanceof ProviderUnavailableError)
      throw error.timedOut
        ? gatewayTimeout(`Connector ${connectorId}'s provider did not answer in time.`)
        : serviceUnavailable(`Connector ${connectorId}'s provider is unavailable; try again shortly.`);
    if (error instanceof ProviderRejectedError)
      throw badGateway(`Connector ${connectorId}'s provider refused the request: ${error.message}`);
    throw error;
  }
}

/**
 * Applies a provider's notification once: its id is taken before anything is applied, in one conditional
 * write, so of copies arriving together one takes it and is applied and the others are replays (false).
 * Given back if applying it fails, and taken again if its taker died applying it (repo.ts), so that the
 * provider's retry is applied.
 */
export async function applyOnce(
  environment: Environment,
  connectorId: string,
  notificationId: string,
  now: Date,
  apply: () => Promise<void>,
): Promise<boolean> {
  if (!(await takeNotificationId(environment, connectorId, notificationId, now))) return false;
  try {
    await apply();
  } catch (error) {
    await giveBackNotificationId(environment, connectorId, notificationId, now);
    throw error;
  }
  await notificationApplied(environment, connectorId, notificationId, now);
  return true;
}
