// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { customersOperations } from '../../lib/operations/customers.ts';

export const handler = apiFunction('customers', customersOperations);
