// The platform team's admin CLI: tenants, API keys, clients, the asset registry and signing keys.
// Against the local stack by default (it reads .local/stack.env.json), or a deployed stage with --stage
// and the usual AWS credentials: its table and secret ids come from that stage's stack outputs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const usage = `Usage: npm run admin -- <command> [options]

Commands:
  preflight --stage <stage> [-c|--certificate-arn <ACM ARN>] [-r|--regional-certificate-arn <ACM ARN>]
            [-d|--domain-name <name>[,<name>]] [--notice-email-domain <domain>]
      Before a stage's first deploy: its account's Lambda concurrency quota (prod's reservations), the CDK
      bootstrap of its region and us-east-1, and the domain's two certificates (CloudFront's in us-east-1,
      the API's regional one in the stage's region), each ISSUED and covering the domain's names (all
      three required for prod). Prints one line per missing thing and exits 1, or prints "ready". For
      prod without --notice-email-domain (the -c noticeEmailDomain of the deploy), also warns on stderr
      that email notices will be off, as the synth does; that alone does not exit 1.
  tenant create --name <name> [--environment sandbox|production] [--kind business|individual]
      Creates an association, an application and a client; prints
      {associationId, applicationId, apiKey, clientId, clientSecret, environment}.
  tenant list
      Every association (both environments) with its applications, and each application's API keys and
      clients with their ages in days (ageDays) and revocations; never a secret.
  apikey add --application <applicationId>            A new API key (shown once).
  apikey revoke --api-key <key>                       Revokes a key by its value.
  apikey revoke --application <id> --key-id <keyId>   Revokes a key by the id shown in 'credentials list'.
  client add --application <applicationId> [--association <associationId> | --no-association]
      A new client (shown once), bound to the application's own association (the default; any
      other association is refused) or to none.
  client revoke --client-id <clientId>
  credentials list --application <applicationId>      Key ids and client ids (never secrets).
  credentials backfill
      Once, on a stage holding applications, keys and clients made before the portal's Developers page:
      gives each its tenant's keys, so its people list them and can make new ones (one scan; idempotent).
      Prints the count per item type.
  owner add --association <associationId> --email <address> [--environment sandbox|production]
      A tenant's first business-portal owner (docs/portal.md): they sign in with this address and invite
      the rest of their team themselves. Prints {memberId, email, role}.
  lists backfill
      Once, after the deploy that adds the list indexes (issue #28) to a stage holding earlier records:
      gives every transaction, wallet, payment destination and connector its list index keys and every
      transaction its wallet entries (one scan of the table; idempotent). Prints the count per item type.
  assets load --environment sandbox|production --file <registry.json>
      Adds or replaces registry entries: a JSON array of {assetCode, assetIssuer, assetType, name, decimals, networkName}.
  assets seed --environment production
      Loads the production registry this repository keeps (lib/assets/registry-seed.ts: XLM and the
      stablecoins' public-network issuers). Sandbox assets are issued by the platform: 'ledger sandbox-assets'.
  keys rotate [--secret signing-keys|cursor-key|kek] [--environment sandbox|production]
      Rotates a key secret through Secrets Manager (RotateSecret): the stage's rotation function makes
      the new key, so none passes through this machine. signing-keys (the default): a new active token
      key, the previous kept in the JWKS. cursor-key: a new key, the previous still opens cursors.
      kek: a new current key for the environment's key-encryption key; earlier keys keep opening.
      Prints {secret, versionId} once the new version is current.
  keys status                                         Each key secret's versions and rotation dates (no values).
      Exits 1, with one line per key secret on stderr, when one has no current version (after a deploy:
      its first rotation has not finished or failed).
  connectors load --environment sandbox|production --file <connectors.json>
      Validates the whole catalogue file, then adds or replaces its connectors (seed/connectors.json is the default catalogue).
  limits show --application <applicationId>
      The application's request limit of each route group (token, reads, writes, sandbox, registrations):
      its own or the default, as quota per window (docs/decisions/tenant-rate-limits.md).
  limits set --application <applicationId> --group <group> --quota <requests> --window <seconds>
      Sets the group's own limit: at most quota requests in each fixed window of that many seconds
      (a steady rate of quota/window a second, in bursts of quota). Functions apply it within a minute.
  limits clear --application <applicationId> --group <group>
      Gives the group back its default.
  fees set --association <id> --environment <env> --connector <id> --transaction-type C2C|C2B|B2C|B2B
           [--percentage <pct>] [--fixed <amount>]
      Sets an association's off-ramp fee row (wins over the connector's fee, zero included).
  fees clear --association <id> --environment <env> --connector <id> --transaction-type <type>
      Removes the row: quotes fall back to the connector's fee.
  fees list --association <id> --environment <env>    The association's fee rows.
  receipts list --environment <env> --connector <id>
      Provider on-ramp receipts held (an unknown or inactive reference, or one that cannot be paid).
  receipts resolve --environment <env> --association <id> --connector <id> --receipt <receiptId>
                   (--reference <ref> | --returned <note>)
      For the named association: pays a held receipt to its active reference (its wallet), or records it
      returned to the payer. A receipt that arrived on another association's reference, or a reference
      of another association, is refused.
  owed list --environment <env>
      Money the platform owes (off-ramp refunds, on-ramp and receipt credits not landed yet), oldest
      first: amount, attempt, how long it has been owed and why the ledger refused the last attempt.
  owed redrive --environment <env> --transaction <transactionRecordId>
      Asks the ledger-submitter to pay one owed record now (after its cause is cleared: a settlement
      account funded again, a wallet's trustline restored), as the reconciler's re-drive would.
  notices allow --association <id> --channel email|whatsapp --address <email or +E.164>
      Lets the sandbox association's notices go to the address without the code it would otherwise
      confirm (POST /sandbox/notice-recipients); a sandbox notice to anyone else is not sent.
  wallet review --wallet <walletId> --decision Verified|Rejected
      Ends a third-party wallet's KYC review (only a Pending wallet moves).
  destination review --destination <destinationId> --decision APPROVED|REJECTED
      Ends a BANK or MOBILE_MONEY payment destination's verification (only a PENDING one moves).
  ledger status --environment sandbox|production
      The environment's funding account (its keys made on first use: send it XLM) and channel account
      pool: public keys, whether each is open on the ledger, XLM held, leases; for the sandbox, its
      pools' reserves. Never a secret.
  channels open --environment sandbox|production --count <n>
      Makes the first n channel accounts (keys sealed under the environment's key-encryption key) and
      opens those the ledger lacks from the funding account, 100 a transaction (n = LEDGER_CHANNELS, 16 by
      default; at most 1000).
  metrics [--minutes <n>] [--file <function output>]
      The local stack's business metrics of the last n minutes (15 by default), from the embedded metric
      format lines its functions wrote (.local/function-output.jsonl): per metric and dimension values,
      count, sum and, for durations, p50/p99/max. A deployed stage's are on its dashboard (docs/production.md).
  ledger sandbox-assets
      Opens the sandbox assets' issuer accounts (the platform mints sandbox test money) from the sandbox
      funding account and loads the sandbox asset registry naming them.
  ledger sandbox-liquidity
      Fills a liquidity pool between each pair of sandbox assets at the reference rates, so swaps between
      them find a path: the issuers pay their test money, the funding account its XLM, to the platform's
      liquidity account, which deposits. A pool that holds liquidity is left as it is: a second run submits
      nothing and says so. These four run in the stage's ledger admin function: only a stage's functions
      may decrypt its keys.

Options:
  --stage <stage>   A deployed stage (declared in cdk.json's "stages"): every command addresses its table,
                    secrets and functions, read from the outputs of its stack in its account and region.
                    Default: the local stack (npm start).
  --debug           On a failure, the stack trace as well as the one line that says what went wrong.
  --help            This text.`;

// --debug is read before the arguments are: a mistake in them is reported like any other failure.
const debug = process.argv.includes('--debug');

const options = {
  name: { type: 'string' },
  email: { type: 'string' },
  environment: { type: 'string', default: 'sandbox' },
  kind: { type: 'string', default: 'business' },
  application: { type: 'string' },
  association: { type: 'string' },
  'no-association': { type: 'boolean', default: false },
  'api-key': { type: 'string' },
  'key-id': { type: 'string' },
  'client-id': { type: 'string' },
  file: { type: 'string' },
  stage: { type: 'string' },
  'certificate-arn': { type: 'string', short: 'c' },
  'regional-certificate-arn': { type: 'string', short: 'r' },
  'domain-name': { type: 'string', short: 'd' },
  'notice-email-domain': { type: 'string' },
  secret: { type: 'string', default: 'signing-keys' },
  wallet: { type: 'string' },
  destination: { type: 'string' },
  decision: { type: 'string' },
  receipt: { type: 'string' },
  transaction: { type: 'string' },
  reference: { type: 'string' },
  returned: { type: 'string' },
  minutes: { type: 'string', default: '15' },
  count: { type: 'string' },
  connector: { type: 'string' },
  channel: { type: 'string' },
  address: { type: 'string' },
  'transaction-type': { type: 'string' },
  group: { type: 'string' },
  quota: { type: 'string' },
  window: { type: 'string' },
  percentage: { type: 'string' },
  fixed: { type: 'string' },
  help: { type: 'boolean', default: false },
  debug: { type: 'boolean', default: false },
} as const;

/** A usage mistake: one line, exit 2. */
function fail(message: string): never {
  console.error(`${message} (npm run admin -- --help lists every command and option)`);
  process.exit(2);
}

/** The usage lines of one command (`tenant create`, both forms of `apikey revoke`); empty for none. */
function usageOf(command: string): string {
  const blocks = usage.split(/\n(?= {2}\S)/);
  return blocks
    .filter((block) => block.startsWith(`  ${command} `) || block.startsWith(`  ${command}\n`))
    .join('\n');
}

/** The known option nearest to a mistyped one (edit distance), when it is near enough to be the one meant. */
function nearestOption(typed: string): string | undefined {
  const distance = (a: string, b: string) => {
    let row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++)
        next[j] = Math.min(
          (row[j] as number) + 1,
          (next[j - 1] as number) + 1,
          (row[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
      row = next;
    }
    return row[b.length] as number;
  };
  const [best] = Object.keys(options)
    .map((name) => ({ name, far: distance(typed, name) }))
    .sort((a, b) => a.far - b.far);
  return best && best.far <= Math.max(2, Math.floor(typed.length / 3)) ? best.name : undefined;
}

const { values, positionals } = (() => {
  try {
    return parseArgs({ allowPositionals: true, options });
  } catch (error) {
    if (debug) console.error(error);
    const unknown = /^Unknown option '(-{1,2})([^']+)'/.exec((error as Error).message);
    if (!unknown) return fail((error as Error).message);
    // A mistyped option: the command's own usage, and the option it most likely meant.
    const typed = `${unknown[1]}${unknown[2]}`;
    const meant = nearestOption(unknown[2] as string);
    const command = parseArgs({ allowPositionals: true, strict: false, options })
      .positionals.slice(0, 2)
      .join(' ');
    const lines = usageOf(command);
    if (lines) console.error(`Usage of ${command}:\n${lines}\n`);
    return fail(`Unknown option ${typed}${meant ? `: did you mean --${meant}?` : ''}`);
  }
})();

const required = (name: keyof typeof values): string => {
  const value = values[name];
  if (typeof value !== 'string' || !value) fail(`--${name} is required`);
  return value;
};

/** Points the SDK at a deployed stage (--stage) or at the local stack. */
async function configureTarget(): Promise<void> {
  if (values.stage) {
    const { stageEnvironment } = await import('../lib/admin/stage-outputs.ts');
    // The stage's outputs win over anything in the shell: one stage, all of it, or none.
    Object.assign(process.env, await stageEnvironment(values.stage));
    return;
  }
  const localEnv = join(fileURLToPath(new URL('..', import.meta.url)), '.local', 'stack.env.json');
  if (existsSync(localEnv)) {
    for (const [key, value] of Object.entries(JSON.parse(readFileSync(localEnv, 'utf8'))))
      process.env[key] ??= String(value);
  }
  if (!process.env.TABLE_NAME) fail('No stage: start the local stack (npm start) or pass --stage');
}

/** --environment, checked. */
function environment(): 'sandbox' | 'production' {
  const value = values.environment;
  if (value !== 'sandbox' && value !== 'production') fail('--environment must be sandbox or production');
  return value;
}

const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

async function main(): Promise<void> {
  const [noun, verb] = positionals;
  if (values.help || !noun) {
    console.log(usage);
    return;
  }
  // Before the first deploy there is no stack to read outputs from: preflight reads the account alone.
  if (noun === 'preflight') {
    const { preflight, preflightWarnings } = await import('../lib/admin/preflight.ts');
    const missing = await preflight(required('stage'), {
      names: (values['domain-name'] ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
      certificateArn: values['certificate-arn'],
      regionalCertificateArn: values['regional-certificate-arn'],
    });
    console.log(missing.length > 0 ? missing.join('\n') : 'ready');
    // Not a refusal: the deploy goes ahead, as it does past the synth's own warning of the same.
    for (const warning of preflightWarnings(values.stage ?? '', {
      emailDomain: values['notice-email-domain'],
    }))
      console.error(`Warning: ${warning}`);
    if (missing.length > 0) process.exitCode = 1;
    return;
  }
  // Local only: the file the local stack writes, no service to address.
  if (noun === 'metrics') {
    const minutes = Number(values.minutes);
    if (!Number.isInteger(minutes) || minutes < 1)
      fail('--minutes must be a whole number of minutes, 1 or more');
    const { metricsTable, summariseMetrics } = await import('../lib/admin/metrics.ts');
    const { functionOutputPath } = await import('../local/function-output.ts');
    const file =
      values.file ?? functionOutputPath(join(fileURLToPath(new URL('..', import.meta.url)), '.local'));
    if (!existsSync(file)) fail(`No function output at ${file}: start the local stack (npm start)`);
    const rows = summariseMetrics(
      readFileSync(file, 'utf8').split('\n'),
      new Date(Date.now() - minutes * 60_000),
    );
    console.log(rows.length > 0 ? metricsTable(rows) : `No metrics in the last ${minutes} minutes.`);
    return;
  }
  await configureTarget();
  // Imported after the target is known: these modules read their configuration when loaded.
  const admin = await import('../lib/admin/tenants.ts');
  switch (`${noun} ${verb}`) {
    case 'tenant create': {
      const environment = values.environment;
      const kind = values.kind;
      if (environment !== 'sandbox' && environment !== 'production')
        fail('--environment must be sandbox or production');
      if (kind !== 'business' && kind !== 'individual') fail('--kind must be business or individual');
      return print(await admin.createTenant({ name: required('name'), environment, kind }));
    }
    case 'tenant list': {
      const { listTenants } = await import('../lib/admin/tenant-list.ts');
      return print(await listTenants());
    }
    case 'apikey add':
      return print(await admin.addApiKey(required('application')));
    case 'apikey revoke':
      if (values['api-key'])
        return print(await admin.revokeApiKeyByValue(values['api-key']).then(() => ({ revoked: true })));
      return print(await admin.revokeApiKeyById(required('application'), required('key-id')));
    case 'client add': {
      const applicationId = required('application');
      const association = values['no-association']
        ? null
        : (values.association ?? (await admin.associationOf(applicationId)));
      return print(await admin.addClient(applicationId, association));
    }
    case 'client revoke':
      await admin.revokeClientById(required('client-id'));
      return print({ revoked: true });
    case 'owner add': {
      const environment = values.environment;
      if (environment !== 'sandbox' && environment !== 'production')
        fail('--environment must be sandbox or production');
      const { addMember } = await import('../lib/people/service.ts');
      const email = required('email').toLowerCase();
      if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) fail('--email must be an email address');
      const associationId = required('association');
      const { memberId, role } = await addMember(
        { environment, associationId },
        { email, role: 'owner' },
        null,
        new Date(),
      );
      return print({ memberId, email, role });
    }
    case 'credentials list':
      return print(await admin.listApplicationCredentials(required('application')));
    case 'credentials backfill': {
      const { backfillCredentialKeys } = await import('../lib/admin/credential-backfill.ts');
      return print(await backfillCredentialKeys());
    }
    case 'lists backfill': {
      const { backfillListKeys } = await import('../lib/admin/list-backfill.ts');
      return print(await backfillListKeys());
    }
    case 'assets load': {
      const { loadAssetRegistry } = await import('../lib/admin/assets.ts');
      const environment = values.environment;
      if (environment !== 'sandbox' && environment !== 'production')
        fail('--environment must be sandbox or production');
      return print(await loadAssetRegistry(environment, JSON.parse(readFileSync(required('file'), 'utf8'))));
    }
    case 'assets seed': {
      if (values.environment !== 'production')
        fail("assets seed loads the production registry: sandbox assets come from 'ledger sandbox-assets'");
      const { loadAssetRegistry } = await import('../lib/admin/assets.ts');
      const { seedRegistries } = await import('../lib/assets/registry-seed.ts');
      return print(await loadAssetRegistry('production', seedRegistries.production));
    }
    case 'keys rotate': {
      const secret = values.secret;
      if (secret !== 'signing-keys' && secret !== 'cursor-key' && secret !== 'kek')
        fail('--secret must be signing-keys, cursor-key or kek');
      const environment = values.environment;
      if (environment !== 'sandbox' && environment !== 'production')
        fail('--environment must be sandbox or production');
      const keys = await import('../lib/admin/keys.ts');
      return print(await keys.rotateKeySecret(keys.keySecretId(secret, environment)));
    }
    case 'keys status': {
      const { keyStatus, keysWithoutCurrentVersion } = await import('../lib/admin/keys.ts');
      const statuses = await keyStatus();
      print(statuses);
      // The post-deploy check (docs/production.md): a key without a current version fails the step.
      const missing = keysWithoutCurrentVersion(statuses);
      if (missing.length > 0) {
        console.error(missing.join('\n'));
        process.exitCode = 1;
      }
      return;
    }
    case 'notices allow': {
      const { allowNoticeRecipient } = await import('../lib/admin/notice-recipients.ts');
      return print(
        await allowNoticeRecipient(required('association'), required('channel'), required('address')),
      );
    }
    case 'wallet review': {
      const decision = required('decision');
      if (decision !== 'Verified' && decision !== 'Rejected') fail('--decision must be Verified or Rejected');
      const { reviewWallet } = await import('../lib/admin/wallets.ts');
      return print(await reviewWallet(required('wallet'), decision));
    }
    case 'destination review': {
      const decision = required('decision');
      if (decision !== 'APPROVED' && decision !== 'REJECTED') fail('--decision must be APPROVED or REJECTED');
      const { reviewPaymentDestination } = await import('../lib/admin/payment-destinations.ts');
      return print(await reviewPaymentDestination(required('destination'), decision));
    }
    case 'owed list': {
      const { listOwed } = await import('../lib/admin/owed.ts');
      return print(await listOwed(environment()));
    }
    case 'owed redrive': {
      const { redriveOwed } = await import('../lib/admin/owed.ts');
      return print(await redriveOwed(environment(), required('transaction')));
    }
    case 'receipts list': {
      const { listHeldReceipts } = await import('../lib/admin/receipts.ts');
      return print(await listHeldReceipts(environment(), required('connector')));
    }
    case 'receipts resolve': {
      const { resolveReceipt } = await import('../lib/admin/receipts.ts');
      const how = values.reference ? { reference: values.reference } : { returned: required('returned') };
      const tenant = { environment: environment(), associationId: required('association') };
      return print(await resolveReceipt(tenant, required('connector'), required('receipt'), how));
    }
    case 'ledger sandbox-assets': {
      const { invokeLedgerAdmin } = await import('../lib/admin/ledger-admin.ts');
      return print(await invokeLedgerAdmin({ action: 'open-sandbox-assets' }));
    }
    case 'ledger sandbox-liquidity': {
      const { invokeLedgerAdmin } = await import('../lib/admin/ledger-admin.ts');
      return print(await invokeLedgerAdmin({ action: 'open-sandbox-liquidity' }));
    }
    case 'ledger status':
    case 'channels open': {
      const environment = values.environment;
      if (environment !== 'sandbox' && environment !== 'production')
        fail('--environment must be sandbox or production');
      const { invokeLedgerAdmin } = await import('../lib/admin/ledger-admin.ts');
      if (verb === 'status') return print(await invokeLedgerAdmin({ action: 'status', environment }));
      const count = required('count');
      const { MAX_LEDGER_CHANNELS } = await import('../lib/config.ts');
      if (!/^\d{1,4}$/.test(count) || Number(count) < 1 || Number(count) > MAX_LEDGER_CHANNELS)
        fail(`--count must be a whole number from 1 to ${MAX_LEDGER_CHANNELS}`);
      return print(await invokeLedgerAdmin({ action: 'open-channels', environment, count: Number(count) }));
    }
    case 'connectors load': {
      const { loadConnectorCatalogue } = await import('../lib/admin/connectors.ts');
      const environment = values.environment;
      if (environment !== 'sandbox' && environment !== 'production')
        fail('--environment must be sandbox or production');
      return print(
        await loadConnectorCatalogue(environment, JSON.parse(readFileSync(required('file'), 'utf8'))),
      );
    }
    case 'limits show':
    case 'limits set':
    case 'limits clear': {
      const limits = await import('../lib/admin/limits.ts');
      const applicationId = required('application');
      if (verb === 'show') return print(await limits.showLimits(applicationId));
      if (verb === 'clear') return print(await limits.clearLimit(applicationId, required('group')));
      return print(
        await limits.setLimit(applicationId, required('group'), required('quota'), required('window')),
      );
    }
    case 'fees set':
    case 'fees clear':
    case 'fees list': {
      const environment = values.environment;
      if (environment !== 'sandbox' && environment !== 'production')
        fail('--environment must be sandbox or production');
      const fees = await import('../lib/admin/fees.ts');
      const associationId = required('association');
      if (verb === 'list') return print(await fees.listAssociationFeeRows(associationId, environment));
      const target: Parameters<typeof fees.clearFeeRow>[0] = {
        associationId,
        environment,
        connectorId: required('connector'),
        transactionType: required('transaction-type'),
      };
      if (verb === 'clear') return print(await fees.clearFeeRow(target));
      return print(await fees.setFeeRow({ ...target, percentage: values.percentage, fixed: values.fixed }));
    }
    default:
      fail(`Unknown command: ${positionals.join(' ')}`);
  }
}

// One line for every failure; --debug prints the stack trace as well (for a bug, or to see where a refusal came from).
try {
  await main();
} catch (error) {
  if (debug) console.error(error);
  const { expectedFailureLine, unexpectedFailureLine } = await import('../lib/admin/failure-line.ts');
  if (!debug) console.error(expectedFailureLine(error, values.stage) ?? unexpectedFailureLine(error));
  process.exit(1);
}
