// The stacks `cdk synth -c …` defines, from the CLI's context alone: infra/app.ts runs it after bundling,
// and the tests run it with the context of a command the docs show, so that what the docs say a synth
// prints (or refuses with) is what it does. Throws SynthRefusal, one line saying what to pass, when the
// context lacks what the stage needs.
import type { App } from 'aws-cdk-lib';
import { alarmSubscribersFromContext } from './constructs/alarm-topic.ts';
import { domainFromContext } from './constructs/edge.ts';
import { listIndexStepFromContext, pendingIndexStepFromContext } from './constructs/gateway-table.ts';
import { breakGlassRoleFromContext } from './constructs/key-guard.ts';
import { noticesFromContext } from './constructs/notices.ts';
import { backupCopyVaultFromContext, backupVaultLockFromContext } from './constructs/table-backup.ts';
import { PaymentsGatewayStack } from './stack.ts';
import { SERVICE_NAME, stageFromContext } from './stage.ts';

export function defineStacks(app: App): PaymentsGatewayStack {
  const stage = stageFromContext(app.node);
  return new PaymentsGatewayStack(app, `${SERVICE_NAME}-${stage}`, {
    stage,
    domain: domainFromContext(app.node),
    alarmSubscribers: alarmSubscribersFromContext(app.node),
    breakGlassRoleArn: breakGlassRoleFromContext(app.node),
    backupCopyVaultArn: backupCopyVaultFromContext(app.node),
    backupVaultLock: backupVaultLockFromContext(app.node),
    notices: noticesFromContext(app.node),
    listIndexStep: listIndexStepFromContext(app.node),
    pendingIndexStep: pendingIndexStepFromContext(app.node),
  });
}
