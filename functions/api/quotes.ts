import { apiFunction, operation } from '../../lib/api.ts';
import { createQuoteBody, createQuoteQuery } from '../../lib/quotes/schema.ts';
import { createQuote } from '../../lib/quotes/service.ts';

export const handler = apiFunction('quotes', {
  createQuote: operation({
    body: createQuoteBody,
    query: createQuoteQuery,
    handle: async ({ tenant, body, query, now }) => ({
      status: 201,
      body: await createQuote(tenant, query.type ?? 'offramp', body, now),
    }),
  }),
});
