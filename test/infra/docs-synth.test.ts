// docs/production.md's prod synth, as the doc shows it: its refusals, in the order the doc quotes them,
// are what the synth prints (the context of each step added as the previous refusal asks), and the full
// command it shows defines the stacks without one. In process, with the context the CLI would pass
// (the CLI itself: cdk-synth-cli.test.ts).
import assert from 'node:assert/strict';
import { beforeAll, describe, it } from 'vitest';
import { defineStacks } from '../../infra/stacks-from-context.ts';
import { SynthRefusal } from '../../infra/stage.ts';
import { stageTargetOf } from '../../lib/stage-targets.ts';
import { contextsOf, docCommand, quotedMessages } from '../support/docs.ts';
import { ensureBundles, newApp } from './support.ts';

const DOC = 'docs/production.md';

/** What `cdk synth` with these contexts refuses with; undefined when it defines the stacks. */
function refusalOf(context: Record<string, string>, stages?: unknown): string | undefined {
  const app = newApp();
  if (stages) app.node.setContext('stages', stages);
  for (const [name, value] of Object.entries(context)) app.node.setContext(name, value);
  try {
    defineStacks(app);
    return undefined;
  } catch (error) {
    if (!(error instanceof SynthRefusal)) throw error;
    return error.message;
  }
}

describe(`${DOC}'s prod synth`, () => {
  beforeAll(ensureBundles, 0);

  // Building prod's stacks is CPU-bound work: no wall clock a busy machine could break.
  it('refuses as the doc quotes, in its order, and the full command it shows synthesizes', {
    timeout: 0,
  }, () => {
    const full = contextsOf(docCommand(DOC, 'npx cdk synth'));
    assert.equal(full.stage, 'prod');
    const pick = (...names: string[]) =>
      Object.fromEntries(names.map((name) => [name, full[name] as string]));
    const refusals = [
      refusalOf({ stage: 'prod' }),
      refusalOf(pick('stage', 'alarmEmail')),
      refusalOf(pick('stage', 'alarmEmail', 'domainName', 'certificateArn', 'regionalCertificateArn')),
    ];
    const quoted = quotedMessages(DOC, 'Stage prod needs').filter((message) => !message.endsWith('…'));
    assert.deepEqual(quoted, refusals);
    assert.equal(refusalOf(full), undefined);
  });

  it('quotes the start of the refusal without a key replica region', { timeout: 0 }, () => {
    const stages = newApp().node.tryGetContext('stages');
    const { keyReplicaRegion: _dropped, ...single } = stageTargetOf(stages, 'prod');
    const refusal = refusalOf(contextsOf(docCommand(DOC, 'npx cdk synth')), { ...stages, prod: single });
    const [quoted] = quotedMessages(DOC, 'Stage prod needs').filter((message) => message.endsWith('…'));
    assert.ok(quoted && refusal?.startsWith(quoted.slice(0, -1).trimEnd()), `${quoted} / ${refusal}`);
  });
});
