// npm 11 warns at every `npm ci` ("install scripts not yet covered by allowScripts") about each dependency
// with an install script that package.json's allowScripts does not decide, and npm 12 will not run them.
// Each is decided here: esbuild's (it checks its platform binary) runs; @scarf/scarf's (install telemetry,
// pulled in by swagger-ui-dist) does not.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';

const read = (file: string) => JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));

describe('install scripts', () => {
  it('decides every dependency that has one in package.json allowScripts, by name (the lock pins the version)', () => {
    const lock = read('package-lock.json') as {
      packages: Record<string, { version?: string; hasInstallScript?: boolean }>;
    };
    const allowScripts =
      (read('package.json') as { allowScripts?: Record<string, boolean> }).allowScripts ?? {};
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([path, entry]) => ({ name: path.replace(/^.*node_modules\//, ''), version: entry.version }));
    assert.ok(withScripts.length > 0);
    for (const { name, version } of withScripts) {
      const decided = allowScripts[`${name}@${version}`] ?? allowScripts[name];
      assert.equal(
        typeof decided,
        'boolean',
        `${name}@${version} has an install script allowScripts does not decide`,
      );
    }
    // By name: npm matches a pinned entry against the lock's download URL, which our lock does not keep,
    // so `esbuild@<version>` still drew npm's install-scripts warning.
    assert.equal(allowScripts.esbuild, true);
    assert.equal(allowScripts['@scarf/scarf'], false);
  });
});
