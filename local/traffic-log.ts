// What `npm start` prints while it serves, for the person watching it: one line per request (time,
// method, path, status, milliseconds, request id), per settled payment, per ended webhook delivery, per
// ended payment notice and per worker failure. Colour only on a terminal (never with NO_COLOR or CI). The functions' own JSON logs
// stay behind LOG_LEVEL (WARN by default); these lines are the stack's, and `npm start -- --quiet` hides them.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { NoticeRecord } from '../lib/notifications/repo.ts';
import type { TransactionRecord } from '../lib/payments/repo.ts';
import type { DeliveryRecord } from '../lib/webhooks/repo.ts';

export interface RequestLine {
  method: string;
  path: string;
  status: number;
  ms: number;
  requestId: string | undefined;
}

export interface TrafficLog {
  request(line: RequestLine): void;
  /** A payment whose record reached a final status. */
  settled(record: TransactionRecord): void;
  /** A webhook delivery that ended (delivered, or failed for good). */
  delivered(record: DeliveryRecord): void;
  /** A payment notice that ended: sent, skipped (and why) or failed for good. */
  noticed(record: NoticeRecord): void;
  /** A worker that threw, or failed some messages of its batch (they return after the visibility timeout). */
  workerFailed(functionName: string, failed: number, of: number, error?: unknown): void;
}

/** Colour only for a person at a terminal: never in CI, with NO_COLOR, or into a file or a pipe. */
export const useColour = (stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean =>
  stream.isTTY === true && !env.NO_COLOR && !env.CI;

const paint = (code: number) => (text: string) => `\x1b[${code}m${text}\x1b[0m`;
const plain = (text: string) => text;

/** Final statuses of a transaction record: what "settled" means on this line. */
const SETTLED = new Set(['completed', 'failed', 'refund_completed']);

export const isSettled = (record: Pick<TransactionRecord, 'status'>) => SETTLED.has(record.status);

/** HH:MM:SS.mmm, local time: what a person compares with their own clock. */
const clock = (at: Date) =>
  `${[at.getHours(), at.getMinutes(), at.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':')}.${String(at.getMilliseconds()).padStart(3, '0')}`;

export function createTrafficLog(
  write: (line: string) => void,
  options: { colour: boolean; now?: () => Date },
): TrafficLog {
  const now = options.now ?? (() => new Date());
  const [dim, red, yellow, green, cyan] = options.colour
    ? [paint(2), paint(31), paint(33), paint(32), paint(36)]
    : [plain, plain, plain, plain, plain];
  const out = (text: string) => write(`${dim(clock(now()))} ${text}`);
  const byStatus = (status: number) => (status >= 500 ? red : status >= 400 ? yellow : green);
  return {
    request: ({ method, path, status, ms, requestId }) =>
      out(
        `${method.padEnd(6)} ${path} ${byStatus(status)(String(status))} ${Math.round(ms)} ms${requestId ? ` ${dim(requestId)}` : ''}`,
      ),
    settled: (record) => {
      const paint = record.status === 'completed' ? green : red;
      const amount = `${record.sendAmount} ${record.sendingAsset.code}`;
      const reason = record.errorCode ? ` (${record.errorCode})` : '';
      out(
        `${cyan('payment')} ${record.transactionRecordId} ${record.transactionType} ${amount} ${paint(record.status)}${reason}`,
      );
    },
    delivered: (record) => {
      const paint = record.status === 'delivered' ? green : red;
      out(
        `${cyan('webhook')} ${record.eventType} to ${record.webhookId} ${paint(record.status)} after ${record.attemptCount} attempt${record.attemptCount === 1 ? '' : 's'}`,
      );
    },
    noticed: (record) => {
      const paint = record.status === 'sent' ? green : record.status === 'skipped' ? yellow : red;
      const reason = record.reason ? ` (${record.reason})` : '';
      out(
        `${cyan('notice')} ${record.channel} for ${record.transactionRecordId} ${paint(record.status)}${reason}`,
      );
    },
    workerFailed: (functionName, failed, of, error) => {
      // Powertools' batch processor throws FullBatchFailureError when every record failed: name the first record's error.
      const cause = (error as { recordErrors?: unknown[] } | undefined)?.recordErrors?.[0] ?? error;
      const why = cause instanceof Error ? `: ${cause.name}: ${cause.message}` : '';
      out(
        `${red('worker')} ${functionName} failed ${failed} of ${of} message${of === 1 ? '' : 's'}${why} (retried after the visibility timeout)`,
      );
    },
  };
}

type StreamImage = Record<string, AttributeValue> | undefined;

/**
 * Reads the table's changes as the outbox router receives them, and tells the log of each payment that
 * settled and each webhook delivery and notice that ended: the moment the record moved to its final status.
 */
export function logSettlements(
  traffic: TrafficLog,
  records: { dynamodb?: { NewImage?: unknown; OldImage?: unknown } }[],
): void {
  for (const { dynamodb } of records) {
    const image = (raw: unknown) => (raw ? unmarshall(raw as NonNullable<StreamImage>) : undefined);
    const next = image(dynamodb?.NewImage);
    if (!next || next.status === image(dynamodb?.OldImage)?.status) continue;
    if (next.type === 'transaction' && isSettled(next as TransactionRecord))
      traffic.settled(next as TransactionRecord);
    if (next.type === 'webhookDelivery' && (next.status === 'delivered' || next.status === 'failed'))
      traffic.delivered(next as DeliveryRecord);
    if (next.type === 'notice' && next.status !== 'sending') traffic.noticed(next as NoticeRecord);
  }
}
