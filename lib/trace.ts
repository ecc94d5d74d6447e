// X-Ray annotations without the X-Ray SDK (docs/decisions/observability.md). With active tracing, Lambda
// opens a segment per invocation and hands its trace header to the function in `_X_AMZN_TRACE_ID`; the AWS
// SDK already forwards that header on every call it makes (its recursion-detection middleware), so a
// payment's trace follows it into DynamoDB, SQS and the functions its messages reach. What Lambda's segment
// cannot carry is our ids: for those a unit of work (an API operation, one queue or stream message) is a
// subsegment of it, annotated with the record and the request it serves, and sent on its end as one UDP
// datagram to the X-Ray daemon, the same document the Powertools Tracer sends. Powertools' Tracer bundles the
// X-Ray SDK (124 KiB minified), which would take the API functions past their cold-start target
// (docs/bench.md); this is node:dgram and a JSON line.
//
// Outside Lambda, or when the invocation is not sampled, nothing is sent and `annotate` is a no-op.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';

/** What a trace can be searched by (X-Ray annotation names: letters, digits, underscores). */
export interface TraceKeys {
  transactionRecordId?: string | undefined;
  requestId?: string | undefined;
}

interface Subsegment {
  traceId: string;
  parentId: string;
  name: string;
  startTime: number;
  annotations: Record<string, string>;
}

/** Each unit of work's subsegment: a batch worker handles messages side by side, each annotated apart. */
const current = new AsyncLocalStorage<Subsegment>();

/** The daemon's UDP address: `host:port`, or the `udp:host:port tcp:host:port` form. */
function daemonAddress(): { host: string; port: number } {
  const value = process.env.AWS_XRAY_DAEMON_ADDRESS ?? '127.0.0.1:2000';
  const udp = value.split(' ').find((part) => !part.startsWith('tcp:')) ?? value;
  const [host = '127.0.0.1', port = '2000'] = udp.replace(/^udp:/, '').split(':');
  return { host, port: Number(port) };
}

/** The invocation's trace (Root, Parent), when Lambda traces it and this invocation is sampled. */
function sampledTrace(): { traceId: string; parentId: string } | undefined {
  const fields = new Map(
    (process.env._X_AMZN_TRACE_ID ?? '').split(';').map((field) => field.split('=') as [string, string]),
  );
  const traceId = fields.get('Root');
  const parentId = fields.get('Parent');
  if (!traceId || !parentId || fields.get('Sampled') !== '1') return undefined;
  return { traceId, parentId };
}

let socket: Socket | undefined;

/** One subsegment to the daemon, awaited: Lambda may freeze the process as soon as the handler returns. */
function send(document: Record<string, unknown>): Promise<void> {
  socket ??= createSocket('udp4').unref();
  const { host, port } = daemonAddress();
  const datagram = `{"format":"json","version":1}\n${JSON.stringify(document)}`;
  // A trace is never worth a failed payment: a datagram that cannot go is dropped.
  return new Promise((resolve) => socket?.send(datagram, port, host, () => resolve()));
}

/** Runs `work` as a subsegment named `name` of the invocation's trace, sent when it ends (thrown or not). */
export async function traced<T>(name: string, work: () => Promise<T>, keys: TraceKeys = {}): Promise<T> {
  const trace = sampledTrace();
  if (!trace) return work();
  const subsegment: Subsegment = { ...trace, name, startTime: Date.now() / 1000, annotations: {} };
  annotateWith(subsegment, keys);
  let failed = false;
  try {
    return await current.run(subsegment, work);
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    await send({
      type: 'subsegment',
      id: randomBytes(8).toString('hex'),
      trace_id: subsegment.traceId,
      parent_id: subsegment.parentId,
      name: subsegment.name,
      start_time: subsegment.startTime,
      end_time: Date.now() / 1000,
      annotations: subsegment.annotations,
      ...(failed ? { fault: true } : {}),
    });
  }
}

const ANNOTATIONS = ['transactionRecordId', 'requestId'] as const;

/** Only the trace keys: callers may hand over a log line's keys whole. */
function annotateWith(subsegment: Subsegment, keys: TraceKeys): void {
  for (const name of ANNOTATIONS) {
    const value = keys[name];
    if (typeof value === 'string') subsegment.annotations[name] = value;
  }
}

/** Annotates the running unit of work's subsegment (none outside `traced`, or untraced: nothing). */
export function annotate(keys: TraceKeys): void {
  const subsegment = current.getStore();
  if (subsegment) annotateWith(subsegment, keys);
}

/** `work` for each item of a batch (a queue message, a stream record), each item a subsegment of its own. */
export const tracedEach =
  <I, T>(name: string, work: (item: I) => Promise<T>) =>
  (item: I): Promise<T> =>
    traced(name, () => work(item));
