// Submitting an envelope to Horizon (POST /transactions) from its XDR as submit.ts persisted it: nothing
// is decoded or encoded again, and the answer is read as JSON without the SDK's decoding of its result
// XDR (offer results we never read). Its failures have the SDK's shape (`response`: status, statusText and
// Horizon's problem body, `extras.result_codes` among it), which result-codes.ts classifies.
import { channel } from 'node:diagnostics_channel';
import type { Environment } from '../tenant.ts';
import { horizonRequest, horizonUrl } from './horizon-json.ts';

/** A transaction in a closed ledger, as Horizon answers a submission it applied. */
export interface SubmittedTransaction {
  hash: string;
  ledger: number | null;
  /** The transaction's result (base64 XDR): the fee it was charged, for the record's history. */
  resultXdr?: string;
}

/** Horizon's answer to a submission it did not apply, as the SDK's submission errors carry it. */
export class SubmissionRefused extends Error {
  override name = 'SubmissionRefused';
  readonly response: { status: number; statusText: string; data: unknown };

  constructor(status: number, statusText: string, data: unknown) {
    super(`Transaction submission failed. Server responded: ${status} ${statusText}`);
    this.response = { status, statusText, data };
  }
}

/**
 * Every answer to a submission (`accepted`, a result code, `HTTP <status>` or `no answer`), for whoever
 * listens: the bench's submission burst tallies them.
 */
export const SUBMISSION_ANSWERS_CHANNEL = 'payments-gateway:ledger:submission-answer';
const answers = channel(SUBMISSION_ANSWERS_CHANNEL);

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** POSTs the envelope (base64 XDR); resolves once Horizon says it is in a closed ledger. */
export async function submitEnvelope(
  environment: Environment,
  envelopeXdr: string,
): Promise<SubmittedTransaction> {
  let answer = 'no answer';
  try {
    const response = await horizonRequest(horizonUrl(environment, ['transactions']), 'POST', {
      type: 'application/x-www-form-urlencoded',
      text: `tx=${encodeURIComponent(envelopeXdr)}`,
    });
    const data = parsed(response.text) as
      | {
          hash?: string;
          ledger?: number;
          result_xdr?: string;
          extras?: { result_codes?: { transaction?: string } };
        }
      | undefined;
    if (response.status < 200 || response.status > 299) {
      answer = data?.extras?.result_codes?.transaction ?? `HTTP ${response.status}`;
      throw new SubmissionRefused(response.status, response.statusText, data);
    }
    if (!data?.hash) throw new Error(`Horizon answered ${response.status} without a transaction`);
    answer = 'accepted';
    return {
      hash: data.hash,
      ledger: data.ledger ?? null,
      ...(data.result_xdr ? { resultXdr: data.result_xdr } : {}),
    };
  } finally {
    if (answers.hasSubscribers) answers.publish({ environment, answer });
  }
}
