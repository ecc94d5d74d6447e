// The portal's people records: memberships (a person's role in a tenant), sign-in codes, sessions and
// the audit log. Codes, sessions and audit entries are removed by TTL (`expiresAt`, epoch seconds).
import { absent, exists, holds } from '../db/conditions.ts';
import { entity } from '../db/entity.ts';
import { deleteIf, firstRecord, getRecord, putIf, readAllPages, updateIf } from '../db/items.ts';
import { peopleKeys, tenantOf, tenantScope } from '../db/keys.ts';
import { newestFirstPage, type PageRequest } from '../db/paginate.ts';
import type { Environment, Tenant } from '../tenant.ts';
import type { Role } from './schema.ts';

export interface MemberRecord {
  memberId: string;
  email: string;
  environment: Environment;
  associationId: string;
  role: Role;
  /** The owner who invited them; null for the first owner (the admin CLI or the local seed). */
  invitedBy: string | null;
  createdAt: string;
}

export interface SignInCodeRecord {
  email: string;
  codeHash: string;
  sentAt: string;
  /** Failed tries of this code; the code is spent at the fifth. */
  attempts: number;
  expiresAt: number;
}

export interface SessionRecord {
  /** SHA-256 of the cookie's value: the value itself is never stored. */
  sessionHash: string;
  email: string;
  createdAt: string;
  expiresAt: number;
}

export interface AuditRecord {
  environment: Environment;
  associationId: string;
  at: string;
  actor: string;
  role: Role;
  action: string;
  status: number;
  requestId: string;
  sourceIp: string;
  expiresAt: number;
}

const memberEntity = entity<MemberRecord>({
  type: 'member',
  keyOf: (record) => peopleKeys.member(record.email, tenantOf(record)),
  indexKeysOf: (record) => peopleKeys.byTenant(tenantOf(record), record.memberId),
});

const signInCodeEntity = entity<SignInCodeRecord>({
  type: 'signInCode',
  keyOf: (record) => peopleKeys.signInCode(record.email),
});

const auditEntity = entity<AuditRecord>({
  type: 'auditEntry',
  keyOf: (record) => ({ pk: peopleKeys.audit(tenantOf(record)), sk: `${record.at}#${record.requestId}` }),
});

export const findMember = (email: string, tenant: Tenant) =>
  getRecord<MemberRecord>(peopleKeys.member(email, tenant), { consistent: true });

/** Every tenant the person belongs to (a handful: one query on their own partition). */
export const membershipsOf = (email: string) =>
  readAllPages<MemberRecord>({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': peopleKeys.person(email), ':prefix': peopleKeys.memberPrefix },
  });

export const membersOf = (tenant: Tenant) =>
  readAllPages<MemberRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
    ExpressionAttributeValues: { ':pk': tenantScope(tenant), ':prefix': peopleKeys.memberPrefix },
  });

export const memberById = (tenant: Tenant, memberId: string) =>
  firstRecord<MemberRecord>({
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
    ExpressionAttributeValues: {
      ':pk': tenantScope(tenant),
      ':sk': peopleKeys.byTenant(tenant, memberId).gsi1sk,
    },
  });

/** False when the person is already a member of the tenant (their role is left as it is). */
export async function putMember(record: MemberRecord): Promise<boolean> {
  return (await putIf(memberEntity, record, absent)).outcome === 'written';
}

export async function removeMember(email: string, tenant: Tenant): Promise<boolean> {
  return (await deleteIf(peopleKeys.member(email, tenant), exists)).outcome === 'written';
}

export const putSignInCode = (record: SignInCodeRecord) => putIf(signInCodeEntity, record);
export const findSignInCode = (email: string) =>
  getRecord<SignInCodeRecord>(peopleKeys.signInCode(email), { consistent: true });
/** Counts a failed try; the record after it, or undefined when the code is gone. */
export async function countCodeAttempt(email: string): Promise<SignInCodeRecord | undefined> {
  const written = await updateIf<SignInCodeRecord>(
    peopleKeys.signInCode(email),
    { add: { attempts: 1 } },
    exists,
  );
  return written.outcome === 'written' ? written.record : undefined;
}
/** Spends the code: true only for the one request that removed it (a code signs in once). */
export async function spendSignInCode(email: string, codeHash: string): Promise<boolean> {
  const spent = await deleteIf(peopleKeys.signInCode(email), holds({ codeHash }));
  return spent.outcome === 'written';
}

const sessionEntity = entity<SessionRecord>({
  type: 'portalSession',
  keyOf: (record) => peopleKeys.session(record.sessionHash),
});

export async function putSession(record: SessionRecord): Promise<void> {
  const written = await putIf(sessionEntity, record, absent);
  if (written.outcome !== 'written') throw new Error('A session with this id already exists');
}
export const findSession = (sessionHash: string) =>
  getRecord<SessionRecord>(peopleKeys.session(sessionHash), { consistent: true });
export const endSession = (sessionHash: string) => deleteIf(peopleKeys.session(sessionHash), exists);

export const putAuditEntry = (record: AuditRecord) => putIf(auditEntity, record);

/** The tenant's audit log, newest first. */
export const auditPageOf = (tenant: Tenant, page: Omit<PageRequest, 'binding'>) =>
  newestFirstPage<AuditRecord>(peopleKeys.audit(tenant), {
    ...page,
    binding: { scope: tenantScope(tenant), query: 'audit-log' },
  });
