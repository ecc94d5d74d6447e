// Telling a beneficiary that a payment reached them (notifyEmail / notifyWhatsApp on the beneficiary
// routes). One interface, chosen per environment: the sandbox sink only logs the notice (masked) and
// the record shows it was "sent"; production would plug in an email sender (Amazon SES) and a WhatsApp
// Business API client behind the same interface. Until one is configured, production notices are logged
// as not sent, and the record says so (`via: none`).
import type { Environment } from '../http/types.ts';
import { logger } from '../log.ts';
import type { NotifyChannel } from './repo.ts';

export interface PaymentNotice {
  channel: NotifyChannel;
  /** The beneficiary's email or E.164 mobile number. */
  to: string;
  transactionRecordId: string;
  amount: string;
  assetCode: string;
  toRef: string | null;
}

export interface Notifier {
  /** What the record names as the sender (`sandbox-sink`, `ses`, …). */
  readonly via: string;
  /** Resolves once the notice is handed over; throws when it could not be (the worker retries). */
  send(notice: PaymentNotice): Promise<void>;
}

const maskedTo = (to: string) => `${to.slice(0, 2)}…${to.slice(-4)}`;

const sandboxSink: Notifier = {
  via: 'sandbox-sink',
  async send(notice) {
    logger.info('Payment notice (sandbox sink: logged, not sent)', { ...notice, to: maskedTo(notice.to) });
  },
};

const unconfigured: Notifier = {
  via: 'none',
  async send(notice) {
    logger.warn('Payment notice not sent: no notifier is configured for production', {
      transactionRecordId: notice.transactionRecordId,
      channel: notice.channel,
    });
  },
};

export const notifierFor = (environment: Environment): Notifier =>
  environment === 'sandbox' ? sandboxSink : unconfigured;
