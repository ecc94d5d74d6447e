import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { bundleEntries } from '../../esbuild.config.ts';
import { type BundleMakeup, builtBundle, bundleMetafile } from '../support/bundle-metafile.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The repository files a bundle is made of, as esbuild resolves them. */
const repositoryFiles = ({ inputs }: BundleMakeup) =>
  inputs.filter((input) => !input.startsWith('node_modules/'));

describe('platform index', () => {
  it('is bundled by no API function: tenant routes reach items only through keys of their own tenant', () => {
    const api = bundleEntries().filter((entry) => entry.name.startsWith('api/'));
    assert.ok(api.length >= 8, 'every API function is checked');
    for (const entry of api) {
      const files = repositoryFiles(builtBundle(entry));
      const { name } = entry;
      assert.ok(files.includes('lib/routes.ts'), `${name}: the metafile lists repository files`);
      assert.ok(!files.includes('lib/db/platform-index.ts'), `${name} bundles the platform index`);
    }
  });

  // One module bundled in memory: CPU-bound work, so no wall clock a busy machine could break (timeout 0).
  it('is what the admin CLI uses for look-ups by id alone', { timeout: 0 }, async () => {
    const admin = await bundleMetafile(join(root, 'lib', 'admin', 'wallets.ts'));
    assert.ok(repositoryFiles(admin).includes('lib/db/platform-index.ts'));
  });
});
