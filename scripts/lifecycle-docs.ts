// Writes docs/lifecycles.md from the lifecycle tables (lib/payments/lifecycle): `npm run lifecycle-docs`.
// test/unit/lifecycles.test.ts fails when the file and the tables disagree.
import { writeFileSync } from 'node:fs';
import { lifecyclesDocument } from '../lib/payments/lifecycle/document.ts';

writeFileSync(new URL('../docs/lifecycles.md', import.meta.url), lifecyclesDocument());
