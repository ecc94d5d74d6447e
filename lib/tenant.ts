// Who owns data: every tenant-owned item lives under an environment and an association (lib/db/keys.ts),
// and every layer names them, so they live on the ground floor, in no domain.

export type Environment = 'sandbox' | 'production';

/** A tenant: all tenant data lives under environment + association. */
export interface Tenant {
  environment: Environment;
  associationId: string;
}
