// The SNS topic every alarm notifies, and the alarms: every function's errors, throttles and duration
// near its timeout; the API's 5xx, 429s and p99 latency; the table's throttled requests; every queue's oldest
// message and dead letters. The topic takes an e-mail subscription from the stack parameter
// AlarmEmail (a pager's or on-call list's address); other subscriptions are added outside the stack.
import { CfnCondition, CfnParameter, Duration, Fn, type RemovalPolicy } from 'aws-cdk-lib';
import type { IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
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
    const email = new CfnParameter(this, 'AlarmEmail', {
      type: 'String',
      default: '',
      description: 'E-mail address the alarms notify (confirm the subscription e-mail); empty for none.',
    });
    const subscription = new sns.CfnSubscription(this, 'EmailSubscription', {
      topicArn: this.topic.topicArn,
      protocol: 'email',
      endpoint: email.valueAsString,
    });
    subscription.cfnOptions.condition = new CfnCondition(this, 'HasAlarmEmail', {
      expression: Fn.conditionNot(Fn.conditionEquals(email.valueAsString, '')),
    });
  }

  private alarm(
    id: string,
    description: string,
    metric: cloudwatch.IMetric,
    threshold: number,
    evaluationPeriods = 1,
  ): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmDescription: description,
      metric,
      threshold,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    // Also tell when it clears, so whoever was paged knows the incident is over.
    alarm.addOkAction(action);
    return alarm;
  }

  /** A function's unhandled errors, throttles, and p99 duration above 80 % of its timeout. */
  onFunction(id: string, fn: IFunction, label: string, timeout: Duration): void {
    const period = Duration.minutes(5);
    this.alarm(`${id}Errors`, `${label}: invocations failed.`, fn.metricErrors({ period }), 0);
    this.alarm(`${id}Throttles`, `${label}: invocations throttled.`, fn.metricThrottles({ period }), 0);
    this.alarm(
      `${id}Duration`,
      `${label}: p99 duration above 80 % of its ${timeout.toSeconds()} s timeout.`,
      fn.metricDuration({ period, statistic: cloudwatch.Stats.p(99) }),
      timeout.toMilliseconds() * 0.8,
    );
  }

  /** A queue whose oldest message waits longer than `maxAge`: its worker is failing or starved. */
  onQueueAge(id: string, queue: IQueue, queueLabel: string, maxAge: Duration): cloudwatch.Alarm {
    return this.alarm(
      id,
      `The oldest message of ${queueLabel} is older than ${maxAge.toMinutes()} minutes.`,
      queue.metricApproximateAgeOfOldestMessage({
        period: Duration.minutes(5),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      maxAge.toSeconds(),
    );
  }

  /** The API's p99 latency above 5 s (functions answer within 10 s; most within tens of ms). */
  onLatency(id: string, api: IHttpApi): cloudwatch.Alarm {
    return this.alarm(
      id,
      'The HTTP API p99 latency is above 5 s.',
      api.metricLatency({ period: Duration.minutes(5), statistic: cloudwatch.Stats.p(99) }),
      5000,
    );
  }

  /**
   * Requests answered 429, counted from the API's access log: HTTP APIs publish 4xx as one metric, and
   * a 429 is API Gateway's throttle of a route (infra/stage.ts) or the token function's per-client
   * limit. A few are clients at their limit; hundreds in five minutes, twice in a row, are a client
   * retrying in a loop or limits too tight for real traffic. (The web ACL's rate rules answer 429 at the
   * edge, before the API: they are counted in WAF's metrics, in us-east-1.)
   */
  onTooManyRequests(id: string, accessLogs: logs.ILogGroup, stage: string): cloudwatch.Alarm {
    const filter = new logs.MetricFilter(this, `${id}Filter`, {
      logGroup: accessLogs,
      // The access log's `status` is written as a string (infra/constructs/gateway-api.ts).
      filterPattern: logs.FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: SERVICE_NAME,
      metricName: `${stage}-http-429`,
      metricValue: '1',
      defaultValue: 0,
    });
    return this.alarm(
      id,
      'The HTTP API answered more than 100 requests with 429 in 5 minutes, twice in a row.',
      filter.metric({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
      100,
      2,
    );
  }

  /** Requests DynamoDB throttled: the table's on-demand capacity is being outrun. */
  onTableThrottles(id: string, table: ITable): cloudwatch.Alarm {
    return this.alarm(
      id,
      'DynamoDB throttled requests on the table.',
      table.metricThrottledRequestsForOperations({
        period: Duration.minutes(5),
        operations: [
          'GetItem',
          'PutItem',
          'UpdateItem',
          'DeleteItem',
          'Query',
          'TransactWriteItems',
        ] as never,
      }),
      0,
    );
  }

  /** Any message in a dead-letter queue is a message that was not processed: someone must look. */
  onDeadLetters(id: string, deadLetterQueue: IQueue, queueLabel: string): cloudwatch.Alarm {
    return this.alarm(
      id,
      `Messages in the dead-letter queue of ${queueLabel}.`,
      deadLetterQueue.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(1),
        statistic: cloudwatch.Stats.MAXIMUM,
      }),
      0,
    );
  }

  /**
   * Handled errors are 4xx problem bodies; a 5xx is a bug, a timeout or an unreachable dependency
   * (key material answers 503/504), so every one of them is worth a notification.
   */
  onServerErrors(id: string, api: IHttpApi): cloudwatch.Alarm {
    return this.alarm(
      id,
      'The HTTP API answered 5xx.',
      api.metricServerError({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM }),
      0,
    );
  }
}
