// What a beneficiary is told, in one place: one short message per event and locale, with the amount,
// the currency, who sent it and the reference they gave (`toRef`), and never an internal id. A new
// language is a new entry of TEMPLATES; WhatsApp's template (approved in Meta's Business Manager under
// WHATSAPP_TEMPLATE) takes the same three values as its body parameters, in this order.

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

export function renderNotice(values: NoticeValues, locale: Locale = 'en'): RenderedNotice {
  const template = TEMPLATES[locale][values.event];
  const amount = `${values.amount} ${values.currency}`;
  const reference = values.reference ?? template.noReference;
  return {
    subject: template.subject(values),
    text: template.text(values, amount, reference),
    parameters: [amount, values.senderName, reference],
  };
}
