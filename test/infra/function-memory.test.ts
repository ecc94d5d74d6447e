// Every function's memory is the one infra/function-memory.ts gives its bundle, in every stage, and the
// table sizes exactly the bundles esbuild writes.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { bundleEntries } from '../../esbuild.config.ts';
import { functionMemory } from '../../infra/function-memory.ts';
import { PaymentsGatewayStack } from '../../infra/stack.ts';
import { SERVICE_NAME } from '../../infra/stage.ts';
import { ensureBundles, newApp, ownFunctions, type Resources, stageProps, stageTemplate } from './support.ts';

await ensureBundles();
const app = newApp();
// Both stages in one App, built before the one synth.
const stacks = ['dev', 'prod'].map((stage) => ({
  stage,
  stack: new PaymentsGatewayStack(app, `Memory-${stage}`, stageProps(stage)),
}));
const stages = stacks.map(({ stage, stack }) => ({
  stage,
  resources: stageTemplate(stack).toJSON().Resources as Resources,
}));
const bundles = bundleEntries().map((entry) => entry.name);

describe('function memory', () => {
  test('the table sizes every bundle, and nothing else', () => {
    assert.deepEqual(Object.keys(functionMemory).sort(), [...bundles].sort());
    for (const [bundle, memory] of Object.entries(functionMemory))
      assert.ok(Number.isInteger(memory) && memory >= 128 && memory <= 10_240, `${bundle}: ${memory} MB`);
  });

  test('each function has exactly the memory the table gives its bundle', () => {
    for (const { stage, resources } of stages) {
      // The description names the bundle a function ships (infra/stack.ts).
      const prefix = `${SERVICE_NAME} ${stage} `;
      const memoryByBundle = new Map(
        ownFunctions(resources).map(([id, r]) => {
          const description = String(r.Properties?.Description);
          assert.ok(description.startsWith(prefix), `${id}: ${description}`);
          return [description.slice(prefix.length), r.Properties?.MemorySize];
        }),
      );
      assert.deepEqual([...memoryByBundle.keys()].sort(), [...bundles].sort(), stage);
      for (const bundle of bundles)
        assert.equal(memoryByBundle.get(bundle), functionMemory[bundle], `${stage} ${bundle}`);
    }
  });

  test('a bundle missing from the table fails the synth, naming it', () => {
    const { 'workers/ledger-submitter': _, ...withoutSubmitter } = functionMemory;
    assert.throws(
      () => new PaymentsGatewayStack(newApp(), 'Unsized', { stage: 'dev', memory: withoutSubmitter }),
      /No memory declared for workers\/ledger-submitter in infra\/function-memory.ts/,
    );
  });
});
