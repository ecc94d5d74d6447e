import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import {
  backUpImports,
  cyclesOf,
  edgesWithin,
  LAYERS,
  layerOf,
  importsOf as resolvedImportsOf,
  sourcesOf,
} from '../../scripts/import-graph.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const lib = join(root, 'lib');
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)].map((m) => m[1] as string);

/** Every source file a function bundle is built from: functions/ and what it can reach in lib/. */
const bundledSources = ['lib', 'functions'].flatMap((dir) =>
  readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => join(dir, file)),
);
/** The zod entry points a file names: static and type imports, re-exports, dynamic imports, require. */
const zodImportsOf = (file: string) =>
  [
    ...readFileSync(join(root, file), 'utf8').matchAll(
      /(?:\bfrom|\bimport|\brequire)\s*\(?\s*['"](zod(?:\/[^'"]*)?)['"]/g,
    ),
  ].map((m) => m[1] as string);

describe('layers', () => {
  it(`lib/ is ${LAYERS.map((l) => l.name).join(' < ')}, and every file of it is in one of them`, () => {
    const unplaced = sourcesOf('lib').filter((file) => layerOf(file) === undefined);
    assert.deepEqual(unplaced, [], 'name each in a layer of scripts/import-graph.ts');
  });

  it('no import runs back up the layers', () => {
    const upward = backUpImports(edgesWithin('lib')).map(({ from, to }) => `${from} -> ${to}`);
    assert.deepEqual(upward, []);
  });

  it("no import cycle in lib/, nor in local/ outside the local ledger's own", () => {
    assert.deepEqual(cyclesOf(edgesWithin('lib')), []);
    const cycles = cyclesOf(edgesWithin('local')).filter((cycle) =>
      cycle.some((file) => !file.startsWith('local/ledger/')),
    );
    assert.deepEqual(cycles, []);
  });

  it('lib/ is what ships: nothing in lib/ or functions/ imports the local stack (local/)', () => {
    const local = [...sourcesOf('lib'), ...sourcesOf('functions')].flatMap((file) =>
      resolvedImportsOf(file)
        .filter((path) => path.startsWith('local/'))
        .map((path) => `${file} -> ${path}`),
    );
    assert.deepEqual(local, []);
  });

  it('the HTTP chain (lib/http) imports no domain, no AWS client and no table code', () => {
    // trace.ts, like log.ts, is cross-cutting and imports nothing but node: modules.
    const allowed = new Set([
      '../config.ts',
      '../log.ts',
      '../routes.ts',
      '../tenant.ts',
      '../trace.ts',
      '../zod.ts',
    ]);
    for (const file of readdirSync(join(lib, 'http'))) {
      for (const path of importsOf(join(lib, 'http', file))) {
        assert.ok(path.startsWith('./') || allowed.has(path), `lib/http/${file} imports ${path}`);
      }
    }
  });

  it("a domain reads another domain's data through its service, never its repo", () => {
    for (const domain of [
      'assets',
      'auth',
      'beneficiaries',
      'connectors',
      'customers',
      'onramp-references',
      'payments',
      'providers',
      'quotes',
      'wallets',
    ]) {
      const files = readdirSync(join(lib, domain), { recursive: true, encoding: 'utf8' });
      for (const file of files.filter((f) => f.endsWith('.ts'))) {
        for (const path of importsOf(join(lib, domain, file))) {
          // The domain a repo belongs to, wherever in the domain's folder the importing file sits.
          const resolved = relative(lib, join(lib, domain, dirname(file), path));
          const other = /^([\w-]+)\/repo\.ts$/.exec(resolved)?.[1];
          // Record types may be shared; reading through another domain's repo may not.
          if (other && other !== domain) {
            const line = readFileSync(join(lib, domain, file), 'utf8')
              .split('\n')
              .find((l) => l.includes(path));
            assert.match(line ?? '', /^import type /, `lib/${domain}/${file} reads ${path}`);
          }
        }
      }
    }
  });

  it('nothing under lib/ or functions/ imports classic zod (~65 KiB more a bundle than zod/mini)', () => {
    // Classic is `zod` itself and its versioned paths (`zod/v4`, `zod/v3`); type imports count too, as a
    // classic type is the first step to a classic value.
    const classic = (entry: string) => !/^zod\/(?:v4\/)?(?:mini|core|locales|v4-mini)(?:\/|$)/.test(entry);
    for (const file of bundledSources) {
      const imported = zodImportsOf(file).filter(classic);
      assert.deepEqual(
        imported,
        [],
        `${file} imports ${imported.join(', ')}: use zod/mini through lib/zod.ts`,
      );
    }
  });

  it('schemas reach zod/mini only through lib/zod.ts, which sets its English messages', () => {
    for (const file of bundledSources) {
      if (file === join('lib', 'zod.ts')) continue;
      const imported = zodImportsOf(file);
      assert.deepEqual(imported, [], `${file} imports ${imported.join(', ')}: import * as z from lib/zod.ts`);
    }
  });
});
