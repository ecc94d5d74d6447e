// A channel sends one rendered notice to one address and answers with its own id for the message, or
// throws when it could not (the notifier retries). A channel that is not configured for the stage is
// null: the notice is recorded `skipped`, with why, instead of pretending it was sent.
import type { RenderedNotice } from './templates.ts';

export interface NoticeTags {
  environment: string;
  associationId: string;
  /** Absent on a sandbox recipient's verification code, which belongs to no record. */
  transactionRecordId?: string;
}

export interface Channel {
  send(to: string, notice: RenderedNotice, tags: NoticeTags): Promise<{ messageId: string }>;
}
