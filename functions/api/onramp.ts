// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { onrampOperations } from '../../lib/operations/onramp.ts';

export const handler = apiFunction('onramp', onrampOperations);
