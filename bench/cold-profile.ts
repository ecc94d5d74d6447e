// Where a cold start's CPU goes, function by function: reads the V8 profiles a run with BENCH_CPU_PROF=<dir>
// wrote (section 9: `BENCH_CPU_PROF=<dir> node scripts/toolchain.mjs node bench/function-memory.ts`) and the
// marks bench/function-host.mjs wrote beside them, and prints, for the import and for the first invocation
// apart, the CPU sampled in each source (a package, a file of ours, Node's internals), mapped through the
// bundle's source map.
//   node scripts/toolchain.mjs node bench/cold-profile.ts <dir> [function name ...] [--top N]
import { readdirSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface Marks {
  bundle?: string;
  steps: { step: string; atUs: number }[];
}

/** A source as this report groups it: a package, a file of ours, or one of Node's own modules. */
function sourceOf(path: string): string {
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (inPackage) return inPackage[1] ?? path;
  const ours = /\/((?:lib|functions)\/.*)$/.exec(path);
  return ours?.[1] ?? path;
}

/** Milliseconds sampled per source within [fromUs, toUs), by where each sample was (its own frame). */
function cpuBySource(profile: Profile, bundleUrl: string, map: SourceMap, fromUs: number, toUs: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const bySource = new Map<string, number>();
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (at < fromUs || at >= toUs) return;
    const frame = byId.get(id)?.callFrame;
    let source = frame?.url ? frame.url : `(${frame?.functionName || 'native'})`;
    if (frame && frame.url === bundleUrl) {
      const entry = map.findEntry(frame.lineNumber, frame.columnNumber);
      source = 'originalSource' in entry ? sourceOf(entry.originalSource) : '(bundle, unmapped)';
    }
    bySource.set(source, (bySource.get(source) ?? 0) + delta / 1000);
  });
  return bySource;
}

function printTop(title: string, bySource: Map<string, number>, top: number): void {
  const total = [...bySource.values()].reduce((sum, ms) => sum + ms, 0);
  console.log(`  ${title}: ${total.toFixed(1)} ms sampled`);
  for (const [source, ms] of [...bySource].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`    ${ms.toFixed(1).padStart(7)}  ${source}`);
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const top = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 15;
const [folder, ...wanted] = args;
if (!folder) throw new Error('usage: bench/cold-profile.ts <BENCH_CPU_PROF folder> [function ...] [--top N]');
const files = readdirSync(folder);
for (const marksFile of files.filter((file) => /^marks-\d+\.json$/.test(file))) {
  const pid = /\d+/.exec(marksFile)?.[0];
  const marks = JSON.parse(readFileSync(join(folder, marksFile), 'utf8')) as Marks;
  const name = marks.bundle?.replace(/^.*\/functions\/(.*)\/index\.mjs$/, '$1') ?? '(node alone)';
  if (!marks.bundle || (wanted.length > 0 && !wanted.includes(name))) continue;
  const profileFile = files.find((file) => file.endsWith('.cpuprofile') && file.split('.')[3] === pid);
  if (!profileFile) continue;
  const profile = JSON.parse(readFileSync(join(folder, profileFile), 'utf8')) as Profile;
  const map = new SourceMap(JSON.parse(readFileSync(`${marks.bundle}.map`, 'utf8')));
  const at = (step: string) => marks.steps.find((s) => s.step === step)?.atUs ?? Number.NaN;
  const bundleUrl = pathToFileURL(marks.bundle).href;
  console.log(name);
  printTop('import', cpuBySource(profile, bundleUrl, map, at('import'), at('imported')), top);
  printTop('first invocation', cpuBySource(profile, bundleUrl, map, at('invocation'), at('invoked')), top);
}
