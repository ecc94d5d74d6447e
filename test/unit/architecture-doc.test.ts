// docs/architecture.md is the layout a newcomer reads first: it must name every function the stack
// deploys, every folder of lib/ and every layer the layers test holds, so it cannot drift silently.
// A comment that needs a reason from outside the code links a decision record (docs/decisions/), never a
// section of the contract or an issue, which a reader of the repository does not have.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { functionMemory } from '../../infra/function-memory.ts';
import { LAYERS, root, sourcesOf } from '../../scripts/import-graph.ts';

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

/** The comment text of a source line: after `//`, or the whole line inside a block comment. */
function commentOf(line: string): string | undefined {
  const trimmed = line.trimStart();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*')) return trimmed;
  const slashes = line.indexOf('// ');
  return slashes === -1 ? undefined : line.slice(slashes);
}

/** A reference to the contract's sections or to an issue (an RFC's section is a standard's, and fine). */
const OUTSIDE_REFERENCE = /spec §|issue #\d|(?<!RFC \d+ )§ ?\d/;
const DECISION_LINK = /docs\/decisions\/([\w.-]+\.md)/g;
const code = ['lib', 'functions', 'infra', 'local'].flatMap(sourcesOf);
const lines = code.flatMap((file) =>
  readFileSync(join(root, file), 'utf8')
    .split('\n')
    .map((text, index) => ({ at: `${file}:${index + 1}`, text })),
);
const records = readdirSync(join(root, 'docs', 'decisions')).filter((name) => name.endsWith('.md'));

describe('decision records (docs/decisions/)', () => {
  it('a code comment links a record, never a section of the contract or an issue', () => {
    assert.ok(code.length > 300, 'the code is read');
    assert.deepEqual(
      lines
        .filter(({ text }) => OUTSIDE_REFERENCE.test(commentOf(text) ?? ''))
        .map(({ at, text }) => `${at} ${text}`),
      [],
    );
  });

  it('every docs/decisions/ link in code names a record that exists', () => {
    const links = lines.flatMap(({ at, text }) =>
      [...text.matchAll(DECISION_LINK)].map((m) => ({ at, name: m[1] })),
    );
    assert.ok(links.length > 30, 'the comments link their records');
    assert.deepEqual(
      links.filter(({ name }) => !existsSync(join(root, 'docs', 'decisions', name as string))),
      [],
    );
  });

  it('docs/architecture.md lists every record', () => {
    assert.deepEqual(
      records.filter((name) => !doc.includes(`(decisions/${name})`)),
      [],
    );
  });
});
