// AWS's DynamoDB Local (the jar, run with Java), in memory by default: every start begins from an empty
// table that the stack creates and seeds, so runs never depend on what an earlier one left behind. With
// `dbPath` it keeps its database in a file there instead (-dbPath): what it holds then grows on disk,
// not in the JVM's memory (docs/local-stack.md has the figures).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, waitForPort } from './ports.ts';

export interface DynamoDbLocal {
  endpoint: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The JVM's options: the client compiler only (C1, no C2) and the serial collector. DynamoDB Local's runs
 * here are short (a test file's, a bench run's: tens of thousands of calls) on 2 cores, where C2's
 * compilations and G1's concurrent threads cost more CPU than their faster code saves: bench/dynamodb-jvm.ts
 * measures each choice on the same calls, interleaved (docs/bench.md "DynamoDB Local's JVM").
 */
export const DYNAMODB_LOCAL_JVM_OPTIONS = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

export async function startDynamoDbLocal(
  installDir: string,
  {
    port,
    dbPath,
    jvmOptions = DYNAMODB_LOCAL_JVM_OPTIONS,
  }: { port?: number; dbPath?: string; jvmOptions?: string[] } = {},
): Promise<DynamoDbLocal> {
  const jar = join(installDir, 'DynamoDBLocal.jar');
  if (!existsSync(jar))
    throw new Error(`DynamoDB Local is not installed at ${installDir}; run npm start or npm test`);
  const listenPort = port ?? (await freePort());
  const child: ChildProcess = spawn(
    'java',
    [
      `-Djava.library.path=${join(installDir, 'DynamoDBLocal_lib')}`,
      '-Xms64m',
      ...jvmOptions,
      '-jar',
      jar,
      ...(dbPath === undefined ? ['-inMemory'] : ['-dbPath', dbPath]),
      // One database whatever region or access key a client signs with (by default DynamoDB Local keeps
      // one per pair): the admin CLI signs for a deployed stage's region when tests point it here.
      '-sharedDb',
      '-disableTelemetry',
      '-port',
      String(listenPort),
    ],
    { cwd: installDir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await Promise.race([
      waitForPort(listenPort, 'DynamoDB Local'),
      exited.then(() => {
        throw new Error(`DynamoDB Local exited at start: ${stderr}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    endpoint: `http://127.0.0.1:${listenPort}`,
    pid: child.pid ?? -1,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited; // gone, not merely told to go: a caller that exits next leaves no JVM behind
      }
    },
  };
}
