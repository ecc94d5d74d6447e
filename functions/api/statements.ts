// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { statementsOperations } from '../../lib/operations/statements.ts';

export const handler = apiFunction('statements', statementsOperations);
