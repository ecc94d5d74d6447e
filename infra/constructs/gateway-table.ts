// The one DynamoDB table, built from lib/db/table.ts so infra, the local stack and tests agree on keys.
import type { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct, type Node } from 'constructs';
import { indexesAtStep, LIST_INDEX_STEPS, PENDING_INDEX_STEPS, tableDefinition } from '../../lib/db/table.ts';
import { SynthRefusal } from '../stage.ts';

export interface GatewayTableProps {
  removalPolicy: RemovalPolicy;
  /** The step of the list indexes' move to keys only this deploy makes (lib/db/table.ts); none: the final shape. */
  listIndexStep?: number | undefined;
  /** The step of the pending index's move to keys only (lib/db/table.ts); none: the final shape. */
  pendingIndexStep?: number | undefined;
}

/** A move's step from the context (`-c <name>=<0…last>`), or none. */
function stepFromContext(node: Node, name: string, last: number): number | undefined {
  const value: unknown = node.tryGetContext(name);
  if (value === undefined) return undefined;
  const step = Number(value);
  if (!Number.isInteger(step) || step < 0 || step > last)
    throw new SynthRefusal(`"${name}" must be a whole number from 0 to ${last}: ${String(value)}`);
  return step;
}

/** `-c listIndexStep=<1…9>`: a stage created before the keys-only list indexes, one deploy per step. */
export const listIndexStepFromContext = (node: Node): number | undefined =>
  stepFromContext(node, 'listIndexStep', LIST_INDEX_STEPS);

/** `-c pendingIndexStep=<1…3>`: a stage created before the keys-only pending index, one deploy per step. */
export const pendingIndexStepFromContext = (node: Node): number | undefined =>
  stepFromContext(node, 'pendingIndexStep', PENDING_INDEX_STEPS);

// Every key attribute is a string, as in createTableInput().
const key = (name: string): dynamodb.Attribute => ({ name, type: dynamodb.AttributeType.STRING });

export class GatewayTable extends Construct {
  readonly table: dynamodb.Table;

  constructor(scope: Construct, id: string, props: GatewayTableProps) {
    super(scope, id);
    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: key(tableDefinition.partitionKey),
      sortKey: key(tableDefinition.sortKey),
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      stream: dynamodb.StreamViewType[tableDefinition.streamViewType],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // A KMS key (aws/dynamodb) instead of the AWS-owned default: its use shows up in CloudTrail.
      encryption: dynamodb.TableEncryption.AWS_MANAGED,
      // Two locks in production: the API refuses DeleteTable (switched on by table-protection.ts once the
      // rest of the stack exists, so a failed first create can still delete it), and stack deletion
      // orphans the table.
      removalPolicy: props.removalPolicy,
    });
    if ((props.listIndexStep ?? LIST_INDEX_STEPS) < LIST_INDEX_STEPS && (props.pendingIndexStep ?? 0) > 0)
      throw new SynthRefusal(
        '"pendingIndexStep" comes after the list indexes\' move: finish "listIndexStep" first (one index per deploy)',
      );
    for (const index of indexesAtStep(props.listIndexStep, props.pendingIndexStep)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.indexName,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
        projectionType: dynamodb.ProjectionType[index.projection],
      });
    }
  }
}
