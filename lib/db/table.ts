// The one table, described once: infra builds it from this and the local stack creates it from this.
import { PENDING_INDEX } from './keys.ts';

/**
 * The list indexes (docs/decisions/list-indexes.md): overloaded, sparse, each keyed by one list filter's
 * partition and the list's order (lib/db/keys.ts names what each entity writes), so a filtered page reads
 * O(page) items.
 */
const listIndexes = (['list1', 'list2', 'list3', 'list4'] as const).map((indexName) => ({
  indexName,
  partitionKey: `${indexName}pk`,
  sortKey: `${indexName}sk`,
}));

export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes the item some time after (rate-limit windows, expired quotes). */
  timeToLiveAttribute: 'expiresAt',
  /**
   * The table's stream carries every change with both images: it is the outbox (lib/outbox.ts), read by
   * functions/streams/outbox.ts in AWS and by local/stream-poller.ts locally.
   */
  streamViewType: 'NEW_AND_OLD_IMAGES',
  globalSecondaryIndexes: [
    /** Tenant-scoped look-ups by another identifier: its partition key is always the tenant scope. */
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    /** The platform index: look-ups by id alone, for the admin CLI only (lib/db/platform-index.ts). */
    { indexName: 'platform', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    /**
     * Sparse: only records whose outbox work is still owed (a payment `initiated`, a wallet's activation
     * `pending`) carry its keys, by the time they entered that state; the reconciler reads it
     * (lib/outbox-reconciler.ts).
     */
    { indexName: PENDING_INDEX, partitionKey: 'pendingPk', sortKey: 'pendingSk' },
    ...listIndexes,
  ],
} as const;

/** The CreateTable input both the local stack and tests use (infra maps the same fields to CDK). */
export function createTableInput(tableName: string) {
  const { partitionKey, sortKey, globalSecondaryIndexes, streamViewType } = tableDefinition;
  const keyAttributes = [
    partitionKey,
    sortKey,
    ...globalSecondaryIndexes.flatMap((g) => [g.partitionKey, g.sortKey]),
  ];
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: keyAttributes.map((name) => ({ AttributeName: name, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: partitionKey, KeyType: 'HASH' as const },
      { AttributeName: sortKey, KeyType: 'RANGE' as const },
    ],
    StreamSpecification: { StreamEnabled: true, StreamViewType: streamViewType },
    GlobalSecondaryIndexes: globalSecondaryIndexes.map((g) => ({
      IndexName: g.indexName,
      KeySchema: [
        { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}
