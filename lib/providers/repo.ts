// The provider items (lib/db/keys.ts providerKeys): platform data per environment and connector.
// - credential: the connector's signing secret, sealed under the environment's KEK;
// - instruction: which tenant's record an instruction (our reference) belongs to, so a notification,
//   which names only the reference, reaches its record;
// - notification: each notification id the provider sent, taken once before it is applied (a replay, or a
//   copy arriving at the same moment, finds it), kept a day;
// - binding: which tenant's customer review or on-ramp reference a provider's reference names (bespoke
//   connectors), so a decision or a receipt, which names only the reference, reaches its tenant.
import { randomBytes } from 'node:crypto';
import { absent, absentOrLapsed, holds } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { createIfAbsent, deleteIf, getRecord, putIf, updateIf } from '../db/items.ts';
import { providerKeys } from '../db/keys.ts';
import { open, type SealedSecret, seal } from '../secret-box.ts';
import type { Environment } from '../tenant.ts';

interface CredentialRecord {
  environment: Environment;
  connectorId: string;
  sealedSecret: SealedSecret;
  createdAt: string;
}

export interface InstructionRecord {
  environment: Environment;
  connectorId: string;
  reference: string;
  kind: 'payout' | 'collection';
  associationId: string;
  transactionRecordId: string;
  createdAt: string;
}

interface NotificationRecord {
  environment: Environment;
  connectorId: string;
  notificationId: string;
  /** `applying` from its taking until it is applied (absent on ids taken before states were kept). */
  state?: 'applying' | 'applied';
  receivedAt: string;
  expiresAt: number;
}

/**
 * How long a notification may be `applying` before its taker is taken to have died with it (the
 * providers function times out well within this): the provider's next retry takes it and applies it.
 */
const APPLYING_LEASE_MS = 60_000;

const credentialEntity = entity<CredentialRecord>({
  type: 'providerCredential',
  keyOf: (r) => providerKeys.credential(r.environment, r.connectorId),
});
const instructionEntity = entity<InstructionRecord>({
  type: 'providerInstruction',
  keyOf: (r) => providerKeys.instruction(r.environment, r.connectorId, r.reference),
});
const notificationEntity = entity<NotificationRecord>({
  type: 'providerNotification',
  keyOf: (r) => providerKeys.notification(r.environment, r.connectorId, r.notificationId),
});

export type BindingKind = 'CUSTOMER' | 'REFERENCE';

export interface BindingRecord {
  environment: Environment;
  connectorId: string;
  kind: BindingKind;
  reference: string;
  associationId: string;
  /** The customerId (CUSTOMER) or the reference itself (REFERENCE) in the tenant. */
  subjectId: string;
  createdAt: string;
}

const bindingEntity = entity<BindingRecord>({
  type: 'providerBinding',
  keyOf: (r) => providerKeys.binding(r.environment, r.connectorId, r.kind, r.reference),
});

/**
 * A binding as one write of a transaction (lib/db/items.ts transact), written with what it binds. A
 * reference is bound once and for good: a second binding of it, to anyone, fails the transaction.
 */
export const bindingOf = (record: BindingRecord) => ({
  entity: bindingEntity as never,
  record,
  condition: absent,
});

export const findBinding = (
  environment: Environment,
  connectorId: string,
  kind: BindingKind,
  reference: string,
) =>
  getRecord<BindingRecord>(providerKeys.binding(environment, connectorId, kind, reference), {
    consistent: true,
  });

const ownerOf = (environment: Environment, connectorId: string) => `provider:${environment}:${connectorId}`;

/**
 * The connector's signing secret, made on first use (the local seed; in production the platform team
 * sets the secret the provider gave it, `admin` style). Returned in the clear for the one who set it up.
 */
export async function ensureProviderSecret(
  environment: Environment,
  connectorId: string,
  now = new Date(),
): Promise<Buffer> {
  const existing = await getRecord<CredentialRecord>(providerKeys.credential(environment, connectorId), {
    consistent: true,
  });
  if (existing) return open(environment, ownerOf(environment, connectorId), existing.sealedSecret);
  const secret = randomBytes(32);
  const record: CredentialRecord = {
    environment,
    connectorId,
    sealedSecret: await seal(environment, ownerOf(environment, connectorId), secret),
    createdAt: now.toISOString(),
  };
  const written = await createIfAbsent(credentialEntity, record);
  if (written.outcome !== 'conditionFailed') return secret;
  return open(environment, ownerOf(environment, connectorId), written.current.sealedSecret);
}

/** The connector's signing secret, or undefined when none is set up. */
export async function findProviderSecret(
  environment: Environment,
  connectorId: string,
): Promise<Buffer | undefined> {
  const record = await getRecord<CredentialRecord>(providerKeys.credential(environment, connectorId));
  return record && open(environment, ownerOf(environment, connectorId), record.sealedSecret);
}

/** Records whose record an instruction is (before it is sent: a notification may beat the answer). */
export async function recordInstruction(record: InstructionRecord): Promise<void> {
  await createIfAbsent(instructionEntity, record);
}

export const findInstruction = (environment: Environment, connectorId: string, reference: string) =>
  getRecord<InstructionRecord>(providerKeys.instruction(environment, connectorId, reference), {
    consistent: true,
  });

/**
 * Takes a notification id to apply it, in one conditional write: false when it was taken before (a
 * replay), unless its taker died applying it (APPLYING_LEASE_MS).
 */
export async function takeNotificationId(
  environment: Environment,
  connectorId: string,
  notificationId: string,
  now: Date,
): Promise<boolean> {
  const lapsed = new Date(now.getTime() - APPLYING_LEASE_MS).toISOString();
  const written = await putIf(
    notificationEntity,
    {
      environment,
      connectorId,
      notificationId,
      state: 'applying',
      receivedAt: now.toISOString(),
      expiresAt: Math.ceil(now.getTime() / 1000) + 86_400,
    },
    absentOrLapsed({ state: 'applying' }, 'receivedAt', lapsed),
  );
  return written.outcome === 'written';
}

/** The taken id's notification is applied (by this taker, `now` its taking): no copy is applied again. */
export async function notificationApplied(
  environment: Environment,
  connectorId: string,
  notificationId: string,
  now: Date,
): Promise<void> {
  await updateIf(
    providerKeys.notification(environment, connectorId, notificationId),
    { set: { state: 'applied' } },
    holds({ state: 'applying', receivedAt: now.toISOString() }),
  );
}

/** Gives back an id its taker could not apply (applying it threw): the provider's retry is applied. */
export async function giveBackNotificationId(
  environment: Environment,
  connectorId: string,
  notificationId: string,
  now: Date,
): Promise<void> {
  await deleteIf(
    providerKeys.notification(environment, connectorId, notificationId),
    holds({ state: 'applying', receivedAt: now.toISOString() }),
  );
}
