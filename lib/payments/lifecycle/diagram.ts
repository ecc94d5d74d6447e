// The lifecycle tables drawn as Mermaid state diagrams (docs/lifecycles.md is written from these, and a
// unit test keeps the two the same): what the docs show is what the code decides.
import { everyPair, type Lifecycle } from './machine.ts';

export function mermaidOf(lifecycle: Lifecycle<string, string>): string {
  const lines = ['stateDiagram-v2', `    [*] --> ${lifecycle.initial}`];
  for (const [state, event, move] of everyPair(lifecycle))
    if (move) lines.push(`    ${state} --> ${move.to}: ${event}${move.error ? ` (${move.error.code})` : ''}`);
  for (const [state, info] of Object.entries(lifecycle.states))
    if (info.final) lines.push(`    ${state} --> [*]`);
  return lines.join('\n');
}

/** One table of a lifecycle's states: the status each shows and what it means. */
export function statesTableOf(lifecycle: Lifecycle<string, string>): string {
  const rows = Object.entries(lifecycle.states).map(([state, info]) => {
    const notes = [info.final && 'final', info.resting && 'resting', info.owed && 'money owed']
      .filter(Boolean)
      .join(', ');
    return `| \`${state}\` | \`${info.status}\` | ${info.means}${notes ? ` (${notes})` : ''} |`;
  });
  return ['| state | status | means |', '|---|---|---|', ...rows].join('\n');
}
