// What each call of the table costs, as DynamoDB itself counts it (ConsumedCapacity: read and write
// units, the table's and each index's apart), published on a diagnostics channel for whoever listens:
// the bench's cost per payment (bench/aws-calls.ts). Every read and write of lib/db goes through the one
// client (client.ts), so this is the one place that asks. Nobody listening (a deployed function), no call
// asks for it: the requests are byte for byte what they were.
import { channel } from 'node:diagnostics_channel';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** One call's units: `table` and each index by name, as read or write units by the command's kind. */
export interface ConsumedUnits {
  /** The operation: GetItem, PutItem, UpdateItem, Query, BatchGetItem, BatchWriteItem, TransactWriteItems... */
  command: string;
  kind: 'read' | 'write';
  table: number;
  indexes: Record<string, number>;
  /**
   * A conditional write whose condition failed: DynamoDB charges it (at least one unit, by the item's
   * size) but answers no ConsumedCapacity, so it is published as one unit of the table's.
   */
  conditionFailed?: true;
}

/** The channel `ConsumedUnits` are published on. */
export const CONSUMED_CAPACITY_CHANNEL = 'payments-gateway:dynamodb:consumed-capacity';
const published = channel(CONSUMED_CAPACITY_CHANNEL);

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);

interface Capacity {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
}
interface ConsumedCapacity extends Capacity {
  Table?: Capacity;
  GlobalSecondaryIndexes?: Record<string, Capacity>;
  LocalSecondaryIndexes?: Record<string, Capacity>;
}

const unitsOf = (capacity: Capacity | undefined, kind: ConsumedUnits['kind']) =>
  (kind === 'read' ? capacity?.ReadCapacityUnits : capacity?.WriteCapacityUnits) ??
  capacity?.CapacityUnits ??
  0;

/** The units of one answer (a batch's or a transaction's is a list, one entry per table). */
export function consumedUnits(
  command: string,
  consumed: ConsumedCapacity | ConsumedCapacity[] | undefined,
): ConsumedUnits | undefined {
  if (!consumed) return undefined;
  const kind = READS.has(command) ? 'read' : 'write';
  const units: ConsumedUnits = { command, kind, table: 0, indexes: {} };
  for (const entry of Array.isArray(consumed) ? consumed : [consumed]) {
    const indexes = { ...entry.GlobalSecondaryIndexes, ...entry.LocalSecondaryIndexes };
    const onIndexes = Object.values(indexes).reduce((sum, c) => sum + unitsOf(c, kind), 0);
    // Without the per-table split (TOTAL), the whole is the table's.
    units.table += entry.Table ? unitsOf(entry.Table, kind) : unitsOf(entry, kind) - onIndexes;
    for (const [name, capacity] of Object.entries(indexes))
      units.indexes[name] = (units.indexes[name] ?? 0) + unitsOf(capacity, kind);
  }
  return units;
}

/**
 * Asks every call of `client` for its consumed capacity (INDEXES: the table's and each index's) while
 * someone listens on the channel, and publishes what DynamoDB answered.
 */
export function reportConsumedCapacity(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (!published.hasSubscribers) return next(args);
      const command = String(context.commandName ?? '').replace(/Command$/, '');
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity ??= 'INDEXES';
      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next(args);
      } catch (error) {
        if ((error as Error).name === 'ConditionalCheckFailedException')
          published.publish({ command, kind: 'write', table: 1, indexes: {}, conditionFailed: true });
        throw error;
      }
      const units = consumedUnits(
        command,
        (result.output as { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }).ConsumedCapacity,
      );
      if (units) published.publish(units);
      return result;
    },
    { step: 'initialize', name: 'reportConsumedCapacity' },
  );
}
