import { ok, operation } from '../http/api-function.ts';
import { auditQuery, inviteBody, memberIdParams } from '../people/schema.ts';
import { addMember, auditLog, listMembers, removeMemberById } from '../people/service.ts';

/** The person behind the call ('person' routes: lib/http/authenticate.ts made sure there is one). */
const personOf = (caller: { person?: { email: string } }) => caller.person?.email ?? '';

/** The operations of functions/api/team.ts, by the operation names of lib/routes.ts. */
export const teamOperations = {
  listTeamMembers: operation({
    handle: async ({ tenant }) => ok(await listMembers(tenant)),
  }),
  addTeamMember: operation({
    body: inviteBody,
    handle: async ({ tenant, body, caller, now }) => ({
      status: 201,
      body: await addMember(tenant, body, personOf(caller), now),
    }),
  }),
  removeTeamMember: operation({
    params: memberIdParams,
    handle: async ({ tenant, params, caller }) =>
      ok(await removeMemberById(tenant, params.memberId, personOf(caller))),
  }),
  listAuditLog: operation({
    query: auditQuery,
    handle: async ({ tenant, query }) => ok(await auditLog(tenant, query)),
  }),
};
