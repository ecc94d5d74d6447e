// Deletion protection switched on once everything else of the stack exists. A table created protected
// cannot be rolled back: a failed first create (a concurrency quota, a certificate, CloudFront's account
// verification) must delete it, DynamoDB refuses, and the stack ends in ROLLBACK_FAILED. So the table is
// created unprotected and this resource, which CloudFormation creates last (it depends on every other
// resource of the stack), turns protection on with UpdateTable; each later deploy asserts it again: the
// resource carries a new `Deploy` value at every synth, so CloudFormation updates it (and UpdateTable runs)
// on every deploy, even one that changes nothing else. Protection switched off by hand comes back at the
// next deploy instead of waiting for a change to this file.
// Deleting this resource or the stack leaves the protection on (and the table, RETAIN in production).
import { randomUUID } from 'node:crypto';
import { CfnResource, Stack, Validations } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import {
  AwsCustomResource,
  AwsCustomResourcePolicy,
  type AwsSdkCall,
  PhysicalResourceId,
} from 'aws-cdk-lib/custom-resources';
import { Construct } from 'constructs';

/** The provider function AwsCustomResource runs on: a stack-level singleton this resource depends on. */
const PROVIDER_ID = `AWS${AwsCustomResource.PROVIDER_FUNCTION_UUID.replace(/-/g, '')}`;

export class TableProtection extends Construct {
  readonly resource: AwsCustomResource;

  constructor(scope: Construct, id: string, props: { table: dynamodb.Table }) {
    super(scope, id);
    const call: AwsSdkCall = {
      service: 'DynamoDB',
      action: 'UpdateTable',
      parameters: { TableName: props.table.tableName, DeletionProtectionEnabled: true },
      physicalResourceId: PhysicalResourceId.of(`${props.table.node.path}/deletion-protection`),
    };
    this.resource = new AwsCustomResource(this, 'Enable', {
      onCreate: call,
      onUpdate: call,
      policy: AwsCustomResourcePolicy.fromSdkCalls({ resources: [props.table.tableArn] }),
      installLatestAwsSdk: false,
    });
    // Any change of a custom resource's properties is an Update event: a new value every synth.
    const cfn = this.resource.node.findAll().find((c): c is CfnResource => c instanceof CfnResource);
    cfn?.addPropertyOverride('Deploy', randomUUID());
    const provider = Stack.of(this).node.tryFindChild(PROVIDER_ID);
    if (provider) {
      Validations.of(provider).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
        reason:
          "AwsCustomResource's provider function writes its own logs with the AWS managed basic execution " +
          'policy (logs:CreateLogGroup/CreateLogStream/PutLogEvents); its one SDK call, UpdateTable, is ' +
          "granted on the table's ARN alone by a policy of its own.",
      });
    }
  }

  /** Created after every other resource of the stack: nothing is left to fail once the table is locked. */
  afterEverythingElse(): void {
    for (const child of Stack.of(this).node.children) {
      if (child !== this && child.node.id !== PROVIDER_ID) this.resource.node.addDependency(child);
    }
  }
}
