// `admin preflight --stage <s>`: what a first deploy of a stage needs from its account that the deploy
// itself would only discover half-way (and roll back over): the Lambda concurrency quota production's
// reservations need, the CDK bootstrap in every region the stage deploys to (its own, us-east-1 for the
// edge stack, and production's key replica region), and
// the two certificates of the domain: the one CloudFront serves (us-east-1) and the one the API's
// regional custom domain serves (the stage's region), each issued and covering the domain's names.
// Read-only: Lambda GetAccountSettings, CloudFormation DescribeStacks on CDKToolkit, ACM
// DescribeCertificate. Each check says what is missing in one line. Beside them, what the deploy will
// not refuse but production should not go without (preflightWarnings): the synth warns of the same.
import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { GetAccountSettingsCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { noEmailIdentity } from '../notifications/email-identity.ts';
import {
  LAMBDA_MINIMUM_UNRESERVED,
  PRODUCTION_RESERVED_CONCURRENCY,
  productionConcurrencyNeeded,
} from '../reserved-concurrency.ts';
import { declaredContext, declaredStages, stageTargetOf } from '../stage-targets.ts';
import { StageUnavailableError } from './stage-outputs.ts';

/** CloudFront takes certificates from this region only; the edge stack (web ACL) lives there too. */
export const EDGE_REGION = 'us-east-1';

/**
 * The oldest bootstrap the synthesized templates accept: their `CheckBootstrapVersion` rule refuses an
 * older one (aws-cdk-lib's DefaultStackSynthesizer, MIN_BOOTSTRAP_STACK_VERSION).
 */
export const MINIMUM_BOOTSTRAP_VERSION = 6;

/** The toolkit stack `cdk bootstrap` creates (default qualifier). */
const TOOLKIT_STACK = 'CDKToolkit';

/** What `-c domainName`, `-c certificateArn` and `-c regionalCertificateArn` will name at the deploy. */
export interface PreflightDomain {
  /** The custom domain's names (comma-separated on the command line, as `-c domainName`). */
  names: string[];
  certificateArn: string | undefined;
  regionalCertificateArn: string | undefined;
}

/** One line per thing the stage's account lacks for a deploy; empty when it is ready. */
export async function preflight(stage: string, domain: PreflightDomain): Promise<string[]> {
  const target = stageTargetOf(declaredStages(), stage);
  const production = stage === 'prod';
  // Production's key secrets are replicated to a region whose stack (the replica key) deploys first.
  const regions = [
    ...new Set([target.region, EDGE_REGION, ...(target.keyReplicaRegion ? [target.keyReplicaRegion] : [])]),
  ];
  // Production always has a domain (the synth refuses it without one); another stage only when given one.
  const required = production || domain.certificateArn !== undefined;
  const checked = (arn: string | undefined, use: CertificateUse) =>
    arn ? certificate(arn, use, domain.names) : Promise.resolve(required ? [use.missing] : []);
  const checks = [
    production ? concurrencyQuota(stage, target.region) : Promise.resolve([]),
    ...regions.map((region) => bootstrap(target.account, region)),
    checked(domain.certificateArn, cloudFrontCertificate),
    checked(domain.regionalCertificateArn, regionalCertificate(target.region)),
    Promise.resolve(required && domain.names.length === 0 ? [noDomain] : []),
  ];
  return (await Promise.all(checks)).flat();
}

/**
 * What a deploy of `stage` goes ahead without but production should not, one line each: for prod, no
 * email sending identity (`--notice-email-domain`, the domain `-c noticeEmailDomain` will name, or the
 * one cdk.json's context names), the warning infra/constructs/notices.ts gives at every synth.
 */
export function preflightWarnings(stage: string, notices: { emailDomain: string | undefined }): string[] {
  const emailDomain = notices.emailDomain ?? declaredContext('noticeEmailDomain');
  if (stage !== 'prod' || emailDomain) return [];
  return [noEmailIdentity('--notice-email-domain <the domain -c noticeEmailDomain will name>')];
}

/** Which certificate a check reads: where it must be, and the line when it is not given. */
interface CertificateUse {
  what: string;
  region: string;
  /** Why it must be in `region`, for the line that finds it elsewhere. */
  because: string;
  missing: string;
}

const cloudFrontCertificate: CertificateUse = {
  what: 'Certificate',
  region: EDGE_REGION,
  because: `CloudFront takes certificates from ${EDGE_REGION} only`,
  missing:
    'No certificate: pass --certificate-arn <the ACM certificate in us-east-1 that -c certificateArn will name>.',
};

const regionalCertificate = (region: string): CertificateUse => ({
  what: 'Regional certificate',
  region,
  because: `the API's regional custom domain takes certificates from the stage's region ${region} only`,
  missing:
    `No regional certificate: pass --regional-certificate-arn <the ACM certificate in ${region} that ` +
    '-c regionalCertificateArn will name>.',
});

const noDomain = 'No domain name: pass --domain-name <the names -c domainName will name, comma-separated>.';

/** Whether a certificate name (`api.example.com`, `*.example.com`) covers a host name, as TLS matches it. */
export function certificateCovers(certificateName: string, host: string): boolean {
  const name = certificateName.toLowerCase();
  const wanted = host.toLowerCase();
  if (!name.startsWith('*.')) return name === wanted;
  // A wildcard stands for exactly one leftmost label.
  const dot = wanted.indexOf('.');
  return dot > 0 && wanted.slice(dot + 1) === name.slice(2);
}

async function concurrencyQuota(stage: string, region: string): Promise<string[]> {
  const client = new LambdaClient({ region });
  try {
    const settings = await client.send(new GetAccountSettingsCommand({}));
    const quota = settings.AccountLimit?.ConcurrentExecutions ?? 0;
    const reserved = productionConcurrencyNeeded() - LAMBDA_MINIMUM_UNRESERVED;
    if (quota >= productionConcurrencyNeeded()) return [];
    return [
      `Lambda concurrent executions quota in ${region} is ${quota}; ${stage} reserves ${reserved} ` +
        `(${Object.keys(PRODUCTION_RESERVED_CONCURRENCY).join(', ')}) and Lambda keeps ` +
        `${LAMBDA_MINIMUM_UNRESERVED} unreserved, so it needs ${productionConcurrencyNeeded()}: request ` +
        '"Concurrent executions" (L-B99A9384) in Service Quotas, 1,000 is the default.',
    ];
  } catch (error) {
    return [couldNotRead(`the Lambda account settings in ${region}`, error)];
  } finally {
    client.destroy();
  }
}

async function bootstrap(account: string, region: string): Promise<string[]> {
  const client = new CloudFormationClient({ region: region });
  const bootstrapCommand = `npx cdk bootstrap aws://${account}/${region}`;
  try {
    const stack = (await client.send(new DescribeStacksCommand({ StackName: TOOLKIT_STACK }))).Stacks?.[0];
    const stackAccount = stack?.StackId?.split(':')[4];
    if (stackAccount !== account)
      return [
        `${TOOLKIT_STACK} in ${region} belongs to account ${stackAccount ?? 'unknown'}, but cdk.json ` +
          `pins this stage to ${account}: use credentials for ${account}.`,
      ];
    const version = Number(stack?.Outputs?.find((o) => o.OutputKey === 'BootstrapVersion')?.OutputValue);
    if (Number.isInteger(version) && version >= MINIMUM_BOOTSTRAP_VERSION) return [];
    return [
      `CDK bootstrap in ${region} is version ${Number.isNaN(version) ? 'unknown' : version}, ` +
        `older than ${MINIMUM_BOOTSTRAP_VERSION}: run ${bootstrapCommand}.`,
    ];
  } catch (error) {
    if ((error as Error).name === 'ValidationError')
      return [`No CDK bootstrap in ${region}: run ${bootstrapCommand}.`];
    return [couldNotRead(`${TOOLKIT_STACK} in ${region}`, error)];
  } finally {
    client.destroy();
  }
}

async function certificate(arn: string, use: CertificateUse, names: string[]): Promise<string[]> {
  const region = arn.split(':')[3];
  if (region !== use.region)
    return [
      `${use.what} ${arn} is in ${region || 'no region'}: ${use.because} ` +
        `(aws acm request-certificate --region ${use.region} …).`,
    ];
  const client = new ACMClient({ region });
  try {
    const { Certificate } = await client.send(new DescribeCertificateCommand({ CertificateArn: arn }));
    if (Certificate?.Status !== 'ISSUED')
      return [
        `${use.what} ${arn} is ${Certificate?.Status ?? 'in no status'}, not ISSUED: add the validation ` +
          `record that aws acm describe-certificate --region ${region} shows and wait for ISSUED.`,
      ];
    // ACM lists the DomainName among the SubjectAlternativeNames too.
    const covered = [
      ...new Set([Certificate.DomainName, ...(Certificate.SubjectAlternativeNames ?? [])]),
    ].filter((name): name is string => typeof name === 'string');
    const uncovered = names.filter((host) => !covered.some((name) => certificateCovers(name, host)));
    if (uncovered.length === 0) return [];
    return [
      `${use.what} ${arn} does not cover ${uncovered.join(', ')} (it names ${covered.join(', ')}): ` +
        `request one for the domain's names in ${region}.`,
    ];
  } catch (error) {
    if ((error as Error).name === 'ResourceNotFoundException')
      return [`No ${use.what.toLowerCase()} ${arn} in ${region} for these credentials.`];
    return [couldNotRead(`${use.what.toLowerCase()} ${arn}`, error)];
  } finally {
    client.destroy();
  }
}

/** An AWS answer no check expected (access denied, throttling): its own words, or, for missing credentials, the whole run stops. */
function couldNotRead(what: string, error: unknown): string {
  const { name, message } = error as Error;
  if (name === 'CredentialsProviderError')
    throw new StageUnavailableError(
      "No AWS credentials: sign in to the stage's account (AWS_PROFILE, aws sso login, or " +
        'AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY) and run again.',
    );
  return `Could not read ${what}: ${name}: ${message}`;
}
