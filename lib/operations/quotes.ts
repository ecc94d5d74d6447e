import { operation } from '../http/api-function.ts';
import { createQuoteBody, createQuoteQuery } from '../quotes/schema.ts';
import { createQuote } from '../quotes/service.ts';

/** The operations of functions/api/quotes.ts, by the operation names of lib/routes.ts. */
export const quotesOperations = {
  createQuote: operation({
    body: createQuoteBody,
    query: createQuoteQuery,
    handle: async ({ tenant, body, query, now }) => ({
      status: 201,
      body: await createQuote(tenant, query.type ?? 'offramp', body, now),
    }),
  }),
};
