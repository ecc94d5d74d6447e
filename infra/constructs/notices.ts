// Beneficiary notices (lib/notifications): SES for email, the WhatsApp Business Cloud API for WhatsApp.
//
// Email: the stage's sending identity is a domain, given as context (`-c noticeEmailDomain=<domain>`),
// verified by the DKIM records its outputs name (docs/production.md); notices go from notices@<domain>
// through the stage's configuration set, whose event destination publishes bounces and complaints to
// EventBridge, where a rule invokes the feedback function (a delivery EventBridge could not make goes to
// a dead-letter queue of its own, alarmed). The notifier may send from that identity, through that
// configuration set, from that address, and nothing else; so may the sandbox helpers, which send sandbox
// recipients their verification codes. Without the domain, email notices are
// recorded `skipped`.
//
// WhatsApp: `-c whatsAppPhoneNumberId=<id> -c whatsAppTokenSecretName=<secret>`: the business phone
// number's id and the Secrets Manager secret `{accessToken}` the operator created with Meta's token. Prod
// refuses to synthesize with a phone number and no secret; any other stage leaves WhatsApp off then.
import { Annotations, CfnOutput, type RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as destinations from 'aws-cdk-lib/aws-lambda-destinations';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as ses from 'aws-cdk-lib/aws-ses';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct, type Node } from 'constructs';
import { NO_EMAIL_IDENTITY_WARNING, noEmailIdentity } from '../../lib/notifications/email-identity.ts';
import { SynthRefusal } from '../stage.ts';
import { deadLetterQueue } from './dead-letter-queue.ts';

export interface NoticeSettings {
  /** The SES sending identity (a domain); notices go from notices@<domain>. */
  emailDomain?: string | undefined;
  whatsApp?: { phoneNumberId: string; tokenSecretName?: string | undefined } | undefined;
}

export const FEEDBACK_DEAD_LETTERS_QUEUE = 'ses-feedback-dlq';
export const FEEDBACK_FAILURES_QUEUE = 'ses-feedback-failures';
/** What `cdk synth`/`cdk deploy` print for a production stage that sends no email notices. */
export { NO_EMAIL_IDENTITY_WARNING };

/** The stage's notice settings from `-c noticeEmailDomain=… -c whatsAppPhoneNumberId=… -c whatsAppTokenSecretName=…`. */
export function noticesFromContext(node: Node): NoticeSettings {
  const text = (name: string, pattern: RegExp, what: string): string | undefined => {
    const value: unknown = node.tryGetContext(name);
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || !pattern.test(value))
      throw new SynthRefusal(`"${name}" must be ${what}: ${String(value)}`);
    return value;
  };
  const emailDomain = text('noticeEmailDomain', /^([a-z0-9-]+\.)+[a-z]{2,}$/, 'a domain name');
  const phoneNumberId = text('whatsAppPhoneNumberId', /^\d{5,20}$/, 'a WhatsApp phone number id');
  const tokenSecretName = text('whatsAppTokenSecretName', /^[\w/+=.@-]{1,512}$/, 'a secret name');
  return { emailDomain, whatsApp: phoneNumberId ? { phoneNumberId, tokenSecretName } : undefined };
}

export class Notices extends Construct {
  readonly configurationSet: ses.ConfigurationSet;
  readonly deadLetterQueue: sqs.Queue;
  /** The feedback function's invocations that failed for good (its on-failure destination). */
  readonly failureQueue: sqs.Queue;

  constructor(
    scope: Construct,
    id: string,
    props: NoticeSettings & {
      stage: string;
      production: boolean;
      removalPolicy: RemovalPolicy;
      /**
       * What sends: the payment-notifier, and the sandbox helpers, which send a sandbox recipient its
       * verification code (lib/notifications/recipients.ts) through the same channels.
       */
      senders: readonly { function: lambda.Function; role: iam.IRole }[];
      feedback: lambda.IFunction;
    },
  ) {
    super(scope, id);
    const { stage, senders } = props;
    const { partition, region, account } = Stack.of(this);
    const whatsApp = props.whatsApp;
    if (whatsApp && !whatsApp.tokenSecretName && props.production)
      throw new SynthRefusal(
        'WhatsApp is enabled (whatsAppPhoneNumberId) without its access token: pass -c whatsAppTokenSecretName=<secret>.',
      );

    this.configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: `${stage}-notices`,
      reputationMetrics: true,
      // Notices carry amounts, names and references: never sent to a mail server that cannot take TLS.
      tlsPolicy: ses.ConfigurationSetTlsPolicy.REQUIRE,
      // SES's account-level list keeps them too; ours (lib/notifications/feedback.ts) says why on the record.
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    const configurationSetArn = `arn:${partition}:ses:${region}:${account}:configuration-set/${this.configurationSet.configurationSetName}`;
    this.configurationSet.addEventDestination('Feedback', {
      destination: ses.EventDestination.eventBus(events.EventBus.fromEventBusName(this, 'Bus', 'default')),
      events: [ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT],
    });

    // EventBridge invokes the feedback function asynchronously: an invocation that fails after Lambda's
    // own retries (the table unreachable, a bug) goes to this queue, alarmed, instead of being dropped, so
    // no bounce or complaint is lost unrecorded (its address would be mailed again).
    this.failureQueue = deadLetterQueue(this, 'FeedbackFailureQueue', {
      stage,
      name: FEEDBACK_FAILURES_QUEUE,
      removalPolicy: props.removalPolicy,
      holds: 'the SES feedback function’s failed',
    });
    props.feedback.configureAsyncInvoke({
      onFailure: new destinations.SqsDestination(this.failureQueue),
      retryAttempts: 2,
    });
    this.deadLetterQueue = deadLetterQueue(this, 'FeedbackDeadLetterQueue', {
      stage,
      name: FEEDBACK_DEAD_LETTERS_QUEUE,
      removalPolicy: props.removalPolicy,
      holds: 'the SES feedback rule target’s',
    });
    new events.Rule(this, 'FeedbackRule', {
      description: 'SES bounces and complaints of beneficiary notices: marks the address and the record.',
      eventPattern: {
        source: ['aws.ses'],
        detailType: ['Email Bounced', 'Email Complaint Received'],
        resources: [configurationSetArn],
      },
      targets: [
        new targets.LambdaFunction(props.feedback, {
          deadLetterQueue: this.deadLetterQueue,
          retryAttempts: 8,
        }),
      ],
    });

    if (props.emailDomain) {
      const identity = new ses.EmailIdentity(this, 'Identity', {
        identity: ses.Identity.domain(props.emailDomain),
        configurationSet: this.configurationSet,
      });
      const from = `notices@${props.emailDomain}`;
      for (const sender of senders) {
        sender.function.addEnvironment('NOTIFY_EMAIL_FROM', from);
        sender.function.addEnvironment('SES_CONFIGURATION_SET', this.configurationSet.configurationSetName);
        sender.role.addToPrincipalPolicy(
          new iam.PolicyStatement({
            actions: ['ses:SendEmail'],
            resources: [identity.emailIdentityArn, configurationSetArn],
            conditions: { StringEquals: { 'ses:FromAddress': from } },
          }),
        );
      }
      // What the domain's DNS must hold for SES to verify it and sign with it (docs/production.md).
      identity.dkimRecords.forEach((record, i) => {
        new CfnOutput(this, `DkimRecord${i + 1}`, {
          description: `Notices' sending domain: CNAME ${i + 1} of 3 (DKIM)`,
          value: `${record.name} CNAME ${record.value}`,
        });
      });
    }

    // Production without a sending identity tells no beneficiary by email: every notifyEmail notice is
    // recorded skipped. Said at every synth and deploy (a warning), not discovered from the records.
    if (!props.emailDomain && props.production)
      Annotations.of(this).addWarningV2(
        NO_EMAIL_IDENTITY_WARNING,
        noEmailIdentity('-c noticeEmailDomain=<domain>'),
      );

    if (whatsApp?.tokenSecretName) {
      const token = secretsmanager.Secret.fromSecretNameV2(this, 'WhatsAppToken', whatsApp.tokenSecretName);
      for (const sender of senders) {
        token.grantRead(sender.role);
        sender.function.addEnvironment('WHATSAPP_PHONE_NUMBER_ID', whatsApp.phoneNumberId);
        sender.function.addEnvironment('WHATSAPP_TOKEN_SECRET_ID', token.secretName);
      }
    } else if (whatsApp)
      Annotations.of(this).addWarningV2(
        'payments-gateway:whatsapp-without-token',
        'WhatsApp is not enabled: whatsAppPhoneNumberId is set without whatsAppTokenSecretName.',
      );
  }
}
