// The SNS topic every alarm notifies, and the alarms: every function's errors, throttles and duration
// near its timeout; the API's 5xx, 429s and p99 latency; the table's throttled requests; every queue's
// oldest message and dead letters; certificates near their end. Its subscribers come from the synth's
// context (alarmSubscribersFromContext): production refuses to synthesize without one, so no production
// stack pages nobody. A stage's alarms are a stack of their own (TopicAlarms, infra/stack.ts) beside the
// stack that keeps the topic: they name what they watch by the names and ids that stack outputs for them.
import { ArnFormat, Duration, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import type * as events from 'aws-cdk-lib/aws-events';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct, type Node } from 'constructs';
import { metricNames, metricsNamespaceOf, SERVICE_DIMENSION } from '../../lib/metrics.ts';
import { stackValueFor } from '../stack-output.ts';
import { SERVICE_NAME, SynthRefusal } from '../stage.ts';
import { CustomerKey } from './customer-key.ts';

/**
 * Who the alarms notify: e-mail addresses (each confirms the subscription e-mail) and HTTPS endpoints
 * (a pager's CloudWatch integration URL, such as PagerDuty's or Opsgenie's; SNS confirms them by a
 * SubscriptionConfirmation request). AWS Chatbot subscribes itself to the topic from its own console.
 */
export interface AlarmSubscribers {
  emails: string[];
  httpsEndpoints: string[];
}

const list = (value: unknown, name: string): string[] => {
  if (value === undefined) return [];
  if (typeof value !== 'string') throw new SynthRefusal(`Context "${name}" must be a string.`);
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
};

/** `-c alarmEmail=a@example.com[,b@…] -c alarmHttpsEndpoint=https://…[,…]`, either or both. */
export function alarmSubscribersFromContext(node: Node): AlarmSubscribers {
  const emails = list(node.tryGetContext('alarmEmail'), 'alarmEmail');
  const httpsEndpoints = list(node.tryGetContext('alarmHttpsEndpoint'), 'alarmHttpsEndpoint');
  for (const email of emails)
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email))
      throw new SynthRefusal(`"alarmEmail" is not an e-mail address: ${email}`);
  for (const endpoint of httpsEndpoints)
    if (!/^https:\/\/[^\s/]+/.test(endpoint))
      throw new SynthRefusal(`"alarmHttpsEndpoint" must be an https:// URL: ${endpoint}`);
  return { emails, httpsEndpoints };
}

/** Fewer requests than this in 5 minutes make no rate: the edge's rate alarms ignore such periods. */
export const MIN_EDGE_REQUESTS = 100;

/** Days before a certificate's end at which its alarm fires: time to renew or import one by hand. */
export const CERTIFICATE_WARNING_DAYS = 30;

/** What a service publishing to the encrypted topic does with its key. */
const TOPIC_KEY_USE = ['kms:Decrypt', 'kms:GenerateDataKey*'];

/**
 * An EventBridge rule's target that publishes to the alarm topic, admitted by the topic's policy for that
 * rule alone (aws:SourceArn, AWS's confused-deputy guard): CDK's SnsTopic target grants every rule of
 * every account events.amazonaws.com can act for.
 */
export function alarmTopicTarget(topic: sns.ITopic): events.IRuleTarget {
  return {
    bind(rule) {
      topic.addToResourcePolicy(
        new iam.PolicyStatement({
          principals: [new iam.ServicePrincipal('events.amazonaws.com')],
          actions: ['sns:Publish'],
          resources: [topic.topicArn],
          conditions: { ArnEquals: { 'aws:SourceArn': rule.ruleRef.ruleArn } },
        }),
      );
      return { arn: topic.topicArn, targetResource: topic };
    },
  };
}

export interface AlarmTopicProps {
  stage: string;
  production: boolean;
  subscribers: AlarmSubscribers;
  removalPolicy: RemovalPolicy;
}

/** A service's metric namespace, and the dimension it publishes one resource's metrics under. */
type ResourceDimension = readonly [namespace: string, dimension: string];
const FUNCTION: ResourceDimension = ['AWS/Lambda', 'FunctionName'];
const QUEUE: ResourceDimension = ['AWS/SQS', 'QueueName'];
const HTTP_API: ResourceDimension = ['AWS/ApiGateway', 'ApiId'];

/** The prefix of a stage's alarm names: the topic and its key admit CloudWatch for these alarms only. */
export const alarmNamePrefixOf = (stage: string): string => `${SERVICE_NAME}-${stage}-`;

/**
 * A stage's alarms, each named `<alarmNamePrefix><id>`, notifying `topic` when it fires and when it
 * clears. What they watch is given by name or id (a function's, a queue's, a log group's): one of another
 * stack of the stage is read from that stack's outputs (stackValueFor), never imported.
 */
export abstract class Alarms extends Construct {
  abstract readonly topic: sns.ITopic;
  /** Every alarm's name starts with it. */
  readonly alarmNamePrefix: string;

  constructor(scope: Construct, id: string, stage: string) {
    super(scope, id);
    this.alarmNamePrefix = alarmNamePrefixOf(stage);
  }

  /** A name or id as this stack may put it in a dimension: another stack's is read from its output. */
  protected ours(value: string): string {
    return stackValueFor(Stack.of(this), value, 'its alarms watch it');
  }

  protected alarm(
    id: string,
    description: string,
    metric: cloudwatch.IMetric,
    threshold: number,
    evaluationPeriods = 1,
    comparisonOperator = cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
  ): cloudwatch.Alarm {
    const alarm = new cloudwatch.Alarm(this, id, {
      alarmName: `${this.alarmNamePrefix}${id}`,
      alarmDescription: description,
      metric,
      threshold,
      comparisonOperator,
      evaluationPeriods,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const action = new SnsAction(this.topic);
    alarm.addAlarmAction(action);
    // Also tell when it clears, so whoever was paged knows the incident is over.
    alarm.addOkAction(action);
    return alarm;
  }

  /**
   * A function's unhandled errors and throttles, and its p99 duration above 80 % of its timeout. Errors
   * and throttles page on a count held over two periods, not on one: a single failed invocation is
   * retried (queues, the stream) or answered as a problem body, and alone it is noise that teaches
   * on-call to ignore the page; more than 3 errors (10 throttles) in each of two 5-minute periods is a
   * function that keeps failing.
   */
  onFunction(id: string, functionName: string, label: string, timeout: Duration): void {
    const period = Duration.minutes(5);
    const metric = (metricName: string, statistic: string) =>
      this.metricOf(FUNCTION, functionName, metricName, statistic, period);
    this.alarm(
      `${id}Errors`,
      `${label}: more than 3 invocations failed in each of two 5-minute periods.`,
      metric('Errors', cloudwatch.Stats.SUM),
      3,
      2,
    );
    this.alarm(
      `${id}Throttles`,
      `${label}: more than 10 invocations throttled in each of two 5-minute periods.`,
      metric('Throttles', cloudwatch.Stats.SUM),
      10,
      2,
    );
    this.alarm(
      `${id}Duration`,
      `${label}: p99 duration above 80 % of its ${timeout.toSeconds()} s timeout.`,
      metric('Duration', cloudwatch.Stats.p(99)),
      timeout.toMilliseconds() * 0.8,
    );
  }

  /**
   * A metric of one resource by the dimension its service publishes it under (a function's name, a
   * queue's, an API's id), as the resource's own metric* methods make it.
   */
  private metricOf(
    [namespace, dimension]: ResourceDimension,
    value: string,
    metricName: string,
    statistic: string,
    period: Duration,
  ) {
    return new cloudwatch.Metric({
      namespace,
      metricName,
      dimensionsMap: { [dimension]: this.ours(value) },
      statistic,
      period,
    });
  }

  /**
   * The stream's oldest record not yet routed, older than `maxAge`: the router is failing or throttled.
   * The table's stream keeps a record 24 hours, after which an outbox row's work is lost, so this pages
   * long before: Lambda's IteratorAge of the function's stream event source, maximum over 5 minutes.
   */
  onIteratorAge(id: string, functionName: string, label: string, maxAge: Duration): cloudwatch.Alarm {
    return this.alarm(
      id,
      `${label}: the oldest stream record waiting is older than ${maxAge.toMinutes()} minutes (the stream keeps 24 hours).`,
      this.metricOf(FUNCTION, functionName, 'IteratorAge', cloudwatch.Stats.MAXIMUM, Duration.minutes(5)),
      maxAge.toMilliseconds(),
    );
  }

  /** A log group of the stage by name, for a metric filter of this stack. */
  private logGroup(id: string, logGroupName: string): logs.ILogGroup {
    return logs.LogGroup.fromLogGroupName(this, `${id}Logs`, this.ours(logGroupName));
  }

  /** The lines of a log group that match `pattern`, counted per 5 minutes (a metric filter). */
  private linesCounted(id: string, logGroupName: string, pattern: logs.IFilterPattern, metricName: string) {
    const filter = new logs.MetricFilter(this, `${id}Filter`, {
      logGroup: this.logGroup(id, logGroupName),
      filterPattern: pattern,
      metricNamespace: SERVICE_NAME,
      metricName,
      metricValue: '1',
      defaultValue: 0,
    });
    return filter.metric({ period: Duration.minutes(5), statistic: cloudwatch.Stats.SUM });
  }

  /**
   * The outbox reconciler re-drove a record (one log line each, lib/outbox-reconciler.ts): a change the
   * stream never delivered, or a payment or activation stuck past the bound. Either is someone's to look
   * at, so any in 5 minutes pages.
   */
  onRedriven(id: string, logGroupName: string, stage: string, message: string): cloudwatch.Alarm {
    return this.alarm(
      id,
      'The outbox reconciler re-drove records whose work was owed past its bound (its log names each).',
      this.linesCounted(
        id,
        logGroupName,
        logs.FilterPattern.stringValue('$.message', '=', message),
        `${stage}-outbox-redriven`,
      ),
      0,
    );
  }

  /** A queue whose oldest message waits longer than `maxAge`: its worker is failing or starved. */
  onQueueAge(id: string, queueName: string, queueLabel: string, maxAge: Duration): cloudwatch.Alarm {
    return this.alarm(
      id,
      `The oldest message of ${queueLabel} is older than ${maxAge.toMinutes()} minutes.`,
      this.metricOf(
        QUEUE,
        queueName,
        'ApproximateAgeOfOldestMessage',
        cloudwatch.Stats.MAXIMUM,
        Duration.minutes(5),
      ),
      maxAge.toSeconds(),
    );
  }

  /**
   * The API's p99 latency above 5 s (functions answer within 10 s; most within tens of ms), the sandbox
   * helpers left out: they wait on ledger rounds by design (up to 28 s), and a developer's helper calls
   * must not page on-call nor hide a slow production route. API Gateway's Latency metric has no route
   * dimension (without detailed metrics, and then a p99 per route), so a metric filter reads each request's
   * latency from the access log (`latencyMs`, a number there), paths under `sandboxPath` excepted.
   */
  onLatency(id: string, accessLogsName: string, stage: string, sandboxPath: string): cloudwatch.Alarm {
    const filter = new logs.MetricFilter(this, `${id}Filter`, {
      logGroup: this.logGroup(id, accessLogsName),
      filterPattern: logs.FilterPattern.stringValue('$.path', '!=', `${sandboxPath}/*`),
      metricNamespace: SERVICE_NAME,
      metricName: `${stage}-http-latency`,
      metricValue: '$.latencyMs',
      unit: cloudwatch.Unit.MILLISECONDS,
    });
    return this.alarm(
      id,
      `The HTTP API p99 latency is above 5 s (${sandboxPath} helpers excepted).`,
      filter.metric({ period: Duration.minutes(5), statistic: cloudwatch.Stats.p(99) }),
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
  onTooManyRequests(id: string, accessLogsName: string, stage: string): cloudwatch.Alarm {
    return this.alarm(
      id,
      'The HTTP API answered more than 100 requests with 429 in 5 minutes, twice in a row.',
      // The access log's `status` is written as a string (infra/constructs/gateway-api.ts).
      this.linesCounted(
        id,
        accessLogsName,
        logs.FilterPattern.stringValue('$.status', '=', '429'),
        `${stage}-http-429`,
      ),
      100,
      2,
    );
  }

  /**
   * The share of the distribution's responses that are 5xx (the API's own, and those CloudFront makes
   * when the origin cannot be reached or its certificate does not match) above 5 % in each of two
   * 5-minute periods, counted only when they hold at least MIN_EDGE_REQUESTS requests: a quiet stage's
   * one failed call out of three is not an incident. CloudFront publishes in us-east-1 only.
   */
  onDistributionErrors(id: string, distributionId: string): cloudwatch.Alarm {
    const metric = (metricName: string, statistic: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/CloudFront',
        metricName,
        dimensionsMap: { DistributionId: distributionId, Region: 'Global' },
        statistic,
        period: Duration.minutes(5),
      });
    return this.alarm(
      id,
      `More than 5 % of the distribution's responses were 5xx, twice in a row (${MIN_EDGE_REQUESTS}+ requests).`,
      new cloudwatch.MathExpression({
        expression: `IF(requests >= ${MIN_EDGE_REQUESTS}, rate, 0)`,
        usingMetrics: {
          requests: metric('Requests', cloudwatch.Stats.SUM),
          rate: metric('5xxErrorRate', cloudwatch.Stats.AVERAGE),
        },
        period: Duration.minutes(5),
        label: '5xx rate (%)',
      }),
      5,
      2,
    );
  }

  /**
   * The share of requests the web ACL blocked (rate rules, managed rules, the body cap) above 10 % in
   * each of two 5-minute periods of at least MIN_EDGE_REQUESTS requests: an attack under way, or a rule
   * refusing legitimate integrators. WAF publishes a CloudFront web ACL's metrics in us-east-1.
   */
  onBlockedRequests(id: string, webAclName: string): cloudwatch.Alarm {
    const metric = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/WAFV2',
        metricName,
        dimensionsMap: { WebACL: webAclName, Rule: 'ALL' },
        statistic: cloudwatch.Stats.SUM,
        period: Duration.minutes(5),
      });
    return this.alarm(
      id,
      `The web ACL blocked more than 10 % of requests, twice in a row (${MIN_EDGE_REQUESTS}+ requests).`,
      new cloudwatch.MathExpression({
        expression: `IF(allowed + blocked >= ${MIN_EDGE_REQUESTS}, 100 * blocked / (allowed + blocked), 0)`,
        usingMetrics: { allowed: metric('AllowedRequests'), blocked: metric('BlockedRequests') },
        period: Duration.minutes(5),
        label: 'blocked rate (%)',
      }),
      10,
      2,
    );
  }

  /**
   * A certificate of this stack's region within CERTIFICATE_WARNING_DAYS of its end. ACM publishes each
   * certificate's DaysToExpiry once a day in its region. One ACM issued renews itself 60 days ahead, so
   * this fires only when a renewal failed (its validation record gone); an imported one, such as the
   * origin's client certificate, renews only when someone imports its successor.
   */
  onCertificateExpiry(id: string, certificateArn: string, label: string): cloudwatch.Alarm {
    return this.alarm(
      id,
      `${label} expires in fewer than ${CERTIFICATE_WARNING_DAYS} days (docs/production.md, Certificates).`,
      new cloudwatch.Metric({
        namespace: 'AWS/CertificateManager',
        metricName: 'DaysToExpiry',
        dimensionsMap: { CertificateArn: certificateArn },
        statistic: cloudwatch.Stats.MINIMUM,
        period: Duration.days(1),
      }),
      CERTIFICATE_WARNING_DAYS,
      1,
      cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
    );
  }

  /** Requests DynamoDB throttled: the table's on-demand capacity is being outrun. */
  onTableThrottles(id: string, tableName: string): cloudwatch.Alarm {
    const table = dynamodb.Table.fromTableName(this, `${id}Table`, this.ours(tableName));
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

  /**
   * A sandbox reserve (SandboxReserve, lib/ledger/sandbox-reserves.ts, published by each top-up run: the
   * funding account's XLM, the settlement accounts' lowest balance of an asset) below `floor` for an hour:
   * the top-up is not keeping up, and every sandbox tenant's activations or receipts wait for it.
   */
  onSandboxReserveLow(
    id: string,
    stage: string,
    reserve: { account: 'funding' | 'settlement'; asset: string },
    floor: number,
  ): cloudwatch.Alarm {
    return this.alarm(
      id,
      `A sandbox ${reserve.account} account has held less than ${floor} ${reserve.asset} for an hour (docs/production.md, Sandbox reserves).`,
      new cloudwatch.Metric({
        namespace: metricsNamespaceOf(SERVICE_NAME, stage),
        metricName: metricNames.sandboxReserve,
        dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAME, ...reserve },
        statistic: cloudwatch.Stats.MINIMUM,
        period: Duration.minutes(15),
      }),
      floor,
      4,
      cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
    );
  }

  /**
   * SES's reputation of the account the notices are sent from: it reviews an account whose bounce rate
   * passes 5 % or complaint rate 0.1 %, and may pause its sending at 10 % and 0.5 %; these page at half
   * the review thresholds, while there is time to find the tenant or address list behind them.
   */
  onSesReputation(id: string): void {
    const rate = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/SES',
        metricName,
        statistic: cloudwatch.Stats.MAXIMUM,
        period: Duration.hours(1),
      });
    this.alarm(
      `${id}BounceRate`,
      'SES bounce rate above 2.5 % (SES reviews the account at 5 %, may pause it at 10 %).',
      rate('Reputation.BounceRate'),
      0.025,
    );
    this.alarm(
      `${id}ComplaintRate`,
      'SES complaint rate above 0.05 % (SES reviews the account at 0.1 %, may pause it at 0.5 %).',
      rate('Reputation.ComplaintRate'),
      0.0005,
    );
  }

  /**
   * A backup job of the vault that failed or expired (never started in its window), or a copy to the
   * other account's vault that failed, in a day: the table's recovery point of that day is missing.
   */
  onBackupJobs(id: string, vaultName: string): cloudwatch.Alarm {
    const jobs = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/Backup',
        metricName,
        dimensionsMap: { BackupVaultName: this.ours(vaultName) },
        statistic: cloudwatch.Stats.SUM,
        period: Duration.days(1),
      });
    return this.alarm(
      id,
      'A backup job of the table failed or expired, or its copy failed (docs/production.md, Backups).',
      new cloudwatch.MathExpression({
        expression: 'FILL(failed, 0) + FILL(expired, 0) + FILL(copyFailed, 0)',
        usingMetrics: {
          failed: jobs('NumberOfBackupJobsFailed'),
          expired: jobs('NumberOfBackupJobsExpired'),
          copyFailed: jobs('NumberOfCopyJobsFailed'),
        },
        period: Duration.days(1),
        label: 'failed or expired backup jobs',
      }),
      0,
    );
  }

  /** Any message in a dead-letter queue is a message that was not processed: someone must look. */
  onDeadLetters(id: string, deadLetterQueueName: string, queueLabel: string): cloudwatch.Alarm {
    return this.alarm(
      id,
      `Messages in the dead-letter queue of ${queueLabel}.`,
      this.metricOf(
        QUEUE,
        deadLetterQueueName,
        'ApproximateNumberOfMessagesVisible',
        cloudwatch.Stats.MAXIMUM,
        Duration.minutes(1),
      ),
      0,
    );
  }

  /**
   * Handled errors are 4xx problem bodies; a 5xx is a bug, a timeout or an unreachable dependency
   * (key material answers 503/504), so every one of them is worth a notification.
   */
  onServerErrors(id: string, apiId: string): cloudwatch.Alarm {
    return this.alarm(
      id,
      'The HTTP API answered 5xx.',
      this.metricOf(HTTP_API, apiId, '5xx', cloudwatch.Stats.SUM, Duration.minutes(5)),
      0,
    );
  }
}

/** The topic of a stage's alarms, with the alarms of its own stack (the edge's, the key replica's). */
export class AlarmTopic extends Alarms {
  // Encrypted with a customer-managed key of its own: CloudWatch cannot publish to a topic under the
  // AWS-managed aws/sns key, so the key's policy admits CloudWatch to encrypt what it publishes.
  override readonly topic: sns.Topic;
  private readonly encryption: CustomerKey;

  constructor(scope: Construct, id: string, props: AlarmTopicProps) {
    super(scope, id, props.stage);
    const { emails, httpsEndpoints } = props.subscribers;
    if (props.production && emails.length + httpsEndpoints.length === 0) {
      throw new SynthRefusal(
        `Stage ${props.stage} needs an alarm subscriber: pass -c alarmEmail=<on-call address> ` +
          'and/or -c alarmHttpsEndpoint=<pager URL> (docs/production.md).',
      );
    }
    const stack = Stack.of(this);
    // Confused-deputy guard (AWS's advice for CloudWatch → SNS): only this account's alarms of this stage.
    const fromOwnAlarms = {
      StringEquals: { 'aws:SourceAccount': stack.account },
      ArnLike: {
        'aws:SourceArn': stack.formatArn({
          service: 'cloudwatch',
          resource: 'alarm',
          resourceName: `${this.alarmNamePrefix}*`,
          arnFormat: ArnFormat.COLON_RESOURCE_NAME,
        }),
      },
    };
    this.encryption = new CustomerKey(this, 'Encryption', {
      description: `${SERVICE_NAME} ${props.stage}: encrypts the alarm topic`,
      alias: `${SERVICE_NAME}/${props.stage}/alarms`,
      removalPolicy: props.removalPolicy,
    });
    this.encryption.admitService('cloudwatch.amazonaws.com', TOPIC_KEY_USE, fromOwnAlarms);
    this.topic = new sns.Topic(this, 'Topic', {
      displayName: `${SERVICE_NAME} ${props.stage} alarms`,
      enforceSSL: true,
      masterKey: this.encryption.key,
    });
    // enforceSSL writes the topic's policy, which replaces SNS's default one: without this statement
    // CloudWatch is "not authorized to perform SNS:Publish" and no alarm reaches anyone.
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: fromOwnAlarms,
      }),
    );
    emails.forEach((endpoint, index) => {
      new sns.Subscription(this, `Email${index}`, {
        topic: this.topic,
        protocol: sns.SubscriptionProtocol.EMAIL,
        endpoint,
      });
    });
    httpsEndpoints.forEach((endpoint, index) => {
      new sns.Subscription(this, `Https${index}`, {
        topic: this.topic,
        protocol: sns.SubscriptionProtocol.HTTPS,
        endpoint,
      });
    });
  }

  /**
   * Lets EventBridge rules of this stage (named `<alarmNamePrefix>…`) publish to the topic: the topic's
   * grant comes with the rule's SNS target, the key's is here, for those rules only.
   */
  admitEventRules(): string {
    const stack = Stack.of(this);
    this.encryption.admitService('events.amazonaws.com', TOPIC_KEY_USE, {
      StringEquals: { 'aws:SourceAccount': stack.account },
      ArnLike: {
        'aws:SourceArn': stack.formatArn({
          service: 'events',
          resource: 'rule',
          resourceName: `${this.alarmNamePrefix}*`,
        }),
      },
    });
    return this.alarmNamePrefix;
  }
}

/**
 * The stage's alarms in a stack of their own, on the topic of the stack that keeps it (the topic and its
 * subscriptions stay where they were confirmed; its ARN is read from that stack's output).
 */
export class TopicAlarms extends Alarms {
  override readonly topic: sns.ITopic;

  constructor(scope: Construct, id: string, props: { stage: string; topic: sns.ITopic }) {
    super(scope, id, props.stage);
    this.topic = sns.Topic.fromTopicArn(this, 'Topic', this.ours(props.topic.topicArn));
  }
}
