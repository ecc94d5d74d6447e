// A deployed stage as the admin CLI sees it: the outputs of its stack, read from CloudFormation in the
// stage's own region (cdk.json `stages`), become the environment variables the CLI's commands read,
// the same ones the local stack writes to .local/stack.env.json. So a command can only ever address one
// stage's table, secrets and functions together: there is no flag to name one of them on its own.
import { CloudFormationClient, DescribeStacksCommand, type Stack } from '@aws-sdk/client-cloudformation';
import { secretIdVariable } from '../secret-names.ts';
import { declaredStages, stageTargetOf } from '../stage-targets.ts';

/** Stack outputs (infra/stack.ts) → the environment variable each becomes. */
export const STAGE_OUTPUT_VARIABLES = {
  TableName: 'TABLE_NAME',
  SigningKeysSecretName: secretIdVariable['signing-keys'],
  TokenJwksSecretName: secretIdVariable['token-jwks'],
  CursorKeySecretName: secretIdVariable['cursor-key'],
  KekSandboxSecretName: secretIdVariable['kek-sandbox'],
  KekProductionSecretName: secretIdVariable['kek-production'],
  LedgerAdminFunctionName: 'LEDGER_ADMIN_FUNCTION',
} as const satisfies Record<string, string>;

/** The stack of a stage, as infra/app.ts names it. */
export const stackNameOf = (stage: string) => `payments-gateway-${stage}`;

export class StageUnavailableError extends Error {
  override name = 'StageUnavailableError';
}

/**
 * The environment for commands against `stage`: its region, STAGE, and every output above. Refuses a
 * stack in another account than the stage's (credentials for the wrong account find no stack, or the
 * wrong one), a stack that is missing or still being created, and one without an expected output.
 */
export async function stageEnvironment(stage: string): Promise<Record<string, string>> {
  const { account, region } = stageTargetOf(declaredStages(), stage);
  const stackName = stackNameOf(stage);
  const client = new CloudFormationClient({ region });
  let stack: Stack | undefined;
  try {
    stack = (await client.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
  } catch (error) {
    const { name, message } = error as Error;
    if (name === 'ValidationError') {
      throw new StageUnavailableError(
        `No stack ${stackName} in ${region} for these credentials: deploy the stage first ` +
          `(npm run deploy -- -c stage=${stage} --all) or use credentials for account ${account}.`,
      );
    }
    if (name === 'CredentialsProviderError') {
      throw new StageUnavailableError(
        `No AWS credentials for stage ${stage}: sign in to account ${account} (AWS_PROFILE, aws sso login, ` +
          'or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY) and run again.',
      );
    }
    // Expired or refused credentials, throttling: CloudFormation's own words, in one line.
    throw new StageUnavailableError(`Could not read ${stackName} in ${region}: ${name}: ${message}`);
  } finally {
    client.destroy();
  }
  const stackAccount = stack?.StackId?.split(':')[4];
  if (!stack || stackAccount !== account) {
    throw new StageUnavailableError(
      `${stackName} in ${region} belongs to account ${stackAccount ?? 'unknown'}, but cdk.json pins stage ` +
        `${stage} to ${account}: use credentials for ${account}.`,
    );
  }
  // A stack that never finished its first create, or is being deleted, has nothing to address.
  if (
    /^(CREATE_IN_PROGRESS|CREATE_FAILED|REVIEW_IN_PROGRESS|ROLLBACK_|DELETE_)/.test(stack.StackStatus ?? '')
  ) {
    throw new StageUnavailableError(`${stackName} is ${stack.StackStatus}: wait for its deploy to finish.`);
  }
  const outputs = new Map((stack.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
  const env: Record<string, string> = { AWS_REGION: region, STAGE: stage };
  for (const [output, variable] of Object.entries(STAGE_OUTPUT_VARIABLES)) {
    const value = outputs.get(output);
    if (!value) throw new StageUnavailableError(`${stackName} has no output ${output}: deploy this version.`);
    env[variable] = value;
  }
  return env;
}
