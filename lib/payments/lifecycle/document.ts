// docs/lifecycles.md, as the tables make it (scripts/lifecycle-docs.ts writes it; a unit test compares).

import { receiptLifecycle } from '../../onramp-references/receipt-lifecycle.ts';
import { mermaidOf, statesTableOf } from './diagram.ts';
import type { Lifecycle } from './machine.ts';
import { LIFECYCLES } from './records.ts';

const INTRO = `# Lifecycles of money records

Written by \`npm run lifecycle-docs\` from the tables in \`lib/payments/lifecycle/\`; do not edit by hand.

Every transaction record moves only through its kind's table: an event (what happened: the ledger
landed or refused a transaction, the provider reported an instruction's state, a payment the platform
owes landed or was refused) in a state either names a move, or is refused: logged and counted
(\`TransitionRefused\`), never applied. Each move is written conditioned on the status and version the
decision read, so a late or stale report can never undo a later one. The contract's \`status\` is a
function of the state. Sandbox helpers act on the provider, whose report arrives as any provider event.

A state marked *money owed* is paid by the ledger-submitter until it lands: an attempt the ledger
refuses (proven: nothing of it can ever land) moves the record to its next attempt, paid on a fresh
intent with backoff, then by the outbox reconciler's re-drives; \`OwedPayments\` and \`OwedOldestAge\` show it,
and \`npm run admin -- owed list\` lists it.

A provider receipt's item (the receipt as the platform keeps it, beside the provider on-ramp record it
makes) is written \`credited\` or \`held\` when the receipt arrives; a held one is resolved by platform
operations (\`npm run admin -- receipts resolve\`), once.
`;

export function lifecyclesDocument(): string {
  const kinds: readonly Lifecycle<string, string>[] = [
    ...LIFECYCLES,
    receiptLifecycle as Lifecycle<string, string>,
  ];
  const sections = kinds.map(
    (lifecycle) =>
      `## ${lifecycle.kind}\n\n${statesTableOf(lifecycle)}\n\n\`\`\`mermaid\n${mermaidOf(lifecycle)}\n\`\`\`\n`,
  );
  return `${INTRO}\n${sections.join('\n')}`;
}
