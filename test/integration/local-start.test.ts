// `npm start` as a newcomer meets it when it cannot start: a taken port is refused before anything runs,
// naming what holds it, and a start that fails or is interrupted half way leaves no child behind (a
// DynamoDB Local left running is a ~230 MB JVM nobody knows about). Each start runs in a process group
// of its own, so whatever it started, and whatever outlived it, is found by that group.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The processes in a process group, from /proc (the group's leader may be gone). */
function groupMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // "pid (comm) state ppid pgrp …": comm may hold spaces, so read after its closing paren.
      const [, ppid, pgrp] = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      if (Number(pgrp) === pgid) {
        const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
        members.push(`${pid} (parent ${ppid}): ${command}`);
      }
    } catch {
      // gone meanwhile
    }
  }
  return members;
}

interface Start {
  child: ChildProcess;
  dataDir: string;
  output: () => string;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const groups: number[] = [];

/** The pid file's [owner, DynamoDB Local], or [] while it is being written. */
function pidsIn(text: string): number[] {
  try {
    return (JSON.parse(text) as { pids: number[] }).pids;
  } catch {
    return [];
  }
}

/** `npm start` (the toolchain's start, as npm runs it), with its data in a folder of its own. */
function npmStart(env: Record<string, string>): Start {
  const dataDir = mkdtempSync(join(tmpdir(), 'local-start-'));
  const child = spawn(process.execPath, ['scripts/toolchain.mjs', 'start', '--', '--quiet'], {
    cwd: root,
    env: { ...process.env, LOCAL_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: the group's id is its pid
  });
  groups.push(child.pid as number);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, dataDir, output: () => output, ended };
}

const listening = (server: Server): Promise<number> =>
  new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  );

afterAll(() => {
  // Only if a test failed: nothing of a start may outlive it.
  for (const pgid of groups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // no such group: as it should be
    }
  }
});

describe('npm start that cannot start', () => {
  it('refuses a taken port before it starts anything, naming the process that holds it', async () => {
    const holder = createServer();
    const port = await listening(holder);
    try {
      const start = npmStart({ PORT: String(port) });
      const { code } = await start.ended;
      assert.equal(code, 1, start.output());
      assert.match(
        start.output(),
        new RegExp(`Port ${port} on 127\\.0\\.0\\.1 is already in use by pid ${process.pid} \\(`),
      );
      // Nothing was started: the pid file is written once DynamoDB Local is up, and no process is left.
      assert.ok(!existsSync(join(start.dataDir, 'stack.pid.json')), 'DynamoDB Local was started');
      assert.deepEqual(groupMembers(start.child.pid as number), []);
    } finally {
      holder.close();
    }
  });

  // A JVM's start on a busy machine takes what it takes: no test clock (the wait ends when the start does).
  it('stops every child it started when the start is interrupted half way (SIGTERM while starting)', {
    timeout: 0,
  }, async () => {
    const start = npmStart({ PORT: '0' });
    const pidFile = join(start.dataDir, 'stack.pid.json');
    // DynamoDB Local is up once its pid is in the file: interrupt the start then, with children running.
    let dynamoDbPid: number | undefined;
    while (dynamoDbPid === undefined && start.child.exitCode === null) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (existsSync(pidFile)) [, dynamoDbPid] = pidsIn(readFileSync(pidFile, 'utf8'));
    }
    assert.ok(dynamoDbPid, start.output());
    assert.ok(
      groupMembers(start.child.pid as number).some((member) => member.startsWith(`${dynamoDbPid} `)),
      'DynamoDB Local runs in the start’s group',
    );
    process.kill(start.child.pid as number, 'SIGTERM');
    const { code } = await start.ended;
    assert.notEqual(code, 0, start.output());
    assert.match(start.output(), /Could not start the local stack: interrupted by SIGTERM/);
    assert.deepEqual(groupMembers(start.child.pid as number), []);
  });
});
