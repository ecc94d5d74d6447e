// AWS Backup of the table, in production, beside point-in-time recovery: PITR restores any second of the
// last 35 days but lives and dies with the table's account and region; a backup plan keeps daily recovery
// points in a vault of their own, locked (backupVaultLock), and, with `-c backupCopyVaultArn=<vault ARN>`,
// copies each to a vault in another region or account, so a lost region, a deleted table or a compromised
// account is not the end. A job that fails or expires, or a copy that fails, raises an alarm (infra/stack.ts).
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

/**
 * `-c backupVaultLock=compliance|governance`: the vault's lock, the platform team's choice at deploy
 * (docs/production.md, Backups). compliance (the default): after a 3-day grace, no one, the account's root
 * included, can delete a recovery point before its 35 days or remove the lock; governance: the same rule,
 * which a principal with backup:DeleteBackupVaultLockConfiguration may lift.
 */
export type BackupVaultLock = 'compliance' | 'governance';

export function backupVaultLockFromContext(node: Node): BackupVaultLock {
  const value: unknown = node.tryGetContext('backupVaultLock') ?? 'compliance';
  if (value !== 'compliance' && value !== 'governance')
    throw new SynthRefusal(`"backupVaultLock" must be compliance or governance: ${String(value)}`);
  return value;
}

/** How long the recovery points are kept, here and in the copy's vault. */
export const BACKUP_RETENTION = Duration.days(35);
/** A compliance lock can still be changed or removed for this long after it is set; then it holds. */
export const LOCK_GRACE = Duration.days(3);

export class TableBackup extends Construct {
  readonly plan: backup.BackupPlan;
  readonly vault: backup.BackupVault;

  constructor(
    scope: Construct,
    id: string,
    props: {
      table: dynamodb.ITable;
      removalPolicy: RemovalPolicy;
      copyVaultArn: string | undefined;
      lock: BackupVaultLock;
    },
  ) {
    super(scope, id);
    const vault = new backup.BackupVault(this, 'Vault', {
      backupVaultName: retainedName(this, Stack.of(this).stackName, props.removalPolicy),
      removalPolicy: props.removalPolicy,
      // A compromised account cannot erase the recovery points it would be restored from.
      lockConfiguration: {
        minRetention: BACKUP_RETENTION,
        ...(props.lock === 'compliance' ? { changeableFor: LOCK_GRACE } : {}),
      },
    });
    this.vault = vault;
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
