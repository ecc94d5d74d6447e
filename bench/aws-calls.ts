// AWS calls by command, counted as they leave the process: every SDK client sends over node:http, whose
// diagnostics channel sees each request and its X-Amz-Target (DynamoDB_20120810.GetItem,
// AmazonSQS.ReceiveMessage, secretsmanager.GetSecretValue…). A request without one (the Lambda API, and the
// ledger's Horizon API, over node:http too; fetch, undici's channel, where anything still uses it) is counted by its
// method and first path segment. bench/function-host.mjs counts the
// same way inside each hosted function.
//
// With `byFunction`, each call is also counted under the function whose invocation made it (the local stack
// runs every function in one process, each invocation in a context of its own: local/invocation.ts),
// and the DynamoDB units each call consumed (lib/db/consumed-capacity.ts) are summed the same way.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { CONSUMED_CAPACITY_CHANNEL, type ConsumedUnits } from '../lib/db/consumed-capacity.ts';

export type CallCounts = Record<string, number>;

/** DynamoDB units, read and write, the table's and each index's apart (`table`, `gsi1`, `list1`…). */
export interface UnitCounts {
  read: Record<string, number>;
  write: Record<string, number>;
  /** Write units by operation (PutItem, UpdateItem…), table and indexes together. */
  writeByCommand: Record<string, number>;
  /** Conditional writes whose condition failed (DynamoDB charges them without saying how much: 1 each). */
  conditionFailed: number;
}

export const noUnits = (): UnitCounts => ({ read: {}, write: {}, writeByCommand: {}, conditionFailed: 0 });

const add = (into: Record<string, number>, name: string, n: number) => {
  into[name] = (into[name] ?? 0) + n;
};

/** Adds one call's units. */
export function addUnits(into: UnitCounts, units: ConsumedUnits): void {
  const side = into[units.kind];
  add(side, 'table', units.table);
  for (const [index, n] of Object.entries(units.indexes)) add(side, index, n);
  if (units.kind === 'write')
    add(
      into.writeByCommand,
      units.command,
      units.table + Object.values(units.indexes).reduce((a, b) => a + b, 0),
    );
  if (units.conditionFailed) into.conditionFailed += 1;
}

/** All of one side's units (the table's and every index's). */
export const totalOf = (side: Record<string, number>): number =>
  Object.values(side).reduce((sum, n) => sum + n, 0);

/** `DynamoDB_20120810.GetItem` → `DynamoDB.GetItem`; no target → `POST /transactions`. */
export function callName(request: ClientRequest): string {
  const target = request.getHeader('x-amz-target');
  if (typeof target === 'string') return target.replace(/_\d{8}\./, '.').replace(/^AmazonSQS\./, 'SQS.');
  return `${request.method} /${request.path.split(/[/?]/)[1] ?? ''}`;
}

/** A fetch (undici) request, the Stellar SDK's Horizon calls: by method and first path segment. */
export const fetchCallName = (request: { method: string; path: string }): string =>
  `${request.method} /${request.path.split(/[/?]/)[1] ?? ''}`;

/** One function's share of a tally: its calls, their units, its invocations and their wall time. */
export interface FunctionTally {
  counts: CallCounts;
  units: UnitCounts;
  invocations: number;
  invocationMs: number;
}

/** What `countCalls` counted: in all, and by the function that made each call (`functionOf`). */
export interface CallTally {
  counts: CallCounts;
  units: UnitCounts;
  functions: Record<string, FunctionTally>;
}

export interface CountOptions {
  /** The function whose invocation runs the current code (local/invocation.ts invokedFunction). */
  functionOf?: () => string | undefined;
  /** The channel each invocation's `{ functionName, ms }` is published on (local/invocation.ts). */
  invocationChannel?: string;
}

/**
 * Counts this process's outgoing HTTP calls (node:http and fetch) by name, and the DynamoDB units they
 * consumed, until stopped; with `functionOf`, by function too, with each function's invocations.
 */
export function countCalls({
  functionOf = () => undefined,
  invocationChannel,
}: CountOptions = {}): CallTally & {
  stop(): void;
} {
  const tally: CallTally = { counts: {}, units: noUnits(), functions: {} };
  const ofFunction = (name = functionOf() ?? OUTSIDE) => {
    tally.functions[name] ??= { counts: {}, units: noUnits(), invocations: 0, invocationMs: 0 };
    return tally.functions[name];
  };
  const onInvocation = (message: unknown) => {
    const { functionName, ms } = message as { functionName: string; ms: number };
    const of = ofFunction(functionName);
    of.invocations += 1;
    of.invocationMs += ms;
  };
  const count = (name: string) => {
    add(tally.counts, name, 1);
    add(ofFunction().counts, name, 1);
  };
  const onRequest = (message: unknown) => count(callName((message as { request: ClientRequest }).request));
  const onFetch = (message: unknown) =>
    count(fetchCallName((message as { request: { method: string; path: string } }).request));
  const onUnits = (message: unknown) => {
    addUnits(tally.units, message as ConsumedUnits);
    addUnits(ofFunction().units, message as ConsumedUnits);
  };
  subscribe('http.client.request.start', onRequest);
  subscribe('undici:request:create', onFetch);
  subscribe(CONSUMED_CAPACITY_CHANNEL, onUnits);
  if (invocationChannel) subscribe(invocationChannel, onInvocation);
  return {
    ...tally,
    stop: () => {
      unsubscribe('http.client.request.start', onRequest);
      unsubscribe('undici:request:create', onFetch);
      unsubscribe(CONSUMED_CAPACITY_CHANNEL, onUnits);
      if (invocationChannel) unsubscribe(invocationChannel, onInvocation);
    },
  };
}

/** The calls made outside any invocation: the stack's SQS pollers and stream poller (Lambda's event sources in AWS), and the bench. */
export const OUTSIDE = 'event sources';

/** The sum of several counts. */
export function addCounts(into: CallCounts, from: CallCounts | undefined): CallCounts {
  for (const [name, n] of Object.entries(from ?? {})) into[name] = (into[name] ?? 0) + n;
  return into;
}

/**
 * The calls `db` sends from now on, by name as `countCalls` names them: the bench's own reads, which a
 * count of what the stack did takes off.
 */
export function countedSends(db: DynamoDBDocumentClient): CallCounts {
  const sent: CallCounts = {};
  db.middlewareStack.add(
    (next, context) => (args) => {
      add(sent, `DynamoDB.${(context.commandName ?? '').replace(/Command$/, '')}`, 1);
      return next(args);
    },
    { step: 'initialize', name: 'countedSends' },
  );
  return sent;
}
