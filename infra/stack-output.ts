// A value one stack reads from another stack's output, whatever their regions: Fn::GetStackOutput,
// CloudFormation's cross-region output reference, resolved when the consumer is deployed (the CLI deploys
// the producer first). It is what CDK's own weak cross-region reference writes, which CDK refuses for a
// consumer whose region is only known at deploy time; no custom resource, no export lock.
import { type CfnOutput, Stack, Token } from 'aws-cdk-lib';

export function stackOutputFor(consumer: Stack, output: CfnOutput, why: string): string {
  const producer = Stack.of(output);
  consumer.addStackDependency(producer, why);
  return Token.asString({
    'Fn::GetStackOutput': {
      StackName: producer.stackName,
      Region: producer.region,
      OutputName: producer.getLogicalId(output),
    },
  });
}
