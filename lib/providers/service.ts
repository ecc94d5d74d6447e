// The provider of a connector in an environment: the adapter configured for it, with its secret.
import { config } from '../config.ts';
import type { Environment } from '../http/types.ts';
import { type ProviderAdapter, ProviderNotConfiguredError } from './contract.ts';
import { httpProvider } from './http-provider.ts';
import { findProviderSecret } from './repo.ts';

export { recordInstruction } from './repo.ts';

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
