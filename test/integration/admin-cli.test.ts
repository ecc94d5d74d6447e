// The admin CLI as the platform team runs it: a real process against the test stack's table and secrets.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import BigNumber from 'bignumber.js';
import { describe, it } from 'vitest';
import { STAGE_OUTPUT_VARIABLES } from '../../lib/admin/stage-outputs.ts';
import { hashCredential, keyIdOf } from '../../lib/auth/credentials.ts';
import { noEmailIdentity } from '../../lib/notifications/email-identity.ts';
import { secretIdVariable } from '../../lib/secret-names.ts';
import { declaredStages, stageTargetOf } from '../../lib/stage-targets.ts';
import { freePort } from '../../local/ports.ts';
import { startLocalSecretsManager } from '../../local/secrets-manager.ts';
import { adminRuns } from '../support/admin-batch.ts';
import { call, horizon, testJwks, testSigningKeyRing, tokenFor } from '../support/api.ts';
import {
  type CloudFormationSimulator,
  type SimulatedAccount,
  type SimulatedCertificate,
  type SimulatedStack,
  startCloudFormationSimulator,
} from '../support/cloudformation-simulator.ts';
import { bankDestination } from '../support/fixtures.ts';

const run = promisify(execFile);

async function admin(...args: string[]) {
  const { stdout } = await run(process.execPath, ['scripts/admin.ts', ...args], { env: process.env });
  return JSON.parse(stdout);
}

describe('admin CLI', () => {
  it('lists every command in --help', async () => {
    const { stdout } = await run(process.execPath, ['scripts/admin.ts', '--help']);
    for (const command of [
      'preflight',
      'tenant create',
      'apikey add',
      'apikey revoke',
      'client add',
      'client revoke',
      'assets load',
      'keys rotate',
      'channels open',
      'ledger status',
      'ledger sandbox-assets',
      'ledger sandbox-liquidity',
      'assets seed',
      'limits show',
      'limits set',
      'limits clear',
    ]) {
      assert.ok(stdout.includes(command), command);
    }
  });

  it('sets, shows and clears an application’s request limit of a group', async () => {
    const tenant = await admin('tenant', 'create', '--name', 'Limits Co');
    const id = tenant.applicationId;
    const reads = (shown: { group: string; source: string }[]) =>
      shown.find((limit) => limit.group === 'reads');
    const set = await admin(
      'limits',
      'set',
      '--application',
      id,
      '--group',
      'reads',
      '--quota',
      '5',
      '--window',
      '10',
    );
    assert.deepEqual(reads(set), {
      group: 'reads',
      quota: 5,
      windowSeconds: 10,
      source: 'set',
      inWords: '5 requests per 10 s (30/min steady, bursts of 5)',
    });
    assert.deepEqual(reads(await admin('limits', 'show', '--application', id)), reads(set));
    const cleared = await admin('limits', 'clear', '--application', id, '--group', 'reads');
    assert.equal(reads(cleared)?.source, 'default');
  });

  it('creates a tenant whose credentials work over HTTP, and adds and revokes keys and clients', async () => {
    const tenant = await admin('tenant', 'create', '--name', 'CLI Co', '--environment', 'sandbox');
    assert.deepEqual(Object.keys(tenant).sort(), [
      'apiKey',
      'applicationId',
      'associationId',
      'clientId',
      'clientSecret',
      'environment',
    ]);
    const token = await tokenFor(tenant);
    assert.equal((await call('/assets', { apiKey: tenant.apiKey, token })).status, 200);

    const { apiKey: secondKey } = await admin('apikey', 'add', '--application', tenant.applicationId);
    const listed = await admin('credentials', 'list', '--application', tenant.applicationId);
    assert.equal(listed.apiKeys.length, 2);
    assert.ok(
      !JSON.stringify(listed).includes(tenant.apiKey) &&
        !JSON.stringify(listed).includes(tenant.clientSecret),
    );

    const firstKeyId = keyIdOf(hashCredential(tenant.apiKey));
    assert.ok(listed.apiKeys.some((k: { keyId: string }) => k.keyId === firstKeyId));
    await admin('apikey', 'revoke', '--application', tenant.applicationId, '--key-id', firstKeyId);
    await admin('apikey', 'revoke', '--api-key', secondKey);
    assert.equal((await call('/assets', { apiKey: tenant.apiKey, token })).status, 401);
    assert.equal((await call('/assets', { apiKey: secondKey, token })).status, 401);

    const { apiKey: thirdKey } = await admin('apikey', 'add', '--application', tenant.applicationId);
    const orphan = await admin('client', 'add', '--application', tenant.applicationId, '--no-association');
    assert.equal(orphan.associationId, null);
    const orphanToken = await tokenFor({ ...orphan, apiKey: thirdKey });
    assert.equal((await call('/assets', { apiKey: thirdKey, token: orphanToken })).status, 403);

    const bound = await admin('client', 'add', '--application', tenant.applicationId);
    assert.equal(bound.associationId, tenant.associationId);
    await admin('client', 'revoke', '--client-id', bound.clientId);
    const refused = await call('/auth/token', {
      method: 'POST',
      apiKey: thirdKey,
      body: { clientId: bound.clientId, clientSecret: bound.clientSecret },
    });
    assert.equal(refused.status, 401);
  });

  it("refuses to bind a client to another tenant's association, the other environment's or none that exists", async () => {
    const [own, other, production] = await Promise.all([
      admin('tenant', 'create', '--name', 'Own Co', '--environment', 'sandbox'),
      admin('tenant', 'create', '--name', 'Other Co', '--environment', 'sandbox'),
      admin('tenant', 'create', '--name', 'Prod Co', '--environment', 'production'),
    ]);
    const associations = [other.associationId, production.associationId, crypto.randomUUID()];
    const answers = await adminRuns(
      associations.map((association) => [
        'client',
        'add',
        '--application',
        own.applicationId,
        '--association',
        association,
      ]),
    );
    for (const [index, failed] of answers.entries()) {
      const association = associations[index];
      assert.equal(failed.code, 1, `bound a client to ${association}`);
      assert.equal(failed.stdout, '', 'no client printed');
      assert.equal(
        failed.stderr,
        `Association ${association} is not application ${own.applicationId}'s: a client can only be bound to its application's own association (${own.associationId}, sandbox).\n`,
      );
    }
    // Nothing was written; its own association, named or by default, is still taken.
    assert.equal((await admin('credentials', 'list', '--application', own.applicationId)).clients.length, 1);
    const named = await admin(
      'client',
      'add',
      '--application',
      own.applicationId,
      '--association',
      own.associationId,
    );
    assert.equal(named.associationId, own.associationId);
  });

  it('loads registry entries and refuses an invalid file without writing any of it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'registry-'));
    const good = join(dir, 'good.json');
    const entry = {
      assetCode: 'ZARC',
      assetIssuer: 'GBBD47IF6LWK7P7MDEVSCWR7DPUWV3NY3DTQEVFL4NAT4AQH3ZLLFLA5',
      assetType: 'credit_alphanum4',
      name: 'Rand Coin',
      decimals: 2,
      networkName: 'stellar-testnet',
    };
    writeFileSync(good, JSON.stringify([entry]));
    assert.deepEqual((await admin('assets', 'load', '--environment', 'sandbox', '--file', good)).loaded, [
      'ZARC',
    ]);
    const tenant = await admin('tenant', 'create', '--name', 'Reader');
    const token = await tokenFor(tenant);
    const read = await call('/assets/zarc', { apiKey: tenant.apiKey, token });
    assert.equal(read.status, 200);
    assert.equal(read.body.name, 'Rand Coin');

    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify([
        { ...entry, assetCode: 'OKAY' },
        { ...entry, assetCode: 'bad code' },
      ]),
    );
    await assert.rejects(admin('assets', 'load', '--environment', 'sandbox', '--file', bad), /assetCode/);
    assert.equal((await call('/assets/OKAY', { apiKey: tenant.apiKey, token })).status, 404);
  });

  it("seeds the production registry this repository keeps, and refuses to seed the sandbox's", async () => {
    assert.deepEqual(await admin('assets', 'seed', '--environment', 'production'), {
      environment: 'production',
      loaded: ['XLM', 'USDC', 'EURC'],
    });
    const refused = await run(
      process.execPath,
      ['scripts/admin.ts', 'assets', 'seed', '--environment', 'sandbox'],
      {
        env: process.env,
      },
    ).then(
      () => assert.fail('seeded the sandbox'),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /ledger sandbox-assets/);
  });

  it('rotates the signing key while tokens signed with the previous key stay valid', async () => {
    const tenant = await admin('tenant', 'create', '--name', 'Rotation');
    const before = await tokenFor(tenant);
    const kidOf = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString()).kid as string;
    const previous = testSigningKeyRing();
    const rotated = await admin('keys', 'rotate');
    // The rotation ran in the stack's rotation function: the CLI saw no key, only the new version.
    assert.deepEqual(Object.keys(rotated).sort(), ['secret', 'versionId']);
    const ring = testSigningKeyRing();
    assert.equal(ring.keys.length, 2);
    assert.equal(ring.keys[0]?.kid, ring.activeKid);
    // A new key became active; the one that signed `before` is kept beside it, not replaced.
    assert.notEqual(ring.activeKid, kidOf(before));
    assert.equal(ring.keys[1]?.kid, previous.activeKid);
    assert.equal(ring.keys[1]?.kid, kidOf(before));
    // The public JWKS was published with it: both keys, no private part.
    const jwks = testJwks();
    assert.deepEqual(
      jwks.keys.map((k) => k.kid),
      ring.keys.map((k) => k.kid),
    );
    assert.ok(jwks.keys.every((k) => !('d' in k)));
    assert.equal((await call('/assets', { apiKey: tenant.apiKey, token: before })).status, 200);
  });
});

/** A new tenant's third-party wallet, Pending its KYC review. */
async function thirdPartyWallet(name: string) {
  const tenant = await admin('tenant', 'create', '--name', name);
  const token = await tokenFor(tenant);
  const created = await call('/wallets', {
    method: 'POST',
    apiKey: tenant.apiKey,
    token,
    body: {
      walletName: 'Third party',
      assetCode: 'USDC',
      metadata: {
        entityType: 'Business',
        registeredName: 'B',
        registrationNumber: '1',
        registrationCountry: 'ZA',
      },
    },
  });
  return { tenant, token, created };
}

describe('admin CLI: KYC review', () => {
  it('ends a Pending wallet’s review once, and says so when it already ended', async () => {
    const { tenant, token, created } = await thirdPartyWallet('KYC Co');
    assert.equal(created.body.status, 'Pending');
    const reviewed = await admin('wallet', 'review', '--wallet', created.body.id, '--decision', 'Rejected');
    assert.deepEqual(reviewed, { walletId: created.body.id, status: 'Rejected' });
    const read = await call(`/wallets/${created.body.id}`, { apiKey: tenant.apiKey, token });
    assert.equal(read.body.status, 'Rejected');
    await assert.rejects(
      admin('wallet', 'review', '--wallet', created.body.id, '--decision', 'Verified'),
      /already ended/,
    );
  });
});

describe('admin CLI: every ordinary mistake in one line', () => {
  /** A command that must fail: its exit code and what it printed. */
  const failing = (...args: string[]) =>
    run(process.execPath, ['scripts/admin.ts', ...args], { env: process.env }).then(
      () => assert.fail(`${args.join(' ')} succeeded`),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  const assertOneLine = (failed: { code: number; stderr: string }, command: string) => {
    assert.notEqual(failed.code, 0, command);
    assert.equal(failed.stderr.split('\n').filter(Boolean).length, 1, `${command}: ${failed.stderr}`);
    assert.doesNotMatch(failed.stderr, /^\s+at /m, command);
    assert.doesNotMatch(failed.stderr, /Node\.js v/, command);
  };

  it('answers each command given a bad argument, and a second decision, with one line and a non-zero exit', {
    timeout: 240_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-mistakes-'));
    const notJson = join(dir, 'registry.json');
    writeFileSync(notJson, '[{"assetCode": ');
    const missing = join(dir, 'missing.json');
    const nobody = crypto.randomUUID();
    const mistakes = [
      ['preflight'],
      ['tenant', 'create', '--name', 'Mistake Co', '--kind', 'robot'],
      // A mistyped option is answered with the command's usage as well: admin-cli-first-use.test.ts.
      ['apikey', 'add', '--application', nobody],
      ['apikey', 'revoke', '--api-key', 'pgw_sandbox_not-a-key'],
      ['apikey', 'revoke', '--application', nobody, '--key-id', 'nope'],
      ['client', 'add', '--application', nobody],
      ['client', 'revoke', '--client-id', nobody],
      ['credentials', 'list', '--application', nobody],
      ['assets', 'load', '--file', missing],
      ['assets', 'load', '--file', notJson],
      ['assets', 'seed'],
      ['keys', 'rotate', '--secret', 'master-key'],
      ['keys', 'status', '--stage', 'nowhere'],
      ['connectors', 'load', '--file', missing],
      [
        'fees',
        'set',
        '--association',
        nobody,
        '--connector',
        'x',
        '--transaction-type',
        'B2C',
        '--fixed',
        '1',
      ],
      ['fees', 'clear', '--association', nobody, '--connector', 'x', '--transaction-type', 'X2Y'],
      ['fees', 'list', '--association', nobody],
      ['wallet', 'review', '--wallet', nobody, '--decision', 'Verified'],
      ['wallet', 'review', '--wallet', nobody, '--decision', 'Maybe'],
      ['destination', 'review', '--destination', nobody, '--decision', 'APPROVED'],
      ['ledger', 'status', '--environment', 'staging'],
      ['channels', 'open', '--count', '0'],
      ['ledger', 'sandbox-assets', '--stage', 'nowhere'],
      ['ledger', 'sandbox-liquidity', '--stage', 'nowhere'],
      ['wallets', 'list'],
    ];
    // They are independent: one process runs them all, each as its own process would have answered.
    for (const answer of await adminRuns(mistakes)) assertOneLine(answer, answer.args.join(' '));

    // Already decided: a wallet reviewed twice, a destination approved twice.
    const { tenant, token, created: wallet } = await thirdPartyWallet('Twice Co');
    await admin('wallet', 'review', '--wallet', wallet.body.id, '--decision', 'Verified');
    const again = await failing('wallet', 'review', '--wallet', wallet.body.id, '--decision', 'Rejected');
    assertOneLine(again, 'wallet review, again');
    assert.match(again.stderr, /already ended/);

    const beneficiary = await call('/beneficiaries', {
      method: 'POST',
      apiKey: tenant.apiKey,
      token,
      body: { individual: { firstName: 'Thandi', lastName: 'Nkosi' } },
    });
    const destination = await call(`/beneficiaries/${beneficiary.body.id}/payment-destinations`, {
      method: 'POST',
      apiKey: tenant.apiKey,
      token,
      body: bankDestination,
    });
    assert.equal(destination.status, 201, JSON.stringify(destination.body));
    await admin('destination', 'review', '--destination', destination.body.id, '--decision', 'APPROVED');
    const twice = await failing(
      'destination',
      'review',
      '--destination',
      destination.body.id,
      '--decision',
      'APPROVED',
    );
    assertOneLine(twice, 'destination review, again');
    assert.match(twice.stderr, /already ended/);
  });

  it('prints the stack trace as well with --debug', async () => {
    const failed = await failing(
      'wallet',
      'review',
      '--wallet',
      crypto.randomUUID(),
      '--decision',
      'Verified',
      '--debug',
    );
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /^AdminRefusal: No wallet /);
    assert.match(failed.stderr, /^\s+at reviewWallet /m);
  });
});

describe('admin CLI: ledger accounts, through the ledger admin function', () => {
  it('reports the funding account and the channel pool: open, XLM held, leases, never a secret', async () => {
    const fundingXlm = async (publicKey: string) =>
      new BigNumber(
        (await horizon(`/accounts/${publicKey}`)).balances.find(
          (b: { asset_type: string }) => b.asset_type === 'native',
        ).balance,
      );
    const status = await admin('ledger', 'status', '--environment', 'sandbox');
    assert.equal(status.environment, 'sandbox');
    assert.equal(status.network.horizonUrl, process.env.HORIZON_URL_SANDBOX);
    // Other test files' payments spend the funding account's XLM (reserves, fees) meanwhile, and it only
    // ever pays: the figure reported is the ledger's of a moment ago, so at least what it holds now and
    // not more than a few payments' worth above it.
    assert.deepEqual(Object.keys(status.funding).sort(), ['open', 'publicKey', 'xlm']);
    assert.equal(status.funding.open, true);
    assert.match(status.funding.xlm, /^\d+\.\d{7}$/);
    const after = await fundingXlm(status.funding.publicKey);
    assert.ok(after.lte(status.funding.xlm), `${after} ≤ ${status.funding.xlm}`);
    assert.ok(after.gt(new BigNumber(status.funding.xlm).minus(1)), 'within what a few payments spend');
    assert.equal(status.channelsConfigured, Number(process.env.LEDGER_CHANNELS ?? 16));
    assert.equal(status.channels.length, status.channelsConfigured);
    assert.ok(status.channels.every((c: { open: boolean; xlm: string }) => c.open && Number(c.xlm) > 0));
    assert.doesNotMatch(JSON.stringify(status), /sealed|secret|"S[A-Z2-7]{55}"/i);
  });

  it("finds the local sandbox's genesis pools holding liquidity: nothing submitted, their reserves in ledger status", async () => {
    const filled = await admin('ledger', 'sandbox-liquidity');
    assert.equal(filled.openedBy, null);
    assert.equal(filled.summary, 'Every sandbox pool already holds liquidity: nothing was submitted.');
    // Other test files swap through these pools meanwhile: the reserves move, the pairs do not.
    const { pools } = await admin('ledger', 'status', '--environment', 'sandbox');
    assert.deepEqual(
      pools.map((pool: { pair: string; reserves: Record<string, string> }) => [
        pool.pair,
        Object.keys(pool.reserves).sort(),
      ]),
      [
        ['XLM/USDC', ['USDC', 'XLM']],
        ['XLM/EURC', ['EURC', 'XLM']],
        ['EURC/USDC', ['EURC', 'USDC']],
      ],
    );
  });

  it('answers a payload it cannot take with the reason, and an unknown function as Lambda does', async () => {
    const lambda = new LambdaClient({});
    try {
      const invoke = async (FunctionName: string, payload: unknown) => {
        const answer = await lambda.send(
          new InvokeCommand({ FunctionName, Payload: new TextEncoder().encode(JSON.stringify(payload)) }),
        );
        return JSON.parse(new TextDecoder().decode(answer.Payload));
      };
      const name = String(process.env.LEDGER_ADMIN_FUNCTION);
      const refused = await invoke(name, { action: 'open-channels', environment: 'sandbox', count: 1001 });
      assert.equal(refused.ok, false);
      assert.match(refused.error, /^Invalid request: count: /);
      assert.match((await invoke(name, { action: 'drop-table', environment: 'sandbox' })).error, /action/);
      assert.match((await invoke(name, { action: 'status', environment: 'sandbox', x: 1 })).error, /x/);
      await assert.rejects(invoke('no-such-function', {}), { name: 'ResourceNotFoundException' });
    } finally {
      lambda.destroy();
    }
    // The CLI says so in one line: a stage whose output names a function that is not there (or not ours).
    const failed = await run(process.execPath, ['scripts/admin.ts', 'ledger', 'status'], {
      env: { ...process.env, LEDGER_ADMIN_FUNCTION: 'no-such-function' },
    }).then(
      () => assert.fail('invoked a missing function'),
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failed.code, 1);
    assert.match(failed.stderr, /^Could not invoke no-such-function: ResourceNotFoundException: /);
    assert.equal(failed.stderr.split('\n').filter(Boolean).length, 1);
  });

  it('opens hundreds of channel accounts the ledger lacks, 100 a transaction, once', async () => {
    // The seed's pool (LEDGER_CHANNELS of them) is open from the ledger's genesis: the rest are missing.
    const seeded = Number(process.env.LEDGER_CHANNELS ?? 16);
    const count = 250;
    const open = () => admin('channels', 'open', '--environment', 'sandbox', '--count', String(count));
    // A slow ledger (or machine) may leave batches for the next run: the answer says to run it again.
    let first = await open().catch((error: { stderr: string }) => error);
    for (let run = 2; 'stderr' in first && /run the same command again/.test(first.stderr) && run <= 4; run++)
      first = await open().catch((error: { stderr: string }) => error);
    assert.equal(first.channels.length, count);
    assert.equal(first.openedBy.length, 3, 'channels 0-99, 100-199 and 200-249');
    const opened: string[] = [];
    for (const hash of first.openedBy as string[]) {
      assert.match(hash, /^[0-9a-f]{64}$/);
      const operations = await horizon(`/transactions/${hash}/operations?limit=200`);
      opened.push(...operations._embedded.records.map((o: { account: string }) => o.account));
    }
    assert.deepEqual(
      opened.sort(),
      first.channels
        .slice(seeded)
        .map((c: { publicKey: string }) => c.publicKey)
        .sort(),
    );
    // The same pool again is the same intents: their recorded outcomes, nothing submitted.
    const again = await open();
    assert.deepEqual(again.openedBy, first.openedBy);
    assert.deepEqual(
      again.channels.map((c: { publicKey: string }) => c.publicKey),
      first.channels.map((c: { publicKey: string }) => c.publicKey),
    );
    await assert.rejects(admin('channels', 'open', '--environment', 'sandbox', '--count', '0'));
    await assert.rejects(admin('channels', 'open', '--environment', 'sandbox', '--count', '1001'));
    // Only stops a hung run: up to four CLI runs, each a function invocation of up to 60 s.
  }, 300_000);
});

describe('admin CLI: keys status after a deploy', () => {
  it('fails, one line per key secret, while a secret has no current version (its first rotation has not run)', async () => {
    // A stage just created: its key secrets exist, empty, as CloudFormation leaves them.
    const ids = Object.values(secretIdVariable).map((variable) => `fresh/${variable.toLowerCase()}`);
    const secrets = await startLocalSecretsManager(mkdtempSync(join(tmpdir(), 'fresh-secrets-')), 0, {
      declared: ids,
    });
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint };
      for (const [index, variable] of Object.values(secretIdVariable).entries()) env[variable] = ids[index];
      const failed = await run(process.execPath, ['scripts/admin.ts', 'keys', 'status'], { env }).then(
        () => assert.fail('keys status passed with no key'),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
      assert.equal(failed.code, 1);
      assert.deepEqual(
        failed.stderr.trimEnd().split('\n'),
        ids.map(
          (id) =>
            `${id} has no current version: see the rotation function's logs, then npm run admin -- keys rotate for it.`,
        ),
      );
      assert.ok(JSON.parse(failed.stdout).every((s: { currentVersion: null }) => s.currentVersion === null));
    } finally {
      await secrets.stop();
    }
  });
});

describe('admin CLI: local stack not running', () => {
  it('says to start it, in one line without a stack trace, and exits non-zero', async () => {
    // What a stopped `npm start` leaves: endpoints (in .local/stack.env.json) where nothing listens.
    const closed = `http://127.0.0.1:${await freePort()}`;
    const env = {
      ...process.env,
      AWS_ENDPOINT_URL_DYNAMODB: closed,
      AWS_ENDPOINT_URL_SQS: closed,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: closed,
    };
    const answers = await adminRuns(
      [
        ['credentials', 'list', '--application', 'app-1'],
        ['keys', 'rotate'],
      ],
      env,
    );
    for (const failed of answers) {
      assert.equal(failed.code, 1, `${failed.args.join(' ')} succeeded`);
      assert.equal(
        failed.stderr,
        'The local stack is not running: start it with `npm start` (or pass --stage for a deployed stage).\n',
      );
      assert.equal(failed.stdout, '');
    }
  });
});

describe('admin CLI against a deployed stage (--stage)', () => {
  // The test stack stands in for the deployed `dev` stage of cdk.json: its table and secrets, named only
  // by the outputs CloudFormation (simulated, below) gives for payments-gateway-dev.
  const pinned = stageTargetOf(declaredStages(), 'dev');
  const outputsOfTestStack = () =>
    Object.fromEntries(
      Object.entries(STAGE_OUTPUT_VARIABLES).map(([output, variable]) => [
        output,
        String(process.env[variable]),
      ]),
    );
  const deployedDev = (overrides: Partial<SimulatedStack> = {}): SimulatedStack => ({
    stackName: 'payments-gateway-dev',
    ...pinned,
    status: 'UPDATE_COMPLETE',
    outputs: outputsOfTestStack(),
    ...overrides,
  });
  /** The operator's shell: AWS endpoints, but table and secret ids pointing nowhere (only outputs count). */
  const shellFor = (cloudFormation: CloudFormationSimulator) => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      AWS_ENDPOINT_URL_CLOUDFORMATION: cloudFormation.endpoint,
    };
    for (const variable of Object.values(STAGE_OUTPUT_VARIABLES)) env[variable] = 'not-this-one';
    return env;
  };
  const adminAt = async (cloudFormation: CloudFormationSimulator, ...args: string[]) => {
    const { stdout } = await run(process.execPath, ['scripts/admin.ts', ...args], {
      env: shellFor(cloudFormation),
    });
    return JSON.parse(stdout);
  };
  const refusedAt = (cloudFormation: CloudFormationSimulator, ...args: string[]) =>
    run(process.execPath, ['scripts/admin.ts', ...args], { env: shellFor(cloudFormation) }).then(
      () => assert.fail(`${args.join(' ')} succeeded`),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it("addresses the stage's table and secrets through its stack outputs", async () => {
    const cloudFormation = await startCloudFormationSimulator([deployedDev()]);
    try {
      const tenant = await adminAt(
        cloudFormation,
        'tenant',
        'create',
        '--name',
        'Staged Co',
        '--stage',
        'dev',
      );
      assert.equal(
        (await call('/assets', { apiKey: tenant.apiKey, token: await tokenFor(tenant) })).status,
        200,
      );
      const status = (await adminAt(cloudFormation, 'keys', 'status', '--stage', 'dev')) as {
        secret: string;
        currentVersion: string | null;
      }[];
      assert.deepEqual(
        status.map((s) => s.secret).sort(),
        Object.values(secretIdVariable)
          .map((variable) => String(process.env[variable]))
          .sort(),
      );
      assert.ok(
        status.every((s) => s.currentVersion),
        'every key secret has a value',
      );
      assert.deepEqual(cloudFormation.described, ['payments-gateway-dev', 'payments-gateway-dev']);
    } finally {
      await cloudFormation.stop();
    }
  });

  it("finds an output in whichever of the stage's stacks holds it, asking the others only for what the main stack lacks", async () => {
    const outputs = outputsOfTestStack();
    const secretOutputs = Object.keys(outputs).filter((output) => output.endsWith('SecretName'));
    const split = [
      deployedDev({
        outputs: Object.fromEntries(Object.entries(outputs).filter(([o]) => !secretOutputs.includes(o))),
      }),
      deployedDev({
        stackName: 'payments-gateway-dev-api',
        outputs: Object.fromEntries(Object.entries(outputs).filter(([o]) => secretOutputs.includes(o))),
      }),
    ];
    const cloudFormation = await startCloudFormationSimulator(split);
    try {
      const status = (await adminAt(cloudFormation, 'keys', 'status', '--stage', 'dev')) as {
        secret: string;
      }[];
      assert.deepEqual(
        status.map((s) => s.secret).sort(),
        Object.values(secretIdVariable)
          .map((variable) => String(process.env[variable]))
          .sort(),
      );
      // The main stack, then the routes' stack, which held the rest: the alarms' stack was not asked.
      assert.deepEqual(cloudFormation.described, ['payments-gateway-dev', 'payments-gateway-dev-api']);
    } finally {
      await cloudFormation.stop();
    }
  });

  it('refuses no credentials, an undeclared stage, a missing stack, another account, a failed create and a missing output', async () => {
    const cases: [SimulatedStack[], string, RegExp][] = [
      [[deployedDev()], 'nowhere', /^Stage "nowhere" is not declared: add .* cdk\.json/],
      [[deployedDev()], 'prod', /^No stack payments-gateway-prod in eu-west-1 for these credentials/],
      [
        [deployedDev({ account: '999999999999' })],
        'dev',
        /belongs to account 999999999999, but cdk\.json pins stage dev to 111111111111/,
      ],
      [[deployedDev({ status: 'ROLLBACK_COMPLETE' })], 'dev', /is ROLLBACK_COMPLETE: wait/],
      [
        [deployedDev({ outputs: { ...outputsOfTestStack(), KekSandboxSecretName: '' } })],
        'dev',
        /^payments-gateway-dev has no output KekSandboxSecretName, nor has payments-gateway-dev-api or payments-gateway-dev-observability: deploy this version/,
      ],
    ];
    // No credentials at all (and no instance metadata to look for them in).
    const noCredentials = await startCloudFormationSimulator([deployedDev()]);
    try {
      const env: NodeJS.ProcessEnv = {
        ...shellFor(noCredentials),
        AWS_EC2_METADATA_DISABLED: 'true',
        AWS_CONFIG_FILE: '/nonexistent',
        AWS_SHARED_CREDENTIALS_FILE: '/nonexistent',
      };
      for (const variable of [
        'AWS_ACCESS_KEY_ID',
        'AWS_SECRET_ACCESS_KEY',
        'AWS_SESSION_TOKEN',
        'AWS_PROFILE',
      ])
        delete env[variable];
      const failed = await run(process.execPath, ['scripts/admin.ts', 'keys', 'status', '--stage', 'dev'], {
        env,
      }).then(
        () => assert.fail('read a stage without credentials'),
        (error: { code: number; stderr: string }) => error,
      );
      assert.equal(failed.code, 1);
      assert.match(failed.stderr, /^No AWS credentials for stage dev: sign in to account 111111111111/);
      assert.equal(failed.stderr.split('\n').filter(Boolean).length, 1, 'one line, no stack trace');
      assert.deepEqual(noCredentials.described, [], 'nothing was asked of CloudFormation');
    } finally {
      await noCredentials.stop();
    }
    for (const [stacks, stage, message] of cases) {
      const cloudFormation = await startCloudFormationSimulator(stacks);
      try {
        const failed = await refusedAt(
          cloudFormation,
          'tenant',
          'create',
          '--name',
          'Nope',
          '--stage',
          stage,
        );
        assert.equal(failed.code, 1, stage);
        assert.match(failed.stderr, message);
        assert.equal(failed.stderr.split('\n').filter(Boolean).length, 1, 'one line, no stack trace');
        assert.equal(failed.stdout, '');
      } finally {
        await cloudFormation.stop();
      }
    }
  });
});

describe('admin CLI: preflight before a first deploy', () => {
  // The prod account as AWS would describe it (simulated: quotas, bootstrap stacks and certificates have
  // no local service); the CLI reads it in each service's own protocol, region by region.
  const { account, region, keyReplicaRegion } = stageTargetOf(declaredStages(), 'prod');
  const certificateArn = `arn:aws:acm:us-east-1:${account}:certificate/1f0c2c4e-0000-4000-8000-000000000001`;
  const regionalArn = `arn:aws:acm:${region}:${account}:certificate/1f0c2c4e-0000-4000-8000-000000000002`;
  // The domain's names and regional certificate, and the notices' sending domain, as the deploy will name them.
  const domainArgs = [
    '--domain-name',
    'api.example.com',
    '--regional-certificate-arn',
    regionalArn,
    '--notice-email-domain',
    'example.com',
  ];
  const issuedRegional = { arn: regionalArn, status: 'ISSUED' } as const;
  const toolkit = (stackRegion: string, version: string): SimulatedStack => ({
    stackName: 'CDKToolkit',
    account,
    region: stackRegion,
    status: 'UPDATE_COMPLETE',
    outputs: { BootstrapVersion: version, BucketName: `cdk-hnb659fds-assets-${account}-${stackRegion}` },
  });
  // The stage's region, us-east-1 (the edge) and the key secrets' replica region.
  const bootstrapped = [region, 'us-east-1', keyReplicaRegion as string].map((r) => toolkit(r, '30'));
  const preflightAt = async (
    stacks: SimulatedStack[],
    simulated: SimulatedAccount,
    ...args: string[]
  ): Promise<{ code: number; stdout: string; stderr: string }> => {
    const simulator = await startCloudFormationSimulator(stacks, simulated);
    const env = {
      ...process.env,
      AWS_ENDPOINT_URL_CLOUDFORMATION: simulator.endpoint,
      AWS_ENDPOINT_URL_LAMBDA: simulator.endpoint,
      AWS_ENDPOINT_URL_ACM: simulator.endpoint,
    };
    try {
      return await run(process.execPath, ['scripts/admin.ts', 'preflight', '--stage', 'prod', ...args], {
        env,
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => error,
      );
    } finally {
      await simulator.stop();
    }
  };

  it('says "ready" for an account with the quota, its regions bootstrapped and both certificates issued for the domain', async () => {
    const ready = await preflightAt(
      bootstrapped,
      { certificates: [{ arn: certificateArn, status: 'ISSUED' }, issuedRegional] },
      '--certificate-arn',
      certificateArn,
      ...domainArgs,
    );
    assert.deepEqual(ready, { code: 0, stdout: 'ready\n', stderr: '' });
  });

  it("warns, on stderr and in the synth's words, of a production deploy without an email sending identity; still ready", async () => {
    const certificates: SimulatedAccount = {
      certificates: [{ arn: certificateArn, status: 'ISSUED' }, issuedRegional],
    };
    const withoutEmail = domainArgs.slice(0, -2);
    const warned = await preflightAt(bootstrapped, certificates, '-c', certificateArn, ...withoutEmail);
    assert.deepEqual(warned, {
      code: 0,
      stdout: 'ready\n',
      stderr: `Warning: ${noEmailIdentity('--notice-email-domain <the domain -c noticeEmailDomain will name>')}\n`,
    });
    assert.match(warned.stderr, /^Warning: Email notices are off: no sending identity is configured/);
  });

  it('names each missing thing in one line and exits 1: a new account quota, regions not bootstrapped (the key replica region too), an old bootstrap, a pending or misplaced certificate', async () => {
    const notReady = await preflightAt(
      [toolkit(region, '5')],
      {
        concurrentExecutions: { [region]: 10 },
        certificates: [{ arn: certificateArn, status: 'PENDING_VALIDATION' }, issuedRegional],
      },
      '-c',
      certificateArn,
      ...domainArgs,
    );
    assert.equal(notReady.code, 1);
    assert.deepEqual(notReady.stdout.trimEnd().split('\n'), [
      `Lambda concurrent executions quota in ${region} is 10; prod reserves 136 (workers/ledger-submitter, workers/wallet-activator, streams/outbox, schedules/reconciler, api/fallback, api/payments, api/wallets, api/statements, api/sandbox) and Lambda keeps 100 unreserved, so it needs 236: request "Concurrent executions" (L-B99A9384) in Service Quotas, 1,000 is the default.`,
      `CDK bootstrap in ${region} is version 5, older than 6: run npx cdk bootstrap aws://${account}/${region}.`,
      `No CDK bootstrap in us-east-1: run npx cdk bootstrap aws://${account}/us-east-1.`,
      `No CDK bootstrap in ${keyReplicaRegion}: run npx cdk bootstrap aws://${account}/${keyReplicaRegion}.`,
      `Certificate ${certificateArn} is PENDING_VALIDATION, not ISSUED: add the validation record that aws acm describe-certificate --region us-east-1 shows and wait for ISSUED.`,
    ]);
    assert.equal(notReady.stderr, '');

    const misplaced = certificateArn.replace('us-east-1', region);
    const elsewhere = await preflightAt(
      bootstrapped,
      { certificates: [{ arn: misplaced, status: 'ISSUED' }, issuedRegional] },
      '--certificate-arn',
      misplaced,
      ...domainArgs,
    );
    assert.equal(elsewhere.code, 1);
    assert.match(
      elsewhere.stdout,
      /^Certificate .* is in eu-west-1: CloudFront takes certificates from us-east-1 only/,
    );
    assert.equal(elsewhere.stdout.split('\n').filter(Boolean).length, 1);

    const none = await preflightAt(bootstrapped, {});
    assert.equal(none.code, 1);
    assert.deepEqual(none.stdout.trimEnd().split('\n'), [
      'No certificate: pass --certificate-arn <the ACM certificate in us-east-1 that -c certificateArn will name>.',
      `No regional certificate: pass --regional-certificate-arn <the ACM certificate in ${region} that -c regionalCertificateArn will name>.`,
      'No domain name: pass --domain-name <the names -c domainName will name, comma-separated>.',
    ]);
    const unknown = await preflightAt(
      bootstrapped,
      { certificates: [issuedRegional] },
      '-c',
      certificateArn,
      ...domainArgs,
    );
    assert.equal(unknown.stdout, `No certificate ${certificateArn} in us-east-1 for these credentials.\n`);
  });

  it('checks the regional certificate: in the stage region, ISSUED, covering every name of the domain', async () => {
    const edge = {
      arn: certificateArn,
      status: 'ISSUED',
      names: ['api.example.com', '*.example.com'],
    } as const;
    const check = (regional: SimulatedCertificate | undefined, arn: string, names = 'api.example.com') =>
      preflightAt(
        bootstrapped,
        { certificates: [edge, ...(regional ? [regional] : [])] },
        '-c',
        certificateArn,
        '-r',
        arn,
        '-d',
        names,
      );
    const lines = (answer: { code: number; stdout: string }) => {
      assert.equal(answer.code, 1);
      return answer.stdout.trimEnd().split('\n');
    };

    const misplaced = regionalArn.replace(region, 'us-east-1');
    assert.deepEqual(lines(await check({ arn: misplaced, status: 'ISSUED' }, misplaced)), [
      `Regional certificate ${misplaced} is in us-east-1: the API's regional custom domain takes certificates from the stage's region ${region} only (aws acm request-certificate --region ${region} …).`,
    ]);
    assert.deepEqual(lines(await check({ arn: regionalArn, status: 'PENDING_VALIDATION' }, regionalArn)), [
      `Regional certificate ${regionalArn} is PENDING_VALIDATION, not ISSUED: add the validation record that aws acm describe-certificate --region ${region} shows and wait for ISSUED.`,
    ]);
    assert.deepEqual(lines(await check(undefined, regionalArn)), [
      `No regional certificate ${regionalArn} in ${region} for these credentials.`,
    ]);
    // Issued, but for another name: the regional domain's create would fail half-way through the deploy.
    const other = { arn: regionalArn, status: 'ISSUED', names: ['www.example.com'] } as const;
    assert.deepEqual(lines(await check(other, regionalArn)), [
      `Regional certificate ${regionalArn} does not cover api.example.com (it names www.example.com): request one for the domain's names in ${region}.`,
    ]);
    // A wildcard covers one label, not two; every name of the domain is checked, on both certificates.
    const wildcard = { arn: regionalArn, status: 'ISSUED', names: ['*.example.com'] } as const;
    assert.deepEqual(
      await check(wildcard, regionalArn, 'api.example.com,pay.example.com').then((a) => a.stdout),
      'ready\n',
    );
    assert.deepEqual(lines(await check(wildcard, regionalArn, 'api.example.com,v1.api.example.com')), [
      `Certificate ${certificateArn} does not cover v1.api.example.com (it names api.example.com, *.example.com): request one for the domain's names in us-east-1.`,
      `Regional certificate ${regionalArn} does not cover v1.api.example.com (it names *.example.com): request one for the domain's names in ${region}.`,
    ]);
  });
});
