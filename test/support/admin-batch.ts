// Many runs of the admin CLI in one process of its own (admin-batch-process.ts), where the runs are
// independent and share one environment: a Node process and its imports once, instead of once a run.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** What a run's own process would have shown. */
export interface AdminRun {
  args: string[];
  code: number;
  stdout: string;
  stderr: string;
}

/** What precedes the runs' JSON on the batch process's stdout. */
export const RESULTS_MARKER = '--- admin runs ---';

const batchProcess = fileURLToPath(new URL('./admin-batch-process.ts', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the CLI with each argument list, one after the other: each run's exit code, stdout and stderr. */
export function adminRuns(argLists: string[][], env: NodeJS.ProcessEnv = process.env): Promise<AdminRun[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [batchProcess],
      { cwd: root, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`the admin batch failed: ${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout.slice(stdout.lastIndexOf(RESULTS_MARKER) + RESULTS_MARKER.length)));
      },
    );
    child.stdin?.end(JSON.stringify(argLists));
  });
}
