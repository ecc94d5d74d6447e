// The connector catalogue, loaded per environment by the admin CLI and by every local start.
import { findAsset } from '../assets/repo.ts';
import { connectorCatalogueFile } from '../connectors/catalogue-schema.ts';
import { putConnector } from '../connectors/repo.ts';
import { fieldErrorsOf } from '../http/validation.ts';
import type { Environment } from '../tenant.ts';
import { AdminRefusal } from './refusal.ts';

/**
 * Validates a whole catalogue file (its shape, and that each connector's ledger side is an asset of
 * the environment's registry) before writing any of it; then adds or replaces each entry. Entries not
 * in the file are left as they are: a connector is retired by loading it with `isActive: false`.
 */
export async function loadConnectorCatalogue(environment: Environment, input: unknown, now = new Date()) {
  const parsed = connectorCatalogueFile.safeParse(input);
  const problems = parsed.success ? [] : fieldErrorsOf(parsed.error).map((e) => `${e.field}: ${e.message}`);
  if (parsed.success) {
    for (const [i, entry] of parsed.data.entries()) {
      const member = entry.direction === 'OFF_RAMP' ? 'acceptedAsset' : 'destinationAsset';
      if (!(await findAsset(environment, entry[member])))
        problems.push(`${i}.${member}: ${entry[member]} is not in the ${environment} asset registry`);
    }
  }
  if (!parsed.success || problems.length)
    throw new AdminRefusal(`Invalid connector catalogue:\n  ${problems.join('\n  ')}`);
  for (const entry of parsed.data) await putConnector(environment, entry, now);
  return { environment, loaded: parsed.data.map((c) => c.id) };
}
