// A deployed stage as the admin CLI sees it: the outputs of its stacks, read from CloudFormation in the
// stage's own region (cdk.json `stages`), become the environment variables the CLI's commands read,
// the same ones the local stack writes to .local/stack.env.json. So a command can only ever address one
// stage's table, secrets and functions together: there is no flag to name one of them on its own. An
// output is read from whichever of the stage's stacks holds it (infra/stack.ts splits the stage): the
// main stack first, which holds them all today, then the others, asked only for what it lacks.
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

/** The main stack of a stage, as infra/app.ts names it. */
export const stackNameOf = (stage: string) => `payments-gateway-${stage}`;

/** The stage's stacks in its region, the main one first: its routes' and its alarms' (infra/stack.ts). */
export const stageStackNamesOf = (stage: string) =>
  [stackNameOf(stage), `${stackNameOf(stage)}-api`, `${stackNameOf(stage)}-observability`] as const;

export class StageUnavailableError extends Error {
  override name = 'StageUnavailableError';
}

/**
 * The environment for commands against `stage`: its region, STAGE, and every output above, each from
 * the first of the stage's stacks that holds it. Refuses a main stack that is missing, a stack of another
 * account or still being created, and a stage none of whose stacks has an expected output.
 */
export async function stageEnvironment(stage: string): Promise<Record<string, string>> {
  const { account, region } = stageTargetOf(declaredStages(), stage);
  const [main, ...others] = stageStackNamesOf(stage);
  const client = new CloudFormationClient({ region });
  try {
    const read = (stackName: string) => stackOutputs(client, { stage, account, region, stackName });
    const outputs = await read(main);
    if (!outputs)
      throw new StageUnavailableError(
        `No stack ${main} in ${region} for these credentials: deploy the stage first ` +
          `(npm run deploy -- -c stage=${stage} --all) or use credentials for account ${account}.`,
      );
    const wanted = Object.keys(STAGE_OUTPUT_VARIABLES);
    for (const stackName of others) {
      if (wanted.every((output) => outputs.get(output))) break;
      for (const [output, value] of (await read(stackName)) ?? [])
        if (!outputs.get(output)) outputs.set(output, value);
    }
    const env: Record<string, string> = { AWS_REGION: region, STAGE: stage };
    for (const [output, variable] of Object.entries(STAGE_OUTPUT_VARIABLES)) {
      const value = outputs.get(output);
      if (!value)
        throw new StageUnavailableError(
          `${main} has no output ${output}, nor has ${others.join(' or ')}: deploy this version.`,
        );
      env[variable] = value;
    }
    return env;
  } finally {
    client.destroy();
  }
}

/**
 * One stack's outputs by name; undefined when the stack does not exist (for these credentials). Refuses a
 * stack in another account than the stage's (credentials for the wrong account find no stack, or the
 * wrong one) and a stack still being created, or being deleted.
 */
async function stackOutputs(
  client: CloudFormationClient,
  {
    stage,
    account,
    region,
    stackName,
  }: { stage: string; account: string; region: string; stackName: string },
): Promise<Map<string | undefined, string | undefined> | undefined> {
  let stack: Stack | undefined;
  try {
    stack = (await client.send(new DescribeStacksCommand({ StackName: stackName }))).Stacks?.[0];
  } catch (error) {
    const { name, message } = error as Error;
    if (name === 'ValidationError') return undefined;
    if (name === 'CredentialsProviderError') {
      throw new StageUnavailableError(
        `No AWS credentials for stage ${stage}: sign in to account ${account} (AWS_PROFILE, aws sso login, ` +
          'or AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY) and run again.',
      );
    }
    // Expired or refused credentials, throttling: CloudFormation's own words, in one line.
    throw new StageUnavailableError(`Could not read ${stackName} in ${region}: ${name}: ${message}`);
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
  return new Map((stack.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
}
