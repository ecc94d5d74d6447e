// What a beneficiary is told, in one place: one short message per event and locale, with the amount,
// the currency, who sent it and the reference they gave (`toRef`), and never an internal id. A new
// language is a new entry of TEMPLATES; WhatsApp's template (approved in Meta's Business Manager under
// WHATSAPP_TEMPLATE) takes the same three values as its body parameters, in this order.
//
// A sandbox notice tells of a payment that never happened: its subject and text start with TEST and
// say so, and its WhatsApp amount reads "TEST …", so nobody takes it for money received.

/** The events a beneficiary is told of: a payment that reached them, an off-ramp paid out to them. */
export type NoticeEvent = 'payment.completed' | 'offramp.paid_out';

export interface NoticeValues {
  event: NoticeEvent;
  /** A decimal string, as the record holds it. */
  amount: string;
  currency: string;
  senderName: string;
  /** The sender's reference for the beneficiary, or null when they gave none. */
  reference: string | null;
}

export interface RenderedNotice {
  subject: string;
  text: string;
  /** WhatsApp template body parameters: amount with currency, sender, reference. */
  parameters: [string, string, string];
  /** WhatsApp: the verification code's template (WHATSAPP_CODE_TEMPLATE) instead of the notice's. */
  template?: 'code';
}

type Locale = 'en';

interface Template {
  subject(values: NoticeValues): string;
  text(values: NoticeValues, amount: string, reference: string): string;
  noReference: string;
}

const TEMPLATES: Record<Locale, Record<NoticeEvent, Template>> = {
  en: {
    'payment.completed': {
      subject: (v) => `You received ${v.amount} ${v.currency} from ${v.senderName}`,
      text: (v, amount, reference) =>
        `${v.senderName} sent you ${amount}.\nReference: ${reference}\n\nThe payment has completed.`,
      noReference: 'none',
    },
    'offramp.paid_out': {
      subject: (v) => `${v.senderName} paid you ${v.amount} ${v.currency}`,
      text: (v, amount, reference) =>
        `${v.senderName} paid ${amount} out to your account.\nReference: ${reference}\n\nThe payout has completed.`,
      noReference: 'none',
    },
  },
};

const TEST_SUBJECT = 'TEST: ';
const TEST_TEXT = 'TEST: a sandbox notice; no money moved.\n\n';

export function renderNotice(
  values: NoticeValues,
  options: { test: boolean },
  locale: Locale = 'en',
): RenderedNotice {
  const template = TEMPLATES[locale][values.event];
  const amount = `${values.amount} ${values.currency}`;
  const reference = values.reference ?? template.noReference;
  const test = (prefix: string, text: string) => (options.test ? `${prefix}${text}` : text);
  return {
    subject: test(TEST_SUBJECT, template.subject(values)),
    text: test(TEST_TEXT, template.text(values, amount, reference)),
    parameters: [test('TEST ', amount), values.senderName, reference],
  };
}

/** The code that verifies a sandbox recipient (lib/notifications/recipients.ts); sandbox only, so TEST. */
export function renderRecipientCode(code: string, senderName: string, validMinutes: number): RenderedNotice {
  return {
    subject: `${TEST_SUBJECT}your code to receive ${senderName}'s sandbox notices`,
    text: `${TEST_TEXT}${senderName} asked to send you test notices from its sandbox. To agree, give them this code: ${code}\nIt is valid for ${validMinutes} minutes. If you did not expect this, ignore it: nothing more will be sent.`,
    parameters: [code, senderName, 'TEST'],
    template: 'code',
  };
}
