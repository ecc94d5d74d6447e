// The SNS topic every alarm notifies. Subscriptions (pager, e-mail) are managed outside the stack.
import { Duration, type RemovalPolicy } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '../stage.ts';
import { CustomerKey } from './customer-key.ts';

export class AlarmTopic extends Construct {
  // Encrypted with a customer-managed key of its own: CloudWatch cannot publish to a topic under the
  // AWS-managed aws/sns key, so the key's policy admits CloudWatch to encrypt what it publishes.
  readonly topic: sns.Topic;

  constructor(scope: Construct, id: string, props: { stage: string; removalPolicy: RemovalPolicy }) {
    super(scope, id);
    const encryption = new CustomerKey(this, 'Encryption', {
      description: `${SERVICE_NAME} ${props.stage}: encrypts the alarm topic`,
      alias: `${SERVICE_NAME}/${props.stage}/alarms`,
      removalPolicy: props.removalPolicy,
    });
    encryption.admitService('cloudwatch.amazonaws.com', ['kms:Decrypt', 'kms:GenerateDataKey*']);
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: `${SERVICE_NAME} ${props.stage} alarms`,
      enforceSSL: true,
      masterKey: encryption.key,
    });
  }

  /** Any message in a dead-letter queue is a message that was not processed: someone must look. */
  onDeadLetters(id: string, deadLetterQueue: IQueue, queueLabel: string): cloudwatch.Alarm {
    return this.notify(
      new cloudwatch.Alarm(this, id, {
        alarmDescription: `Messages in the dead-letter queue of ${queueLabel}.`,
        metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({
          period: Duration.minutes(1),
          statistic: cloudwatch.Stats.MAXIMUM,
        }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  /**
   * Handled errors are 4xx problem bodies; a 5xx is a bug, a timeout or an unreachable dependency
   * (key material answers 503/504), so every one of them is worth a notification.
   */
  onServerErrors(id: string, api: IHttpApi): cloudwatch.Alarm {
    return this.notify(
      new cloudwatch.Alarm(this, id, {
        alarmDescription: 'The HTTP API answered 5xx.',
        metric: api.metricServerError({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
        threshold: 0,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    );
  }

  private notify(alarm: cloudwatch.Alarm): cloudwatch.Alarm {
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    // Also tell when it clears, so whoever was paged knows the incident is over.
    alarm.addOkAction(action);
    return alarm;
  }
}
