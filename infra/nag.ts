// cdk-nag's AWS Solutions rules. cdk-nag 3 is a CDK policy-validation plugin (no longer an Aspect):
// registered on the app, a finding fails `cdk synth`; tests run the same pack with validateScope().
// Acknowledgments (Validations.of(x).acknowledge, each with its reason) sit next to their resources.
import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

export function nagChecks(app: App): AwsSolutionsChecks {
  return new AwsSolutionsChecks(app, { verbose: true });
}

export function applyNagChecks(app: App): void {
  Validations.of(app).addPlugins(nagChecks(app));
}
