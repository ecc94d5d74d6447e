import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';

const lib = fileURLToPath(new URL('../../lib', import.meta.url));
const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/from '(\.\.?\/[^']+)'/g)].map((m) => m[1] as string);

describe('layers', () => {
  it('the HTTP chain (lib/http) imports no domain, no AWS client and no table code', () => {
    const allowed = new Set(['../config.ts', '../log.ts', '../routes.ts', '../zod.ts']);
    for (const file of readdirSync(join(lib, 'http'))) {
      for (const path of importsOf(join(lib, 'http', file))) {
        assert.ok(path.startsWith('./') || allowed.has(path), `lib/http/${file} imports ${path}`);
      }
    }
  });

  it("a domain reads another domain's data through its service, never its repo", () => {
    for (const domain of ['assets', 'auth', 'beneficiaries', 'connectors', 'quotes', 'wallets']) {
      for (const file of readdirSync(join(lib, domain))) {
        for (const path of importsOf(join(lib, domain, file))) {
          const other = /^\.\.\/(\w+)\/repo\.ts$/.exec(path)?.[1];
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
});
