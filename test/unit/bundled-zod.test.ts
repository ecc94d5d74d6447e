// What zod each function bundle carries, from esbuild's own account of it: the source check in
// layers.test.ts cannot see a dependency that imports classic zod (Powertools Parser's helpers do).
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { bundleEntries } from '../../esbuild.config.ts';
import { builtBundle } from '../support/bundle-metafile.ts';

describe('zod in the function bundles', () => {
  it('is zod/mini with the English locale alone: never classic zod, never another language', () => {
    const entries = bundleEntries();
    assert.ok(
      entries.some((entry) => entry.name.startsWith('workers/')),
      'the workers are checked too',
    );
    for (const entry of entries) {
      const zodFiles = builtBundle(entry)
        .output.filter((file) => file.startsWith('node_modules/zod/'))
        .map((file) => file.slice('node_modules/zod/'.length));
      assert.ok(zodFiles.includes('v4/mini/schemas.js'), `${entry.name} bundles zod/mini`);
      assert.ok(zodFiles.includes('v4/locales/en.js'), `${entry.name} bundles the English messages`);
      const beyond = zodFiles.filter((file) => !/^v4\/(?:core\/|mini\/|locales\/en\.js$)/.test(file));
      assert.deepEqual(beyond, [], `${entry.name} bundles zod beyond zod/mini and English`);
    }
    // One esbuild analysis per bundle (36 of them): on a busy 2-core machine past the suite's 60 s.
  }, 180_000);
});
