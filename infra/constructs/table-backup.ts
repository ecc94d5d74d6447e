// AWS Backup of the table, in production, beside point-in-time recovery: PITR restores any second of the
// last 35 days but lives and dies with the table's account and region; a backup plan keeps daily recovery
// points in a vault of their own and, with `-c backupCopyVaultArn=<vault ARN>`, copies each to a vault in
// another region or account, so a lost region, a deleted table or a compromised account is not the end.
import { Duration, type RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import * as backup from 'aws-cdk-lib/aws-backup';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import { Construct, type Node } from 'constructs';
import { retainedName } from '../retained-name.ts';
import { SynthRefusal } from '../stage.ts';

/** `-c backupCopyVaultArn=<backup vault ARN>`: where each recovery point is copied. Optional. */
export function backupCopyVaultFromContext(node: Node): string | undefined {
  const value: unknown = node.tryGetContext('backupCopyVaultArn');
  if (value === undefined) return undefined;
  if (
    typeof value !== 'string' ||
    !/^arn:aws[\w-]*:backup:[a-z0-9-]+:\d{12}:backup-vault:[\w.-]+$/.test(value)
  )
    throw new SynthRefusal(`"backupCopyVaultArn" must be an AWS Backup vault ARN: ${String(value)}`);
  return value;
}

/** How long the recovery points are kept, here and in the copy's vault. */
export const BACKUP_RETENTION = Duration.days(35);

export class TableBackup extends Construct {
  readonly plan: backup.BackupPlan;

  constructor(
    scope: Construct,
    id: string,
    props: { table: dynamodb.ITable; removalPolicy: RemovalPolicy; copyVaultArn: string | undefined },
  ) {
    super(scope, id);
    const vault = new backup.BackupVault(this, 'Vault', {
      backupVaultName: retainedName(this, Stack.of(this).stackName, props.removalPolicy),
      removalPolicy: props.removalPolicy,
    });
    this.plan = new backup.BackupPlan(this, 'Plan', { backupVault: vault });
    const copyTo = props.copyVaultArn
      ? [
          {
            destinationBackupVault: backup.BackupVault.fromBackupVaultArn(
              this,
              'CopyVault',
              props.copyVaultArn,
            ),
            deleteAfter: BACKUP_RETENTION,
          },
        ]
      : undefined;
    this.plan.addRule(
      new backup.BackupPlanRule({
        ruleName: 'Daily',
        // 05:00 UTC, every day: outside the busiest hours of the regions the gateway serves.
        scheduleExpression: events.Schedule.cron({ hour: '5', minute: '0' }),
        deleteAfter: BACKUP_RETENTION,
        ...(copyTo ? { copyActions: copyTo } : {}),
      }),
    );
    const selection = this.plan.addSelection('Table', {
      resources: [backup.BackupResource.fromDynamoDbTable(props.table)],
    });
    Validations.of(selection).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSBackupServiceRolePolicyForBackup]',
      reason:
        "AWS Backup's own service-role policy, which AWS maintains for the calls the backup service makes " +
        '(DynamoDB CreateBackup, DescribeTable, StartAwsBackupJob and their like); the role can be assumed ' +
        'by backup.amazonaws.com only, and the selection names this one table.',
    });
  }
}
