// `cdk synth -c stage=<name>` entry point (cdk.json runs it on Node 24 through scripts/toolchain.mjs,
// whatever Node the CDK CLI itself runs on). Bundles the functions first so a synth is
// self-contained: no Docker, no network, no context lookups. The stage's account and region come from
// cdk.json's `stages` (lib/stage-targets.ts); the web ACL's stack beside it is in us-east-1, where
// CloudFront's must be.
// Optional custom domain: `-c domainName=api.example.com -c certificateArn=<ACM ARN in us-east-1>`.
import { App } from 'aws-cdk-lib';
import { buildAll } from '../esbuild.config.ts';
import { domainFromContext } from './constructs/edge.ts';
import { applyNagChecks } from './nag.ts';
import { PaymentsGatewayStack } from './stack.ts';
import { SERVICE_NAME, stageFromContext } from './stage.ts';

await buildAll();

const app = new App();
const stage = stageFromContext(app.node);
new PaymentsGatewayStack(app, `${SERVICE_NAME}-${stage}`, {
  stage,
  domain: domainFromContext(app.node),
});
applyNagChecks(app);
app.synth();
