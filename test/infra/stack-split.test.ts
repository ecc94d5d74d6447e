// The stage's stacks as split by issue #36 §6 (infra/stack.ts): the main stack keeps what it held before
// the split, under the same logical ids, so deploying the split over a deployed stage changes nothing
// stateful; its routes' and alarms' stacks deploy after it and read it only by its outputs; every stack
// stays well under CloudFormation's 500 resources. One synth (dev and prod in one App) for the file.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, test } from 'vitest';
import { PaymentsGatewayStack } from '../../infra/stack.ts';
import { ensureBundles, newApp, type Resources, stageProps, stageStacks } from './support.ts';

await ensureBundles();
const app = newApp();
const stages = {
  dev: new PaymentsGatewayStack(app, 'Dev', stageProps('dev')),
  prod: new PaymentsGatewayStack(app, 'Prod', stageProps('prod')),
};
const assembly = app.synth();
const templateOf = (stack: Stack) =>
  Template.fromStack(stack).toJSON() as {
    Resources: Resources;
    Outputs?: Record<string, { Value: unknown }>;
  };

/** A stack may hold fewer than this many resources: CloudFormation's limit is 500, CDK notes 400. */
const STACK_BOUND = 400;

/**
 * What a stage keeps, as the test that pins it recognises it: everything production retains when its
 * stack goes (DeletionPolicy Retain*), every resource that holds data, keys, logs or messages, and what
 * clients or operators reach by a name of its own (the API, its domains, the distribution, the topic,
 * the dashboard, the key guard's rules, a role of a fixed name).
 */
const KEPT_TYPES = new Set([
  'AWS::DynamoDB::Table',
  'AWS::KMS::Key',
  'AWS::KMS::Alias',
  'AWS::SecretsManager::Secret',
  'AWS::SecretsManager::RotationSchedule',
  'AWS::SecretsManager::ResourcePolicy',
  'AWS::Backup::BackupVault',
  'AWS::Backup::BackupPlan',
  'AWS::Backup::BackupSelection',
  'AWS::SQS::Queue',
  'AWS::Logs::LogGroup',
  'AWS::SNS::Topic',
  'AWS::SNS::Subscription',
  'AWS::SES::ConfigurationSet',
  'AWS::SES::EmailIdentity',
  'AWS::S3::Bucket',
  'AWS::ApiGatewayV2::Api',
  'AWS::ApiGatewayV2::DomainName',
  'AWS::CloudFront::Distribution',
  'AWS::CloudWatch::Dashboard',
  'AWS::Events::Rule',
  'Custom::AWS',
]);
const keptOf = (resources: Resources): Record<string, string> =>
  Object.fromEntries(
    Object.entries(resources)
      .filter(
        ([, r]) =>
          KEPT_TYPES.has(r.Type) ||
          /^Retain/.test(r.DeletionPolicy ?? '') ||
          r.Properties?.RoleName !== undefined,
      )
      .map(([id, r]): [string, string] => [id, r.DeletionPolicy ? `${r.Type} ${r.DeletionPolicy}` : r.Type])
      .sort(([a], [b]) => a.localeCompare(b)),
  );

/**
 * The same list, taken from the single stack of each stage on main before the split (commit c9e7b15),
 * with each resource's deletion policy: a resource missing from the main stack now, or under another
 * logical id, would be deleted and made again (or, in prod, orphaned) by the first deploy of the split.
 */
const keptBeforeTheSplit = JSON.parse(
  readFileSync(new URL('./kept-resources.json', import.meta.url), 'utf8'),
) as Record<'dev' | 'prod', Record<string, string>>;

describe('the split stage', () => {
  for (const [stage, main] of Object.entries(stages) as ['dev' | 'prod', PaymentsGatewayStack][]) {
    test(`${stage}: every stack holds fewer than ${STACK_BOUND} resources`, () => {
      const counts = Object.fromEntries(
        assembly.stacksRecursively
          .filter(
            (artifact) => artifact.id === main.artifactId || artifact.id.startsWith(`${main.artifactId}-`),
          )
          .map((artifact) => [artifact.id, Object.keys(artifact.template.Resources ?? {}).length]),
      );
      assert.ok(Object.keys(counts).length >= 6, JSON.stringify(counts));
      for (const [id, count] of Object.entries(counts)) assert.ok(count < STACK_BOUND, `${id}: ${count}`);
    });

    test(`${stage}: the main stack keeps every resource of what the stage keeps under its logical id and deletion policy, and the other stacks hold none`, () => {
      assert.deepEqual(keptOf(templateOf(main).Resources), keptBeforeTheSplit[stage]);
      for (const later of [main.routes, main.observability])
        assert.deepEqual(keptOf(templateOf(later).Resources), {}, later.stackName);
    });

    test(`${stage}: the routes' and the alarms' stacks deploy after the main stack and read it by its outputs alone; it reads neither`, () => {
      const { routes, observability } = main;
      const dependencies = (stack: Stack) =>
        assembly.getStackArtifact(stack.artifactId).dependencies.map((d) => d.id);
      for (const later of [routes, observability] as Stack[]) {
        assert.ok(dependencies(later).includes(main.artifactId), `${later.stackName} after the main stack`);
        assert.ok(
          !dependencies(main).includes(later.artifactId),
          `the main stack does not wait for ${later.stackName}`,
        );
      }
      const mainOutputs = templateOf(main).Outputs ?? {};
      for (const stack of stageStacks(main)) {
        const text = JSON.stringify(templateOf(stack));
        // No export, so nothing in the main stack is pinned by what the others read.
        assert.doesNotMatch(text, /Fn::ImportValue|"Export"/, stack.stackName);
        for (const read of text.matchAll(
          /"Fn::GetStackOutput":\{"StackName":"([^"]+)","Region":"[^"]+","OutputName":"([^"]+)"\}/g,
        )) {
          const [, from, output] = read as unknown as [string, string, string];
          if (stack === main) {
            // The main stack reads only stacks deployed before it (the edge's web ACL, prod's replica key).
            assert.ok(
              ![routes, observability].some((s) => s.stackName === from),
              `${stack.stackName} reads ${from}`,
            );
            continue;
          }
          assert.equal(from, main.stackName, `${stack.stackName} reads ${from}`);
          assert.ok(mainOutputs[output], `${stack.stackName} reads ${output}, which ${from} outputs`);
        }
      }
    });
  }

  test('each value a later stack reads is a whole property value (CloudFormation resolves Fn::GetStackOutput so), of an output named after the resource it comes from', () => {
    for (const main of Object.values(stages)) {
      const mainResources = templateOf(main).Resources;
      for (const later of [main.routes, main.observability]) {
        const nested: string[] = [];
        const walk = (value: unknown, insideFunction: boolean, path: string): void => {
          if (Array.isArray(value)) {
            for (const [i, item] of value.entries()) walk(item, insideFunction, `${path}[${i}]`);
            return;
          }
          if (!value || typeof value !== 'object') return;
          for (const [key, item] of Object.entries(value)) {
            if (key === 'Fn::GetStackOutput') {
              if (insideFunction) nested.push(path);
              const { OutputName } = item as { OutputName: string };
              // `<logical id>` (a Ref) or `<logical id><attribute>`: a new logical id is a new name.
              assert.ok(
                Object.keys(mainResources).some((id) => OutputName.startsWith(id)),
                `${OutputName} names a resource of ${main.stackName}`,
              );
              continue;
            }
            walk(item, insideFunction || key.startsWith('Fn::'), `${path}.${key}`);
          }
        };
        walk(templateOf(later).Resources, false, later.stackName);
        assert.deepEqual(nested, []);
      }
    }
  });

  test('the alarms and metric filters are the alarms stack’s, the routes and the stage the routes stack’s', () => {
    for (const main of Object.values(stages)) {
      const typesOf = (stack: Stack) =>
        new Set(Object.values(templateOf(stack).Resources).map((r) => r.Type));
      const mainTypes = typesOf(main);
      for (const type of [
        'AWS::CloudWatch::Alarm',
        'AWS::Logs::MetricFilter',
        'AWS::ApiGatewayV2::Route',
        'AWS::ApiGatewayV2::Stage',
      ])
        assert.ok(!mainTypes.has(type), `${main.stackName} holds no ${type}`);
      assert.deepEqual(
        typesOf(main.observability),
        new Set(['AWS::CloudWatch::Alarm', 'AWS::Logs::MetricFilter']),
      );
      assert.deepEqual(
        [...typesOf(main.routes)].sort(),
        ['AWS::ApiGatewayV2::Integration', 'AWS::ApiGatewayV2::Route', 'AWS::ApiGatewayV2::Stage']
          .concat(main.settings.production ? ['AWS::ApiGatewayV2::ApiMapping'] : [])
          .sort(),
      );
    }
  });
});
