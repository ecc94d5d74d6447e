// The DynamoDB requests a test's own process sends while some work runs, by operation (the X-Amz-Target
// without its API version), counted as they leave the process: what a change that saves a call holds to.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

export async function dynamoDbCallsDuring(work: () => Promise<unknown>): Promise<Record<string, number>> {
  const calls: Record<string, number> = {};
  const onRequest = (message: unknown) => {
    const target = (message as { request: ClientRequest }).request.getHeader('x-amz-target');
    if (typeof target !== 'string' || !target.startsWith('DynamoDB_')) return;
    const operation = target.slice(target.indexOf('.') + 1);
    calls[operation] = (calls[operation] ?? 0) + 1;
  };
  subscribe('http.client.request.start', onRequest);
  try {
    await work();
  } finally {
    unsubscribe('http.client.request.start', onRequest);
  }
  return calls;
}
