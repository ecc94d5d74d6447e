// AWS calls by command, counted as they leave the process: every SDK client sends over node:http, whose
// diagnostics channel sees each request and its X-Amz-Target (DynamoDB_20120810.GetItem,
// AmazonSQS.ReceiveMessage, secretsmanager.GetSecretValue…). A request without one (the Lambda API, and the
// ledger's Horizon API, which the Stellar SDK reaches through fetch: undici's channel) is counted by its
// method and first path segment. bench/function-host.mjs counts the
// same way inside each hosted function.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

export type CallCounts = Record<string, number>;

/** `DynamoDB_20120810.GetItem` → `DynamoDB.GetItem`; no target → `POST /transactions`. */
export function callName(request: ClientRequest): string {
  const target = request.getHeader('x-amz-target');
  if (typeof target === 'string') return target.replace(/_\d{8}\./, '.').replace(/^AmazonSQS\./, 'SQS.');
  return `${request.method} /${request.path.split(/[/?]/)[1] ?? ''}`;
}

/** A fetch (undici) request, the Stellar SDK's Horizon calls: by method and first path segment. */
export const fetchCallName = (request: { method: string; path: string }): string =>
  `${request.method} /${request.path.split(/[/?]/)[1] ?? ''}`;

/** Counts this process's outgoing HTTP calls (node:http and fetch) by name until stopped. */
export function countCalls(): { counts: CallCounts; stop(): void } {
  const counts: CallCounts = {};
  const count = (name: string) => {
    counts[name] = (counts[name] ?? 0) + 1;
  };
  const onRequest = (message: unknown) => count(callName((message as { request: ClientRequest }).request));
  const onFetch = (message: unknown) =>
    count(fetchCallName((message as { request: { method: string; path: string } }).request));
  subscribe('http.client.request.start', onRequest);
  subscribe('undici:request:create', onFetch);
  return {
    counts,
    stop: () => {
      unsubscribe('http.client.request.start', onRequest);
      unsubscribe('undici:request:create', onFetch);
    },
  };
}

/** The sum of several counts. */
export function addCounts(into: CallCounts, from: CallCounts | undefined): CallCounts {
  for (const [name, n] of Object.entries(from ?? {})) into[name] = (into[name] ?? 0) + n;
  return into;
}
