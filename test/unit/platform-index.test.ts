import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { bundleEntries } from '../../esbuild.config.ts';
import { bundleMetafile } from '../support/bundle-metafile.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The repository files an entry point's bundle is made of, as esbuild resolves them. */
const bundledFiles = async (source: string) =>
  (await bundleMetafile(source)).inputs.filter((input) => !input.startsWith('node_modules/'));

describe('platform index', () => {
  it('is bundled by no API function: tenant routes reach items only through keys of their own tenant', async () => {
    const api = bundleEntries().filter((entry) => entry.name.startsWith('api/'));
    assert.ok(api.length >= 8, 'every API function is checked');
    const inputs = await Promise.all(
      api.map(async (entry) => [entry.name, await bundledFiles(entry.source)] as const),
    );
    for (const [name, files] of inputs) {
      assert.ok(files.includes('lib/routes.ts'), `${name}: the metafile lists repository files`);
      assert.ok(!files.includes('lib/db/platform-index.ts'), `${name} bundles the platform index`);
    }
  });

  it('is what the admin CLI uses for look-ups by id alone', async () => {
    assert.ok(
      (await bundledFiles(join(root, 'lib', 'admin', 'wallets.ts'))).includes('lib/db/platform-index.ts'),
    );
  });
});
