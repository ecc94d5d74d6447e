// docs/architecture.md is the layout a newcomer reads first: it must name every function the stack
// deploys, every folder of lib/ and every layer the layers test holds, so it cannot drift silently.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { functionMemory } from '../../infra/function-memory.ts';
import { LAYERS, root } from '../../scripts/import-graph.ts';

const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
/** Backquoted names in the doc (`api/auth`, `payments/`, `outbox.ts`). */
const named = new Set([...doc.matchAll(/`([^`\s]+)`/g)].map((m) => m[1] as string));

describe('docs/architecture.md', () => {
  it('names every function of the stack (infra/function-memory.ts sizes each one the stack deploys)', () => {
    const functions = Object.keys(functionMemory);
    assert.ok(functions.length > 20, 'the stack has its functions');
    assert.deepEqual(
      functions.filter((fn) => !named.has(fn)),
      [],
    );
  });

  it('names every folder of lib/, and every file layers place directly under lib/', () => {
    const folders = readdirSync(join(root, 'lib'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${entry.name}/`);
    const files = LAYERS.flatMap((layer) => layer.members).filter((member) => member.endsWith('.ts'));
    assert.deepEqual(
      [...folders, ...files].filter((name) => !named.has(name)),
      [],
    );
  });

  it('gives each layer of the layers test its row, with its rule', () => {
    for (const layer of LAYERS)
      assert.ok(doc.includes(`| ${layer.name} |`) && doc.includes(layer.rule), `layer ${layer.name}`);
  });
});
