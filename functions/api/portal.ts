// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { developersOperations } from '../../lib/operations/developers.ts';
import { portalOperations } from '../../lib/operations/portal.ts';
import { teamOperations } from '../../lib/operations/team.ts';

export const handler = apiFunction('portal', {
  ...portalOperations,
  ...teamOperations,
  ...developersOperations,
});
