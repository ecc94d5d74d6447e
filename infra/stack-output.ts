// A value one stack reads from another stack's output, whatever their regions: Fn::GetStackOutput,
// CloudFormation's cross-region output reference, resolved when the consumer is deployed (the CLI deploys
// the producer first). It is what CDK's own weak cross-region reference writes, which CDK refuses for a
// consumer whose region is only known at deploy time; no custom resource, no export lock.
import { CfnOutput, Reference, Stack, Token, Tokenization } from 'aws-cdk-lib';

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

/**
 * `value` as `consumer` may name it. A reference to a resource of another stack of the stage (a name, an
 * ARN: one `Ref` or `Fn::GetAtt`, the whole value) is read from an output that stack gains for it, with
 * Fn::GetStackOutput, instead of CDK's export and Fn::ImportValue: an export pins the value in the
 * producer (CloudFormation refuses to change or remove it while imported), which would make replacing or
 * removing a function a two-deploy affair. The output is named after the resource's logical id and the
 * attribute, so whatever would change the value (a replacement is a new logical id) also changes what
 * the consumer's template names: the consumer is never left reading a value its template did not ask
 * for. Anything else, a literal or a reference within `consumer`, is returned as it is.
 */
export function stackValueFor(consumer: Stack, value: string, why: string): string {
  if (!Token.isUnresolved(value)) return value;
  const reference = Tokenization.reverseCompleteString(value);
  if (!Reference.isReference(reference)) {
    // A string built around a reference (Fn::Join): CloudFormation resolves Fn::GetStackOutput as a whole
    // property value, so such a value must be passed as its parts.
    if (Tokenization.reverseString(value).tokens.some((token) => crossStack(consumer, token)))
      throw new Error(`Pass ${value} to ${consumer.stackName} as a whole reference, not inside a string.`);
    return value;
  }
  const producer = Stack.of(reference.target);
  if (producer === consumer) return value;
  const logicalId = producer.resolve((reference.target as unknown as { logicalId: string }).logicalId);
  // `Ref` too: an output's logical id must not be a resource's.
  const id = `${logicalId}${reference.displayName.replace(/[^A-Za-z0-9]/g, '')}`;
  const output =
    (producer.node.tryFindChild(id) as CfnOutput | undefined) ??
    new CfnOutput(producer, id, { value, description: 'Read by a later stack of the stage.' });
  return stackOutputFor(consumer, output, why);
}

const crossStack = (consumer: Stack, token: unknown): boolean =>
  Reference.isReference(token) && Stack.of(token.target) !== consumer;
