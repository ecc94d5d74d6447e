// A transaction record's id is a name-based UUID (RFC 9562 version 5) of the tenant and the caller's
// transactionId: the idempotency key and the record it guards are then one item, written by one
// conditional put, with no second "key" item that a crash could leave without its record. The same
// transactionId in another tenant (or environment) names another record.

import { nameBasedId } from '../ids.ts';
import type { Tenant } from '../tenant.ts';

/** This service's namespace for the ids (a random v4 UUID, fixed forever: changing it renames every record). */
const NAMESPACE = 'c3f1d1e2-5b7a-4f3e-9a43-0b6f2f7d8e15';

/** The record id of the caller's `transactionId` in its tenant. */
export const transactionRecordIdOf = (tenant: Tenant, transactionId: string): string =>
  nameBasedId(NAMESPACE, `${tenant.environment}/${tenant.associationId}/${transactionId.toLowerCase()}`);

/** The ledger intent that executes a record (lib/ledger/submit.ts keys its submission by it). */
export const intentIdOf = (transactionRecordId: string): string => `payment:${transactionRecordId}`;
