import { putAsset } from '../assets/repo.ts';
import { assetRegistryFile } from '../assets/schema.ts';
import { fieldErrorsOf } from '../http/validation.ts';
import type { Environment } from '../tenant.ts';
import { AdminRefusal } from './refusal.ts';

/** Validates a whole registry file before writing any of it. */
export async function loadAssetRegistry(environment: Environment, input: unknown) {
  const parsed = assetRegistryFile.safeParse(input);
  if (!parsed.success) {
    const problems = fieldErrorsOf(parsed.error).map((e) => `${e.field}: ${e.message}`);
    throw new AdminRefusal(`Invalid registry file:\n  ${problems.join('\n  ')}`);
  }
  for (const asset of parsed.data) await putAsset(environment, asset);
  return { environment, loaded: parsed.data.map((a) => a.assetCode) };
}
