// What of the Stellar SDK the function bundles carry, from esbuild's own account of them: the builders
// and the XDR where transactions are built, never the SDK's Horizon client (its Server, HTTP client and
// event streams). Every Horizon request goes over node:http (lib/ledger/horizon-json.ts); a value import
// of the SDK's `Horizon` namespace (`new Horizon.AccountResponse`, `new Horizon.Server`) would bring
// the whole client back into every cold start that builds a transaction (lib/ledger/load-account.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { bundleEntries } from '../../esbuild.config.ts';
import { builtBundle } from '../support/bundle-metafile.ts';

const horizonClient = [
  '@stellar/stellar-sdk/lib/esm/horizon/server.js',
  '@stellar/stellar-sdk/lib/esm/horizon/call_builder.js',
  '@stellar/stellar-sdk/lib/esm/http-client/',
  'node_modules/feaxios/',
  'node_modules/eventsource/',
];

describe('the Stellar SDK in the function bundles', () => {
  it('builds transactions where the bundle needs to, without the Horizon client', () => {
    const submitter = bundleEntries().find((entry) => entry.name === 'workers/ledger-submitter');
    assert.ok(submitter, 'the ledger-submitter is a function');
    assert.ok(
      builtBundle(submitter).output.some((file) =>
        file.endsWith('@stellar/stellar-sdk/lib/esm/base/transaction_builder.js'),
      ),
      'the submitter builds transactions with the SDK',
    );
    for (const entry of bundleEntries()) {
      const carried = builtBundle(entry).output.filter((file) =>
        horizonClient.some((part) => file.includes(part)),
      );
      assert.deepEqual(carried, [], `${entry.name} bundles the SDK's Horizon client`);
    }
  }, 180_000);
});
