// A bench section run on its own (`node scripts/toolchain.mjs node bench/<section>.ts`): a stack of its
// own in .local/, the section, then the stack stopped and its folder removed, whatever happens.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LocalStack } from '../local/stack.ts';
import { liftBenchLimits } from './lifted-limits.ts';

/** True when `moduleUrl` is the script node was asked to run. */
export const isMain = (moduleUrl: string): boolean =>
  Boolean(process.argv[1]) && fileURLToPath(moduleUrl) === process.argv[1];

export async function runAlone(name: string, capMs: number, measure: (stack: LocalStack) => Promise<void>) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const workDir = join(root, '.local', `bench-${name}-${process.pid}`);
  liftBenchLimits();
  const { startStack } = await import('../local/stack.ts');
  const stack = await startStack({
    port: 0,
    dataDir: workDir,
    dynamoDbDir: join(root, '.local', 'dynamodb'),
  });
  const stop = async (code: number) => {
    await stack.stop();
    rmSync(workDir, { recursive: true, force: true });
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(130));
  process.on('SIGTERM', () => void stop(143));
  setTimeout(() => void stop(1), capMs + 60_000).unref();
  await measure(stack).then(
    () => stop(0),
    (error: Error) => {
      console.error(error);
      return stop(1);
    },
  );
}
