// The AWS SDK's clients are given no logger (their default logs nothing), yet each client's logger
// middleware builds a redacted copy of every request and answer for it (the schemas' sensitive-field
// filter over the whole item): about 3 % of a DynamoDB call's CPU in the ledger-submitter's profile (issue
// #40). Our own lines say what was called; the SDK's would say nothing more.
interface WithMiddlewareStack {
  middlewareStack: { remove(name: string): boolean };
}

/** The client, its logger middleware removed. */
export function withoutSdkLogging<C extends WithMiddlewareStack>(client: C): C {
  client.middlewareStack.remove('loggerMiddleware');
  return client;
}
