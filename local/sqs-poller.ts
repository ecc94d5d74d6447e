// A local stand-in for Lambda's SQS event source mapping: receive, invoke the worker with an SQSEvent
// per batch (up to its maximum concurrency at once), delete what succeeded. Retries and dead-lettering are left to the queue itself (visibility
// timeout and redrive policy), exactly as in AWS, so local runs exercise the same failure paths.
import { randomUUID } from 'node:crypto';
import {
  DeleteMessageBatchCommand,
  type Message,
  type MessageAttributeValue,
  ReceiveMessageCommand,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import type {
  Context,
  SQSBatchResponse,
  SQSEvent,
  SQSMessageAttributes,
  SQSRecord,
  SQSRecordAttributes,
} from 'aws-lambda';
import { invokeIsolated } from './invocation.ts';

// biome-ignore lint/suspicious/noConfusingVoidType: mirrors aws-lambda's SQSHandler, whose workers may return nothing.
export type SqsBatchResult = SQSBatchResponse | void;
export type SqsBatchHandler = (event: SQSEvent, context: Context) => Promise<SqsBatchResult>;

/** Satisfied by both `console` and the Powertools logger in lib/log.ts. */
export interface PollerLogger {
  warn(message: string, attributes: Record<string, unknown>): void;
  error(message: string, attributes: Record<string, unknown>): void;
}

export interface PollerOptions {
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  /** 1–10 records an invocation (no batching window). */
  batchSize: number;
  /** Invocations at once, as the event source's maximum concurrency runs them; one receive loop feeds them. Default 1. */
  concurrency?: number;
  handler: SqsBatchHandler;
  /** Long-poll wait; 20 s (the SQS maximum) unless a test wants a faster loop. */
  waitTimeSeconds?: number;
  /** Named in the Lambda context; defaults to the queue name. */
  functionName?: string;
  /** What the context's getRemainingTimeInMillis counts down from; not enforced. */
  timeoutSeconds?: number;
  logger?: PollerLogger;
  /**
   * Told of each invocation that failed messages: how many, of how many, and the error if it threw
   * (instead of the logger, for a worker that threw).
   */
  onFailure?: (failed: number, of: number, error?: unknown) => void;
}

export interface Poller {
  /** Stops receiving, lets batches already handed to the worker finish, and resolves once they have. */
  stop(): Promise<void>;
}

const receiveErrorBackoffMs = 1000;

export function startPoller(options: PollerOptions): Poller {
  if (!Number.isInteger(options.batchSize) || options.batchSize < 1 || options.batchSize > 10) {
    throw new RangeError(`batchSize must be 1–10 (one ReceiveMessage), got ${options.batchSize}`);
  }
  const stopping = new AbortController();
  const loop = pollUntilStopped(options, stopping.signal);
  return {
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}

/**
 * One receive loop per queue handing batches to up to `concurrency` invocations at once, as Lambda's
 * event source does. One long poll per free slot would multiply receives: the emulator wakes every
 * waiting receiver for each message, so 16 pollers made ~15 empty receives a message.
 */
async function pollUntilStopped(options: PollerOptions, stopping: AbortSignal): Promise<void> {
  const logger = options.logger ?? console;
  const concurrency = options.concurrency ?? 1;
  const running = new Set<Promise<void>>();
  while (!stopping.aborted) {
    if (running.size >= concurrency) {
      await Promise.race(running);
      continue;
    }
    let messages: Message[];
    try {
      // No more than the free invocations can take at once: a received message never waits for a slot
      // (its visibility timeout would run while it did).
      messages = await receive(options, stopping, (concurrency - running.size) * options.batchSize);
    } catch (error) {
      if (stopping.aborted) break;
      logger.error('receive failed; retrying', { queueUrl: options.queueUrl, error });
      await pause(receiveErrorBackoffMs, stopping);
      continue;
    }
    // Not abortable from here on: the messages are in flight, and finishing their batches (handler and
    // deletes) is what Lambda does too; abandoning them would only delay them by a visibility timeout.
    for (let start = 0; start < messages.length; start += options.batchSize) {
      const invocation: Promise<void> = invoke(
        options,
        messages.slice(start, start + options.batchSize),
        logger,
      ).finally(() => running.delete(invocation));
      running.add(invocation);
    }
  }
  await Promise.all(running);
}

async function receive(options: PollerOptions, stopping: AbortSignal, room: number): Promise<Message[]> {
  const { Messages } = await options.sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: options.queueUrl,
      MaxNumberOfMessages: Math.min(10, room),
      WaitTimeSeconds: options.waitTimeSeconds ?? 20,
      MessageSystemAttributeNames: ['All'],
      MessageAttributeNames: ['All'],
    }),
    { abortSignal: stopping },
  );
  return Messages ?? [];
}

async function invoke(options: PollerOptions, messages: Message[], logger: PollerLogger): Promise<void> {
  const records = messages.map((message) => toRecord(message, options.queueArn));
  let result: SqsBatchResult;
  try {
    result = await invokeIsolated(options.handler, { Records: records }, lambdaContext(options));
  } catch (error) {
    // Told to onFailure (the traffic log's one line) when given, else logged with its stack.
    if (options.onFailure) options.onFailure(records.length, records.length, error);
    else
      logger.error('worker threw; the whole batch returns after its visibility timeout', {
        queueArn: options.queueArn,
        error,
      });
    return;
  }
  const succeeded = recordsToDelete(records, result);
  if (succeeded === undefined) {
    logger.error('worker returned an invalid batch response; treating the batch as failed', {
      queueArn: options.queueArn,
      response: result,
    });
    options.onFailure?.(records.length, records.length);
    return;
  }
  if (succeeded.length < records.length)
    options.onFailure?.(records.length - succeeded.length, records.length);
  await deleteRecords(options, succeeded, logger);
}

/**
 * The records to delete, by Lambda's partial-batch rules: no response or no failures means all succeeded;
 * an itemIdentifier that is empty or names no record in the batch makes the whole batch a failure
 * (undefined here).
 */
export function recordsToDelete(records: SQSRecord[], result: unknown): SQSRecord[] | undefined {
  if (result === undefined || result === null) return records;
  if (typeof result !== 'object') return undefined;
  const failures = (result as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return records;
  if (!Array.isArray(failures)) return undefined;
  const inBatch = new Set(records.map((record) => record.messageId));
  const failed = new Set<string>();
  for (const failure of failures) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    if (typeof id !== 'string' || !inBatch.has(id)) return undefined;
    failed.add(id);
  }
  return records.filter((record) => !failed.has(record.messageId));
}

async function deleteRecords(
  options: PollerOptions,
  records: SQSRecord[],
  logger: PollerLogger,
): Promise<void> {
  if (records.length === 0) return;
  try {
    const { Failed } = await options.sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: options.queueUrl,
        // Positional ids: entry ids have a stricter alphabet than message ids are guaranteed to.
        Entries: records.map((record, index) => ({ Id: String(index), ReceiptHandle: record.receiptHandle })),
      }),
    );
    if (Failed && Failed.length > 0) {
      logger.warn('could not delete handled messages; they will be redelivered', {
        queueUrl: options.queueUrl,
        failed: Failed,
      });
    }
  } catch (error) {
    logger.warn('could not delete handled messages; they will be redelivered', {
      queueUrl: options.queueUrl,
      error,
    });
  }
}

/** A received message as Lambda's SQS event source hands it to a function. */
export function toRecord(message: Message, queueArn: string): SQSRecord {
  const attributes = message.Attributes ?? {};
  const record: SQSRecord = {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes: {
      ...attributes,
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '',
      SentTimestamp: attributes.SentTimestamp ?? '',
      SenderId: attributes.SenderId ?? '',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? '',
    } satisfies SQSRecordAttributes,
    messageAttributes: toLambdaMessageAttributes(message.MessageAttributes ?? {}),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion: arnPart(queueArn, 3),
  };
  if (message.MD5OfMessageAttributes) record.md5OfMessageAttributes = message.MD5OfMessageAttributes;
  return record;
}

// Lambda renames the SDK's PascalCase members, always includes the (reserved, empty) list values and
// carries binary values as base64 strings.
function toLambdaMessageAttributes(attributes: Record<string, MessageAttributeValue>): SQSMessageAttributes {
  const converted: SQSMessageAttributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    converted[name] = {
      ...(value.StringValue !== undefined && { stringValue: value.StringValue }),
      ...(value.BinaryValue !== undefined && {
        binaryValue: Buffer.from(value.BinaryValue).toString('base64'),
      }),
      stringListValues: value.StringListValues ?? [],
      binaryListValues: (value.BinaryListValues ?? []).map((item) => Buffer.from(item).toString('base64')),
      dataType: value.DataType ?? 'String',
    };
  }
  return converted;
}

function lambdaContext(options: PollerOptions): Context {
  const functionName = options.functionName ?? arnPart(options.queueArn, 5);
  const region = arnPart(options.queueArn, 3);
  const account = arnPart(options.queueArn, 4);
  const deadline = Date.now() + (options.timeoutSeconds ?? 30) * 1000;
  const callbackStyle = () => {
    throw new Error('callback-style completion is not supported; return a promise');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${region}:${account}:function:${functionName}`,
    memoryLimitInMB: '128',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `local/${functionName}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: callbackStyle,
    fail: callbackStyle,
    succeed: callbackStyle,
  };
}

/** arn:partition:service:region:account:resource */
function arnPart(arn: string, index: number): string {
  return arn.split(':')[index] ?? '';
}

/** Waits, but wakes early when stopping so stop() stays prompt. */
export function pause(ms: number, stopping: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    stopping.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      stopping.removeEventListener('abort', done);
      resolve();
    }
  });
}
