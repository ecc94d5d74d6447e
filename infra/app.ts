// `cdk synth -c stage=<name>` entry point (cdk.json runs it on Node 24 through scripts/toolchain.mjs,
// whatever Node the CDK CLI itself runs on). Bundles the functions first so a synth is
// self-contained: no Docker, no network, no context lookups. The stage's account and region come from
// cdk.json's `stages` (lib/stage-targets.ts); the web ACL's stack beside it is in us-east-1, where
// CloudFront's must be.
// Custom domain: `-c domainName=api.example.com -c certificateArn=<ACM ARN in us-east-1>
// -c regionalCertificateArn=<ACM ARN in the stage's region>` (CloudFront's and the API's), with mutual TLS
// between them: `-c originClientCertificateArn=<ACM ARN in us-east-1> -c originTruststoreUri=s3://…`
// (prod: required; infra/constructs/edge.ts); alarm
// subscribers: `-c alarmEmail=<address>` and/or `-c alarmHttpsEndpoint=<pager URL>`. Both are required
// for prod, which refuses to synthesize without them (one line saying what is missing). Prod's break-glass
// role, the one that may disable or delete the key material: `-c breakGlassRoleArn=<role ARN>`; where
// prod's daily table backups are copied (another region or account): `-c backupCopyVaultArn=<vault ARN>`,
// and its backup vault's lock: `-c backupVaultLock=compliance|governance` (compliance unless chosen).
// The CDK bootstrap's qualifier, when the accounts were bootstrapped with another than the default:
// `-c @aws-cdk/core:bootstrapQualifier=<qualifier>` (the synthesizer and the key guard both read it).
// Beneficiary notices: `-c noticeEmailDomain=<domain>` (the SES sending identity), and
// `-c whatsAppPhoneNumberId=<id> -c whatsAppTokenSecretName=<secret>` (infra/constructs/notices.ts).
import { App } from 'aws-cdk-lib';
import { buildAll } from '../esbuild.config.ts';
import { applyNagChecks } from './nag.ts';
import { defineStacks } from './stacks-from-context.ts';
import { SynthRefusal } from './stage.ts';

await buildAll();

const app = new App();
try {
  defineStacks(app);
} catch (error) {
  // Missing or malformed context: what to pass, in one line, not a stack trace.
  if (!(error instanceof SynthRefusal)) throw error;
  console.error(error.message);
  process.exit(1);
}
applyNagChecks(app);
app.synth();
