// Lambda entry point: the operations of lib/operations on the shared Middy chain.
import { apiFunction } from '../../lib/api.ts';
import { quotesOperations } from '../../lib/operations/quotes.ts';

export const handler = apiFunction('quotes', quotesOperations);
