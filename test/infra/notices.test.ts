// Beneficiary notices in AWS (infra/constructs/notices.ts): SES's configuration set with its event
// destination on EventBridge, the rule that brings bounces and complaints to the feedback function (with
// its alarmed DLQ), the notice queue's own DLQ, the notifier's send grant scoped to the stage's identity,
// configuration set and From address, and the WhatsApp token; prod refuses WhatsApp without its secret.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { PaymentsGatewayStack } from '../../infra/stack.ts';
import { SynthRefusal } from '../../infra/stage.ts';
import { physicalDeadLetterQueueName, physicalQueueName } from '../../lib/queue-names.ts';
import {
  asArray,
  ensureBundles,
  newApp,
  ofType,
  onlyOfType,
  type Resources,
  referencedId,
  stageProps,
  stageTemplate,
  statementsOfRole,
} from './support.ts';

await ensureBundles();
const notices = {
  emailDomain: 'payments.example',
  whatsApp: { phoneNumberId: '1234567890', tokenSecretName: 'dev/payments-gateway/whatsapp-token' },
};
const stack = new PaymentsGatewayStack(newApp(), 'Notices', { stage: 'dev', notices });
const resources = stageTemplate(stack).toJSON().Resources as Resources;
const props = (id: string) => resources[id]?.Properties ?? {};

const functionOf = (bundle: string) => {
  const [found] = ofType(resources, 'AWS::Lambda::Function').filter(([, r]) =>
    String(r.Properties?.Description).endsWith(` ${bundle}`),
  );
  assert.ok(found, bundle);
  return found;
};

describe('beneficiary notices', () => {
  test('a configuration set whose event destination publishes bounces and complaints to EventBridge', () => {
    const setId = onlyOfType(resources, 'AWS::SES::ConfigurationSet');
    assert.equal(props(setId).Name, 'dev-notices');
    const destination = props(onlyOfType(resources, 'AWS::SES::ConfigurationSetEventDestination'));
    assert.equal(referencedId(destination.ConfigurationSetName), setId);
    const event = destination.EventDestination as Record<string, unknown>;
    assert.deepEqual(asArray(event.MatchingEventTypes as string[]).sort(), ['bounce', 'complaint']);
    assert.ok(event.EventBridgeDestination, JSON.stringify(event));
    const identity = props(onlyOfType(resources, 'AWS::SES::EmailIdentity'));
    assert.equal(identity.EmailIdentity, 'payments.example');
    assert.equal(
      referencedId(
        identity.ConfigurationSetAttributes &&
          (identity.ConfigurationSetAttributes as { ConfigurationSetName: unknown }).ConfigurationSetName,
      ),
      setId,
    );
  });

  test('the feedback rule invokes the feedback function, its failures into an alarmed DLQ', () => {
    const [feedbackId] = functionOf('events/ses-feedback');
    const [[, rule] = []] = ofType(resources, 'AWS::Events::Rule').filter(([, r]) =>
      String(JSON.stringify(r.Properties?.EventPattern)).includes('aws.ses'),
    );
    assert.ok(rule);
    const pattern = rule.Properties?.EventPattern as Record<string, unknown>;
    assert.deepEqual(pattern['detail-type'], ['Email Bounced', 'Email Complaint Received']);
    const [target] = (rule.Properties?.Targets ?? []) as {
      Arn: unknown;
      DeadLetterConfig?: { Arn: unknown };
    }[];
    assert.equal(referencedId(target?.Arn), feedbackId);
    const dlqId = referencedId(target?.DeadLetterConfig?.Arn);
    assert.equal(props(dlqId).QueueName, physicalQueueName('dev', 'ses-feedback-dlq'));
    const alarmed = ofType(resources, 'AWS::CloudWatch::Alarm').some(([, alarm]) =>
      String(JSON.stringify(alarm.Properties?.Dimensions)).includes(dlqId),
    );
    assert.ok(alarmed, 'the feedback DLQ is alarmed');
  });

  test('the notice queue feeds the notifier, and redrives into its DLQ', () => {
    const [[queueId, queue] = []] = ofType(resources, 'AWS::SQS::Queue').filter(
      ([, r]) => r.Properties?.QueueName === physicalQueueName('dev', 'payment-notifications'),
    );
    assert.ok(queueId && queue);
    const redrive = queue.Properties?.RedrivePolicy as {
      deadLetterTargetArn: unknown;
      maxReceiveCount: number;
    };
    assert.equal(
      props(referencedId(redrive.deadLetterTargetArn)).QueueName,
      physicalDeadLetterQueueName('dev', 'payment-notifications'),
    );
    const [notifierId] = functionOf('workers/payment-notifier');
    const mapped = ofType(resources, 'AWS::Lambda::EventSourceMapping').some(
      ([, m]) =>
        referencedId(m.Properties?.EventSourceArn) === queueId &&
        m.Properties?.FunctionName &&
        JSON.stringify(m.Properties.FunctionName).includes(notifierId),
    );
    assert.ok(mapped);
  });

  test('the notifier sends email only from the stage’s identity, through its configuration set, as notices@', () => {
    const [notifierId, notifier] = functionOf('workers/payment-notifier');
    const variables =
      (notifier.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ??
      {};
    assert.equal(variables.NOTIFY_EMAIL_FROM, 'notices@payments.example');
    assert.equal(
      referencedId(variables.SES_CONFIGURATION_SET),
      onlyOfType(resources, 'AWS::SES::ConfigurationSet'),
    );
    assert.equal(variables.WHATSAPP_PHONE_NUMBER_ID, '1234567890');
    const statements = statementsOfRole(resources, referencedId(props(notifierId).Role));
    const sends = statements.filter((s) => asArray(s.Action).some((a) => a.startsWith('ses:')));
    assert.equal(sends.length, 1, JSON.stringify(sends));
    const [send] = sends;
    assert.deepEqual(asArray(send?.Action), ['ses:SendEmail']);
    const resourcesText = JSON.stringify(send?.Resource);
    assert.ok(!resourcesText.includes('"*"'), resourcesText);
    assert.match(resourcesText, /identity\/payments\.example|EmailIdentity|Identity/);
    assert.match(resourcesText, /configuration-set\//);
    assert.deepEqual(send?.Condition, { StringEquals: { 'ses:FromAddress': 'notices@payments.example' } });
    // The WhatsApp token: read, and no other secret beyond what the notifier is declared to read (none).
    const secretReads = statements.filter((s) => asArray(s.Action).includes('secretsmanager:GetSecretValue'));
    assert.equal(secretReads.length, 1);
    assert.match(JSON.stringify(secretReads[0]?.Resource), /whatsapp-token/);
    // The feedback function sends nothing.
    const [feedbackId] = functionOf('events/ses-feedback');
    const feedbackStatements = statementsOfRole(resources, referencedId(props(feedbackId).Role));
    assert.ok(!feedbackStatements.some((s) => asArray(s.Action).some((a) => a.startsWith('ses:'))));
  });

  test('the portal’s sign-in codes and team invitations go out from the same identity, as notices@', () => {
    for (const bundle of ['api/portal']) {
      const [id, fn] = functionOf(bundle);
      const variables =
        (fn.Properties?.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      assert.equal(variables.NOTIFY_EMAIL_FROM, 'notices@payments.example', bundle);
      const sends = statementsOfRole(resources, referencedId(props(id).Role)).filter((s) =>
        asArray(s.Action).some((a) => a.startsWith('ses:')),
      );
      assert.equal(sends.length, 1, bundle);
      assert.deepEqual(sends[0]?.Condition, {
        StringEquals: { 'ses:FromAddress': 'notices@payments.example' },
      });
    }
  });

  test('prod refuses to synthesize with WhatsApp enabled and no token secret', () => {
    assert.throws(
      () =>
        new PaymentsGatewayStack(newApp(), 'ProdWhatsApp', {
          ...stageProps('prod'),
          notices: { whatsApp: { phoneNumberId: '1234567890' } },
        }),
      (error: Error) => error instanceof SynthRefusal && /whatsAppTokenSecretName/.test(error.message),
    );
  });
});
