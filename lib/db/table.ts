// The one table, described once: infra builds it from this and the local stack creates it from this.
import { type ListIndex, PENDING_INDEX, PENDING_KEYS_INDEX } from './keys.ts';

export type Projection = 'ALL' | 'KEYS_ONLY';

export interface IndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey: string;
  projection: Projection;
}

/** Each list (its key attributes `<list>pk`, `<list>sk`; lib/db/keys.ts) and the keys-only index that serves it. */
export const KEYS_ONLY_INDEX_OF: Record<ListIndex, string> = {
  list1: 'keys1',
  list2: 'keys2',
  list3: 'keys3',
  list4: 'keys4',
};
const LISTS = Object.keys(KEYS_ONLY_INDEX_OF) as ListIndex[];

/**
 * The list indexes (docs/decisions/list-indexes.md): overloaded, sparse, each keyed by one list filter's
 * partition and the list's order (lib/db/keys.ts names what each entity writes), so a filtered page reads
 * O(page) items. They project the keys only: a record's update that leaves its list keys as they were
 * writes no index, and a page is the index's keys, then the records by key (lib/db/paginate.ts).
 */
const keysOnlyListIndexes: IndexDefinition[] = LISTS.map((list) => ({
  indexName: KEYS_ONLY_INDEX_OF[list],
  partitionKey: `${list}pk`,
  sortKey: `${list}sk`,
  projection: 'KEYS_ONLY',
}));

/**
 * The list indexes as first deployed, on the same key attributes, projecting every attribute: every write
 * of a listed record rewrote each of them. A stage created before the keys-only ones holds these until the
 * migration below removes them.
 */
const projectedListIndexes: IndexDefinition[] = LISTS.map((list) => ({
  indexName: list,
  partitionKey: `${list}pk`,
  sortKey: `${list}sk`,
  projection: 'ALL',
}));

const lookupIndexes: IndexDefinition[] = [
  /** Tenant-scoped look-ups by another identifier: its partition key is always the tenant scope. */
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk', projection: 'ALL' },
  /** The platform index: look-ups by id alone, for the admin CLI only (lib/db/platform-index.ts). */
  { indexName: 'platform', partitionKey: 'gsi2pk', sortKey: 'gsi2sk', projection: 'ALL' },
];

/**
 * Sparse: only records whose outbox work is still owed (a payment `initiated`, a wallet's activation
 * `pending`) carry its keys, by the time they entered that state; the reconciler reads it
 * (lib/outbox-reconciler.ts). It projects the keys only: every payment is on it for its first seconds, and
 * a projected copy cost the record's size in write units twice (its insert, its settling), for a reader
 * that finds a stuck record a few times a day. As first deployed it projected every attribute (`pending`);
 * a stage created before holds that one until the move below.
 */
const pendingIndexOf = (projection: Projection): IndexDefinition => ({
  indexName: projection === 'ALL' ? PENDING_INDEX : PENDING_KEYS_INDEX,
  partitionKey: 'pendingPk',
  sortKey: 'pendingSk',
  projection,
});

/**
 * The move from the projected pending index to the keys-only one (`cdk deploy -c pendingIndexStep=<n>`;
 * docs/production.md "Moving the pending index to keys only"), one index per deploy, after the list
 * indexes' move: step 1 adds pendingKeys, step 2 switches the reconciler's reads to it, step 3 deletes
 * pending. A stage still moving its list indexes (a step below LIST_INDEX_STEPS) keeps the projected
 * pending index (step 0): one move at a time.
 */
export const PENDING_INDEX_STEPS = 3;

/** Which pending index the reconciler reads at `step`: the keys-only one once it is whole. */
export const pendingIndexReadAtStep = (step: number = PENDING_INDEX_STEPS): Projection =>
  step >= 2 ? 'KEYS_ONLY' : 'ALL';

/**
 * The pending index's step a deploy makes: the one given, else 0 for a stage that gives a list indexes' step
 * (it predates both moves), else the final shape.
 */
export const pendingStepOf = (pendingStep: number | undefined, listStep: number | undefined): number =>
  pendingStep ?? (listStep === undefined ? PENDING_INDEX_STEPS : 0);

const pendingIndexesAtStep = (step: number): IndexDefinition[] => [
  ...(step < PENDING_INDEX_STEPS ? [pendingIndexOf('ALL')] : []),
  ...(step >= 1 ? [pendingIndexOf('KEYS_ONLY')] : []),
];

/**
 * The move from the projected list indexes to the keys-only ones on a stage that holds them, one deploy
 * per step (`cdk deploy -c listIndexStep=<n>`; docs/production.md "Moving the list indexes to keys only"):
 * DynamoDB creates or deletes one global secondary index per table update, and a projection cannot change
 * in place. Steps 1-4 add keys1…keys4; after step 4 the operator runs `admin lists backfill` (records
 * written before list4 held a transaction's creation order carry no list4 keys); step 5 switches the
 * functions' reads to the keys-only indexes and changes no index; steps 6-9 delete list1…list4. Without the
 * context a stage gets the final shape: what a new stage and the local stack create.
 */
export const LIST_INDEX_STEPS = 9;
/** The first step whose functions read the keys-only indexes. */
export const KEYS_ONLY_READS_FROM_STEP = 5;

/** The indexes the table has at `step` of the list indexes' move and `pendingStep` of the pending index's (the final shape without them). */
export function indexesAtStep(
  listStep: number | undefined = undefined,
  pendingStep: number | undefined = undefined,
): IndexDefinition[] {
  const step = listStep ?? LIST_INDEX_STEPS;
  const added = keysOnlyListIndexes.slice(0, Math.min(step, 4));
  const kept = projectedListIndexes.slice(Math.max(0, step - KEYS_ONLY_READS_FROM_STEP));
  return [...lookupIndexes, ...pendingIndexesAtStep(pendingStepOf(pendingStep, listStep)), ...kept, ...added];
}

/** Which list indexes the functions read at `step`: the projected ones until the keys-only ones are whole. */
export const listIndexesReadAtStep = (step: number = LIST_INDEX_STEPS): Projection =>
  step >= KEYS_ONLY_READS_FROM_STEP ? 'KEYS_ONLY' : 'ALL';

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
  globalSecondaryIndexes: indexesAtStep(),
} as const;

/** The CreateTable input both the local stack and tests use (infra maps the same fields to CDK). */
export function createTableInput(tableName: string, indexes: IndexDefinition[] = indexesAtStep()) {
  const { partitionKey, sortKey, streamViewType } = tableDefinition;
  const keyAttributes = [
    ...new Set([partitionKey, sortKey, ...indexes.flatMap((g) => [g.partitionKey, g.sortKey])]),
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
    GlobalSecondaryIndexes: indexes.map((g) => ({
      IndexName: g.indexName,
      KeySchema: [
        { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: g.projection },
    })),
  };
}
