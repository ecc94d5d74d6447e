// A local stand-in for Lambda's DynamoDB stream event source mapping: read every shard of the table's
// stream from DynamoDB Local (which serves the Streams API on its own port), hand each batch to the
// function as a DynamoDBStreamEvent, and move on only past what succeeded. As in AWS: a partial batch
// response restarts the shard at the first failed record (the records after it come again too); a
// thrown error or an invalid response restarts it at the batch's first record; after `retryAttempts`
// the batch is skipped (Lambda would send its description to the on-failure destination: here it is
// logged as an error). Shards are read in parallel, a child only after its parent is read to its end.
// Like the event source, it reads ahead (up to 1000 records a call), drops what the filter refuses
// (infra's FilterCriteria: those never reach the function, and count as handled), invokes batches of
// `batchSize`, and pauses only when a round found nothing, so a backlog drains at once.
import type { _Record, AttributeValue as SdkAttributeValue } from '@aws-sdk/client-dynamodb-streams';
import {
  DescribeStreamCommand,
  type DynamoDBStreamsClient,
  GetRecordsCommand,
  GetShardIteratorCommand,
  type Shard,
} from '@aws-sdk/client-dynamodb-streams';
import type { AttributeValue, Context, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { invokeIsolated } from './invocation.ts';
import { lambdaContext } from './lambda-event.ts';
import { type PollerLogger, pause } from './sqs-poller.ts';

// biome-ignore lint/suspicious/noConfusingVoidType: mirrors aws-lambda's DynamoDBStreamHandler, which may return nothing.
export type StreamBatchResult = { batchItemFailures?: { itemIdentifier?: string }[] } | void;
export type StreamBatchHandler = (event: DynamoDBStreamEvent, context: Context) => Promise<StreamBatchResult>;

export interface StreamPollerOptions {
  streams: DynamoDBStreamsClient;
  streamArn: string;
  /** Records per invocation at most. */
  batchSize: number;
  /** Which records reach the function (the event source's filter); all when absent. */
  filter?: (record: DynamoDBRecord) => boolean;
  /** Told of every record read, before the filter (read again after a failed batch, told again). */
  observe?: (records: DynamoDBRecord[]) => void;
  handler: StreamBatchHandler;
  functionName: string;
  /** Where a new mapping starts in the shards open at its start; shards that appear later start at their beginning. */
  startingPosition: 'TRIM_HORIZON' | 'LATEST';
  /** Retries of a failing batch before it is skipped (the event source's retryAttempts). */
  retryAttempts: number;
  /** Pause after a round over the shards that found no record. */
  intervalMs?: number;
  logger?: PollerLogger;
}

export interface StreamPoller {
  /** Resolves once the shards open at the start have their positions (a LATEST start reads what is written after). */
  started: Promise<void>;
  /** Stops reading, lets a batch already handed to the function finish, and resolves once the loop exits. */
  stop(): Promise<void>;
}

interface ShardState {
  shard: Shard;
  /** Where the next GetRecords reads; undefined once the shard is closed and read to its end. */
  iterator: string | undefined;
  /** Failed invocations of the batch at this position in a row. */
  attempts: number;
}

const DEFAULT_INTERVAL_MS = 150;
/** GetRecords' maximum. */
const READ_AHEAD = 1000;
const errorBackoffMs = 1000;

export function startStreamPoller(options: StreamPollerOptions): StreamPoller {
  const stopping = new AbortController();
  const started = Promise.withResolvers<void>();
  const loop = pollUntilStopped(options, stopping.signal, started.resolve);
  return {
    started: started.promise,
    async stop() {
      stopping.abort();
      await loop;
    },
  };
}

async function pollUntilStopped(
  options: StreamPollerOptions,
  stopping: AbortSignal,
  onStarted: () => void,
): Promise<void> {
  const logger = options.logger ?? console;
  const shards = new Map<string, ShardState>();
  let first = true;
  while (!stopping.aborted) {
    try {
      await discoverShards(options, shards, first ? options.startingPosition : 'TRIM_HORIZON', stopping);
      if (first) onStarted();
      first = false;
      const readable = [...shards.values()].filter(
        (state) => state.iterator !== undefined && parentDone(state, shards),
      );
      // Not abortable once records are read: finishing the batch is what Lambda does too.
      const found = await Promise.all(readable.map((state) => readShard(options, state, logger)));
      if (found.some(Boolean)) continue;
    } catch (error) {
      if (stopping.aborted) break;
      logger.error('stream read failed; retrying', { streamArn: options.streamArn, error });
      await pause(errorBackoffMs, stopping);
      continue;
    }
    await pause(options.intervalMs ?? DEFAULT_INTERVAL_MS, stopping);
  }
}

/** Adds the shards not seen yet, each with an iterator at `position` (closed ones found at a LATEST start are skipped). */
async function discoverShards(
  options: StreamPollerOptions,
  shards: Map<string, ShardState>,
  position: 'TRIM_HORIZON' | 'LATEST',
  stopping: AbortSignal,
): Promise<void> {
  let exclusiveStartShardId: string | undefined;
  do {
    const { StreamDescription } = await options.streams.send(
      new DescribeStreamCommand({
        StreamArn: options.streamArn,
        ExclusiveStartShardId: exclusiveStartShardId,
      }),
      { abortSignal: stopping },
    );
    for (const shard of StreamDescription?.Shards ?? []) {
      const shardId = shard.ShardId;
      if (!shardId || shards.has(shardId)) continue;
      const closed = shard.SequenceNumberRange?.EndingSequenceNumber !== undefined;
      if (position === 'LATEST' && closed) {
        shards.set(shardId, { shard, iterator: undefined, attempts: 0 });
        continue;
      }
      shards.set(shardId, { shard, iterator: await iteratorAt(options, shardId, position), attempts: 0 });
    }
    exclusiveStartShardId = StreamDescription?.LastEvaluatedShardId;
  } while (exclusiveStartShardId);
}

/** A child shard's records follow its parent's: read it only once the parent is read to its end (or unknown, i.e. trimmed). */
function parentDone(state: ShardState, shards: Map<string, ShardState>): boolean {
  const parentId = state.shard.ParentShardId;
  const parent = parentId ? shards.get(parentId) : undefined;
  return parent === undefined || parent.iterator === undefined;
}

async function iteratorAt(
  options: StreamPollerOptions,
  shardId: string,
  type: 'TRIM_HORIZON' | 'LATEST' | 'AT_SEQUENCE_NUMBER',
  sequenceNumber?: string,
): Promise<string | undefined> {
  const { ShardIterator } = await options.streams.send(
    new GetShardIteratorCommand({
      StreamArn: options.streamArn,
      ShardId: shardId,
      ShardIteratorType: type,
      SequenceNumber: sequenceNumber,
    }),
  );
  return ShardIterator;
}

/**
 * One GetRecords on one shard, and an invocation per batch of the records the filter lets through, in
 * order; a failed batch puts the shard back at its first failed record. Whether to read on at once
 * (records came, all handled).
 */
async function readShard(
  options: StreamPollerOptions,
  state: ShardState,
  logger: PollerLogger,
): Promise<boolean> {
  const { Records = [], NextShardIterator } = await options.streams.send(
    new GetRecordsCommand({ ShardIterator: state.iterator, Limit: READ_AHEAD }),
  );
  const read = Records.map((record) => toLambdaRecord(record, options.streamArn));
  options.observe?.(read);
  const records = read.filter((record) => options.filter?.(record) ?? true);
  for (let start = 0; start < records.length; start += options.batchSize) {
    const batch = records.slice(start, start + options.batchSize);
    const retryFrom = await invoke(options, batch, logger);
    if (retryFrom === undefined) {
      state.attempts = 0;
      continue;
    }
    state.attempts += 1;
    const shardId = state.shard.ShardId as string;
    if (state.attempts <= options.retryAttempts) {
      state.iterator = await iteratorAt(options, shardId, 'AT_SEQUENCE_NUMBER', retryFrom);
      // Retried after the pause, not at once: a failing queue gets a moment before the next attempt.
      return false;
    }
    logger.error('stream batch failed every retry; skipped (in AWS: its on-failure destination)', {
      streamArn: options.streamArn,
      shardId,
      sequenceNumbers: batch.map((record) => record.dynamodb?.SequenceNumber),
    });
    state.attempts = 0;
  }
  state.iterator = NextShardIterator;
  return Records.length > 0;
}

/** Invokes the function; the sequence number to read again from, or undefined when the whole batch succeeded. */
async function invoke(
  options: StreamPollerOptions,
  records: DynamoDBRecord[],
  logger: PollerLogger,
): Promise<string | undefined> {
  const firstSequenceNumber = records[0]?.dynamodb?.SequenceNumber;
  let result: StreamBatchResult;
  try {
    result = await invokeIsolated(options.handler, { Records: records }, lambdaContext(options.functionName));
  } catch (error) {
    logger.error('stream function threw; the whole batch is read again', {
      streamArn: options.streamArn,
      error,
    });
    return firstSequenceNumber;
  }
  const failed = firstFailure(records, result);
  if (failed === null) {
    logger.error('stream function returned an invalid batch response; the whole batch is read again', {
      streamArn: options.streamArn,
      response: result,
    });
    return firstSequenceNumber;
  }
  return failed;
}

/**
 * By Lambda's partial-batch rules for streams: the first record (in stream order) the response names, or
 * undefined when it names none; null when an identifier is empty or names no record of the batch.
 */
export function firstFailure(records: DynamoDBRecord[], result: unknown): string | undefined | null {
  if (result === undefined || result === null) return undefined;
  if (typeof result !== 'object') return null;
  const failures = (result as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return undefined;
  if (!Array.isArray(failures)) return null;
  const order = records.map((record) => record.dynamodb?.SequenceNumber);
  let first: number | undefined;
  for (const failure of failures) {
    const id = (failure as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    const index = typeof id === 'string' && id !== '' ? order.indexOf(id) : -1;
    if (index < 0) return null;
    first = first === undefined ? index : Math.min(first, index);
  }
  return first === undefined ? undefined : order[first];
}

function toLambdaRecord(record: _Record, streamArn: string): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? streamArn.split(':')[3],
    eventSourceARN: streamArn,
    dynamodb: {
      // Lambda gives epoch seconds; the SDK a Date.
      ...(stream.ApproximateCreationDateTime && {
        ApproximateCreationDateTime: Math.floor(stream.ApproximateCreationDateTime.getTime() / 1000),
      }),
      ...(stream.Keys && { Keys: toLambdaImage(stream.Keys) }),
      ...(stream.NewImage && { NewImage: toLambdaImage(stream.NewImage) }),
      ...(stream.OldImage && { OldImage: toLambdaImage(stream.OldImage) }),
      SequenceNumber: stream.SequenceNumber,
      SizeBytes: stream.SizeBytes,
      StreamViewType: stream.StreamViewType,
    },
  };
}

const toLambdaImage = (image: Record<string, SdkAttributeValue>): Record<string, AttributeValue> =>
  Object.fromEntries(Object.entries(image).map(([name, value]) => [name, toLambdaValue(value)]));

// The event is JSON: binary values travel as base64 (the SDK hands them over as bytes).
function toLambdaValue(value: SdkAttributeValue): AttributeValue {
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.L !== undefined) return { L: value.L.map(toLambdaValue) };
  if (value.M !== undefined) return { M: toLambdaImage(value.M) };
  return value as AttributeValue;
}
