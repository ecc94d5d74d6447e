// Shared by the infra tests: bundles on disk, an App configured like `cdk synth` (cdk.json context),
// and small helpers to follow references through a synthesized template.
import { existsSync, readFileSync } from 'node:fs';
import { App, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { buildAll, bundleEntries } from '../../esbuild.config.ts';
import { PaymentsGatewayStack, type PaymentsGatewayStackProps } from '../../infra/stack.ts';

/** `npm test` builds first; a bare `node --test test/infra` builds only what is missing. */
export async function ensureBundles(): Promise<void> {
  if (bundleEntries().some((entry) => !existsSync(entry.outFile))) await buildAll();
}

/** An App with the same feature flags as `cdk synth` (they change what constructs emit). */
export function newApp(): App {
  const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return new App({ context: cdkJson.context ?? {} });
}

/**
 * What prod refuses to synthesize without: its custom domain (mutual TLS to its origin) and someone the
 * alarms reach; and its email notices' sending domain, without which it warns.
 */
export const PROD_REQUIRED = {
  domain: {
    names: ['api.payments.example'],
    certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6789-abcd-ef0123456789',
    // In the prod stage's region (cdk.json `stages`).
    regionalCertificateArn:
      'arn:aws:acm:eu-west-1:123456789012:certificate/9f8e7d6c-5b4a-3210-fedc-ba9876543210',
    originMtls: {
      clientCertificateArn:
        'arn:aws:acm:us-east-1:123456789012:certificate/5c4d3e2f-1a0b-4c9d-8e7f-6a5b4c3d2e1f',
      truststoreUri: 's3://payments-example-truststore/origin/ca.pem',
      truststoreVersion: '3HL4kqtJlcpXroDTDmJ.rmSpXd3dIbrHY',
    },
  },
  alarmSubscribers: { emails: ['oncall@payments.example'], httpsEndpoints: [] },
  // Not required, but prod without it warns at every synth (notices.ts NO_EMAIL_IDENTITY_WARNING).
  notices: { emailDomain: 'payments.example' },
} as const satisfies Partial<PaymentsGatewayStackProps>;

/** The props of a stage's stack as a test builds it: prod with what it requires. */
export const stageProps = (stage: string) => ({
  stage,
  ...(stage === 'prod'
    ? {
        domain: { ...PROD_REQUIRED.domain, names: [...PROD_REQUIRED.domain.names] },
        alarmSubscribers: { emails: [...PROD_REQUIRED.alarmSubscribers.emails], httpsEndpoints: [] },
        notices: { ...PROD_REQUIRED.notices },
      }
    : {}),
});

export interface CfnResource {
  Type: string;
  Properties?: Record<string, unknown>;
  DeletionPolicy?: string;
  UpdateReplacePolicy?: string;
}

export type Resources = Record<string, CfnResource>;

export function ofType(resources: Resources, type: string): [string, CfnResource][] {
  return Object.entries(resources).filter(([, r]) => r.Type === type);
}

/**
 * The stack's own functions: every AWS::Lambda::Function but the provider AwsCustomResource runs on
 * (prod's table lock, infra/constructs/table-protection.ts), which ships no bundle of ours.
 */
export function ownFunctions(resources: Resources): [string, CfnResource][] {
  return ofType(resources, 'AWS::Lambda::Function').filter(
    ([id]) => !id.startsWith('AWS679f53fac002430cb0da5b7982bd2287'),
  );
}

/** The logical id of the one resource of a type. */
export function onlyOfType(resources: Resources, type: string): string {
  const ids = ofType(resources, type).map(([id]) => id);
  if (ids.length !== 1 || !ids[0]) throw new Error(`Expected exactly one ${type}, found ${ids.length}`);
  return ids[0];
}

export interface PolicyStatement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: unknown;
}

/** Every statement of the AWS::IAM::Policy resources attached to a role. */
export function statementsOfRole(resources: Resources, roleId: string): PolicyStatement[] {
  return ofType(resources, 'AWS::IAM::Policy')
    .filter(([, r]) => asArray(r.Properties?.Roles).some((ref) => referencedId(ref) === roleId))
    .flatMap(
      ([, r]) =>
        (r.Properties?.PolicyDocument as { Statement?: PolicyStatement[] } | undefined)?.Statement ?? [],
    );
}

/** The logical id behind `{ Ref: id }` or `{ 'Fn::GetAtt': [id, attr] }`. */
export function referencedId(value: unknown): string {
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string] };
  const id = v?.Ref ?? v?.['Fn::GetAtt']?.[0];
  if (typeof id !== 'string') throw new Error(`Not a Ref/GetAtt: ${JSON.stringify(value)}`);
  return id;
}

export const asArray = <T>(value: T | T[] | undefined): T[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * Every annotation an assembly's stacks carry (nested stages' too), as `level path: message`: the
 * warnings and errors `cdk synth` prints with a validation report. None is expected, so a construct
 * that starts warning fails a test instead of adding lines to every run's output.
 */
export function synthesisMessages(assembly: ReturnType<App['synth']>): string[] {
  return assembly.stacksRecursively.flatMap((stack) =>
    stack.messages.map((m) => `${m.level} ${m.id}: ${String(m.entry.data)}`),
  );
}

/** The stacks of a stage in its region: the main stack, then its routes' and its alarms' (infra/stack.ts). */
export const stageStacks = (stack: PaymentsGatewayStack): Stack[] => [
  stack,
  stack.routes,
  stack.observability,
];

/**
 * The stacks of a stage in its region as one template: their resources and outputs side by side, and
 * every value one reads from another's output (Fn::GetStackOutput) put back as the Ref or Fn::GetAtt the
 * output holds. So what a test asserts of the stage (a route's function, an alarm's queue) holds whichever
 * of the stacks each resource is in; test/infra/stack-split.test.ts asserts the split itself. Two
 * resources of one logical id in two stacks fail here: the view would hide one.
 */
export function stageTemplate(stack: PaymentsGatewayStack): Template {
  const templates = stageStacks(stack).map((s) => ({
    name: s.stackName,
    ...(Template.fromStack(s).toJSON() as {
      Resources?: Resources;
      Outputs?: Record<string, unknown>;
      Parameters?: Record<string, unknown>;
    }),
  }));
  const outputs = new Map(
    templates.map((t) => [t.name, (t.Outputs ?? {}) as Record<string, { Value: unknown }>]),
  );
  const putBack = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(putBack);
    if (!value || typeof value !== 'object') return value;
    const read = (value as { 'Fn::GetStackOutput'?: { StackName: string; OutputName: string } })[
      'Fn::GetStackOutput'
    ];
    const output = read && outputs.get(read.StackName)?.[read.OutputName];
    if (read && output) return output.Value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, putBack(v)]));
  };
  // The stacks share their parameters (the bootstrap version CDK's synthesizer checks).
  const merged = { Parameters: templates[0]?.Parameters ?? {}, Resources: {} as Resources, Outputs: {} };
  for (const t of templates) {
    for (const [id, resource] of Object.entries(t.Resources ?? {})) {
      if (merged.Resources[id]) throw new Error(`${id} is in two stacks of the stage`);
      merged.Resources[id] = putBack(resource) as CfnResource;
    }
    Object.assign(merged.Outputs, t.Outputs ?? {});
  }
  return Template.fromJSON(merged);
}

/** The resources of a dev and a prod stage of one new app (both made before it synthesizes), bundles built first. */
export async function stageResources(): Promise<{ dev: Resources; prod: Resources }> {
  await ensureBundles();
  const app = newApp();
  const dev = new PaymentsGatewayStack(app, 'Dev', { stage: 'dev' });
  const prod = new PaymentsGatewayStack(app, 'Prod', stageProps('prod'));
  const resourcesOf = (stack: PaymentsGatewayStack) => stageTemplate(stack).toJSON().Resources as Resources;
  return { dev: resourcesOf(dev), prod: resourcesOf(prod) };
}
