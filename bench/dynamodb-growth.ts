// Issue #28 §3: how much DynamoDB Local grows under payments, in memory (`-inMemory`, the tests' and the
// bench's stacks) and on disk (`-dbPath`, what `npm start` uses). The payment burst at once
// (bench/payment-burst.ts: 500 P2P payments in a ring of own wallets at concurrency 16, a whole stack
// per run) runs once each way; DynamoDB Local's resident memory (/proc VmRSS) and its database files
// are read after the wallets' setup and again once every payment has settled. Printed: growth per payment and, at the rate the run
// settled, per hour of that load.
//
// Not a section of `npm run bench` (two more stacks, minutes); run it alone:
// `node scripts/toolchain.mjs node bench/dynamodb-growth.ts`.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { burstSpecOf, IMMEDIATE_RUN, runBurst } from './payment-burst.ts';
import type { PaymentBurstFigures } from './payment-burst-run.ts';
import { fixed, table } from './stats.ts';

const MODES = [
  { mode: 'in memory (-inMemory)', dbPath: undefined },
  { mode: 'on disk (-dbPath)', dbPath: 'dynamodb-data' },
] as const;

/** The most the section can take: both runs at their caps. */
export const DYNAMODB_GROWTH_CAP_MS = MODES.length * burstSpecOf(IMMEDIATE_RUN).capMs;

const MiB = 1024 * 1024;

function row(mode: string, f: PaymentBurstFigures | string): string[] {
  if (typeof f === 'string') return [mode, `run failed: ${f}`];
  const settled = f.completed + f.failed;
  const perSecond = settled / (f.settleWallMs / 1000);
  const rss = (f.dynamoDb.after.rssKiB - f.dynamoDb.before.rssKiB) * 1024;
  const disk = f.dynamoDb.after.diskBytes - f.dynamoDb.before.diskBytes;
  const perPayment = (bytes: number) => fixed(bytes / settled / 1024, 1);
  const perHour = (bytes: number) => fixed(((bytes / settled) * perSecond * 3600) / MiB, 0);
  return [
    mode,
    String(settled),
    fixed(perSecond, 1),
    `${fixed(f.dynamoDb.before.rssKiB / 1024, 0)} → ${fixed(f.dynamoDb.after.rssKiB / 1024, 0)}`,
    perPayment(rss),
    perHour(rss),
    `${fixed(f.dynamoDb.before.diskBytes / MiB, 1)} → ${fixed(f.dynamoDb.after.diskBytes / MiB, 1)}`,
    perPayment(disk),
    perHour(disk),
  ];
}

export async function measureDynamoDbGrowth(): Promise<void> {
  const rows: string[][] = [];
  for (const { mode, dbPath } of MODES) {
    const { spec, capMs } = burstSpecOf({ ...IMMEDIATE_RUN, run: `growth-${dbPath ?? 'memory'}` });
    const figures = await runBurst(
      { ...spec, dynamoDbData: dbPath === undefined ? undefined : join(spec.dataDir, dbPath) },
      capMs,
    );
    rows.push(row(mode, figures));
  }
  console.log(
    `\nDynamoDB Local's growth under payments (the payment burst at once: ${burstSpecOf(IMMEDIATE_RUN).spec.payments} P2P payments, a stack per run; after setup → after settling)`,
  );
  console.log(
    table(
      [
        'DynamoDB Local',
        'settled',
        'per s',
        'RSS MiB',
        'RSS KiB/payment',
        'RSS MiB/hour',
        'files MiB',
        'files KiB/payment',
        'files MiB/hour',
      ],
      rows,
    ),
  );
  console.log(
    [
      '',
      "RSS: DynamoDB Local's resident memory (/proc/<pid>/status VmRSS), the JVM and the SQLite it runs, in",
      "memory or with its file. files: its database folder. Per hour: per payment × the run's settled rate,",
      "i.e. a stack kept busy at this burst's pace; a payment writes its record, the list-index copies, the",
      "wallet entries, the submission record and the outbox's work, and the stream keeps each change 24 hours.",
    ].join('\n'),
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await measureDynamoDbGrowth();
}
