// The four shapes most tenant routes share, declared once: a list (the query, read in the caller's
// tenant, answered 200 with the page), a read (the path's id, read in the caller's tenant, 200), a
// creation (the body, created in the caller's tenant at the request's instant, answered 201 with the
// resource) and an action (the body, acted on in the caller's tenant at the request's instant, 200). A route with more to it (a query beside a body, two path ids) declares its operation itself.
import { ok, operation } from '../http/api-function.ts';
import type { Tenant } from '../tenant.ts';
import type * as z from '../zod.ts';

/** `GET /<resources>`: the service's page of the caller's tenant, as the query asks. */
export const listOperation = <Q>(
  query: z.ZodMiniType<Q>,
  list: (tenant: Tenant, query: Q) => Promise<unknown>,
) =>
  operation<undefined, Q, undefined>({
    query,
    handle: async (request) => ok(await list(request.tenant, request.query)),
  });

/** `GET /<resources>/{id}`: the service's resource of the caller's tenant named by the path's `key`. */
export const readOperation = <P, K extends keyof P>(
  params: z.ZodMiniType<P>,
  key: K,
  read: (tenant: Tenant, id: P[K]) => Promise<unknown>,
) =>
  operation<undefined, undefined, P>({
    params,
    handle: async (request) => ok(await read(request.tenant, request.params[key])),
  });

/** An operation on the body alone: what `act` makes of it in the caller's tenant, answered `status`. */
const bodyOperation =
  (status: 200 | 201) =>
  <B>(body: z.ZodMiniType<B>, act: (tenant: Tenant, body: B, now: Date) => Promise<unknown>) =>
    operation<B, undefined, undefined>({
      body,
      handle: async (request) => ({ status, body: await act(request.tenant, request.body, request.now) }),
    });

/** `POST /<resources>`: the service's new resource in the caller's tenant, 201. */
export const createOperation = bodyOperation(201);

/** `POST /<resources>/<action>`: what the service answers for the body in the caller's tenant, 200. */
export const actionOperation = bodyOperation(200);
