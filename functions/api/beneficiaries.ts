// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { beneficiariesOperations } from '../../lib/operations/beneficiaries.ts';

export const handler = apiFunction('beneficiaries', beneficiariesOperations);
