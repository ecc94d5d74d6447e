// The edge's alarms, in us-east-1: CloudFront publishes its distributions' metrics there only, WAF
// those of a web ACL for CloudFront, and ACM those of CloudFront's certificates, which live there. They notify a topic of their own region (an alarm can only notify a
// topic of its region) with the same subscribers as the stage's topic. A stack of its own, deployed after
// the API's stack: it reads the distribution's id from it (the edge stack, deployed before, cannot).
import type { CfnOutput, RemovalPolicy } from 'aws-cdk-lib';
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { stackOutputFor } from '../stack-output.ts';
import { type AlarmSubscribers, AlarmTopic } from './alarm-topic.ts';
import type { EdgeDomain } from './edge.ts';

export interface EdgeAlarmsStackProps extends StackProps {
  stage: string;
  production: boolean;
  subscribers: AlarmSubscribers;
  removalPolicy: RemovalPolicy;
  /** The API stack's output holding the distribution's id (read with Fn::GetStackOutput). */
  distributionId: CfnOutput;
  /** The web ACL's name (edge-firewall.ts): WAF's metrics are by name. */
  webAclName: string;
  /** The custom domain, whose us-east-1 certificates (the viewers', the origin's client one) are watched. */
  domain: EdgeDomain | undefined;
}

export class EdgeAlarmsStack extends Stack {
  readonly alarms: AlarmTopic;

  constructor(scope: Construct, id: string, props: EdgeAlarmsStackProps) {
    const {
      stage,
      production,
      subscribers,
      removalPolicy,
      distributionId,
      webAclName,
      domain,
      ...stackProps
    } = props;
    super(scope, id, stackProps);
    this.alarms = new AlarmTopic(this, 'Alarms', { stage, production, subscribers, removalPolicy });
    this.alarms.onDistributionErrors(
      'Edge5xxRate',
      stackOutputFor(this, distributionId, 'its alarms watch the distribution'),
    );
    this.alarms.onBlockedRequests('EdgeBlockedRate', webAclName);
    if (domain) {
      this.alarms.onCertificateExpiry(
        'CertificateExpiry',
        domain.certificateArn,
        "The distribution's certificate",
      );
      if (domain.originMtls)
        this.alarms.onCertificateExpiry(
          'OriginClientCertificateExpiry',
          domain.originMtls.clientCertificateArn,
          "CloudFront's client certificate to the origin (imported: import its successor)",
        );
    }
  }
}
