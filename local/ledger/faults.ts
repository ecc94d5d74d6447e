// Fault injection: the misbehaviour a test asks of one ledger instance (late or lost answers, refused
// resubmissions, a replica that ingests late, a fleet that is down). The same shape comes in
// programmatically and as the JSON body of POST /_admin/faults, so both go through `checkFaults`.
import type { LedgerFaults, RejectResubmissionFault, SubmissionAnswerFault } from './types.ts';

/** A fault description that does not fit the shape; `field` is the member's path. */
export class FaultsError extends Error {
  override name = 'FaultsError';
  readonly field: string;
  readonly reason: string;

  constructor(field: string, reason: string) {
    super(`${field}: ${reason}`);
    this.field = field;
    this.reason = reason;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function only(value: Record<string, unknown>, path: string, allowed: string[]): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new FaultsError(path ? `${path}.${key}` : key, 'is not accepted');
  }
}

function milliseconds(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new FaultsError(field, 'must be a whole number of milliseconds, 0 or more');
  return value;
}

function count(value: unknown, field: string): number {
  if (value === undefined) return 1;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw new FaultsError(field, 'must be a whole number, 1 or more');
  return value;
}

function submissionAnswer(value: unknown): SubmissionAnswerFault {
  const path = 'submissionAnswer';
  if (!isObject(value)) throw new FaultsError(path, 'must be an object');
  if (value.mode === 'late') {
    only(value, path, ['mode', 'delayMs', 'count']);
    return {
      mode: 'late',
      delayMs: milliseconds(value.delayMs, `${path}.delayMs`),
      count: count(value.count, `${path}.count`),
    };
  }
  if (value.mode === 'drop') {
    only(value, path, ['mode', 'count']);
    return { mode: 'drop', count: count(value.count, `${path}.count`) };
  }
  throw new FaultsError(`${path}.mode`, "must be 'late' or 'drop'");
}

function rejectResubmission(value: unknown): RejectResubmissionFault {
  const path = 'rejectResubmission';
  if (!isObject(value)) throw new FaultsError(path, 'must be an object');
  only(value, path, ['code', 'count', 'anySubmission']);
  if (value.code !== 'tx_insufficient_fee' && value.code !== 'tx_too_late')
    throw new FaultsError(`${path}.code`, "must be 'tx_insufficient_fee' or 'tx_too_late'");
  if (value.anySubmission !== undefined && typeof value.anySubmission !== 'boolean')
    throw new FaultsError(`${path}.anySubmission`, 'must be a boolean');
  return {
    code: value.code,
    count: count(value.count, `${path}.count`),
    anySubmission: value.anySubmission === true,
  };
}

/** Checks a fault description (from code or JSON) and fills in defaults; `null` members mean "remove". */
export function checkFaults(value: unknown): LedgerFaults {
  if (!isObject(value)) throw new FaultsError('body', 'must be a JSON object');
  only(value, '', [
    'submissionAnswer',
    'rejectResubmission',
    'ingestDelayMs',
    'accountsIngestDelayMs',
    'unavailable',
  ]);
  const checked: LedgerFaults = {};
  const member = <T>(name: keyof LedgerFaults, check: (v: unknown) => T) => {
    const v = value[name];
    if (v === undefined) return;
    (checked as Record<string, unknown>)[name] = v === null ? null : check(v);
  };
  member('submissionAnswer', submissionAnswer);
  member('rejectResubmission', rejectResubmission);
  member('ingestDelayMs', (v) => milliseconds(v, 'ingestDelayMs'));
  member('accountsIngestDelayMs', (v) => milliseconds(v, 'accountsIngestDelayMs'));
  member('unavailable', (v) => {
    if (typeof v !== 'boolean') throw new FaultsError('unavailable', 'must be a boolean');
    return v;
  });
  return checked;
}

export class Faults {
  private faults: LedgerFaults = {};

  /** Merges checked faults in: present members replace, `null` ones are removed. */
  set(faults: LedgerFaults): void {
    const checked = checkFaults(faults);
    const next: Record<string, unknown> = { ...this.faults };
    for (const [name, value] of Object.entries(checked)) {
      if (value === null || value === false) delete next[name];
      else next[name] = value;
    }
    this.faults = next as LedgerFaults;
  }

  clear(): void {
    this.faults = {};
  }

  current(): LedgerFaults {
    return structuredClone(this.faults);
  }

  get unavailable(): boolean {
    return this.faults.unavailable === true;
  }

  get ingestDelayMs(): number {
    return this.faults.ingestDelayMs ?? 0;
  }

  get accountsIngestDelayMs(): number {
    return this.faults.accountsIngestDelayMs ?? this.ingestDelayMs;
  }

  /** The answer fault for this submission, if one is set; uses one of its count. */
  takeSubmissionAnswer(): SubmissionAnswerFault | undefined {
    const fault = this.faults.submissionAnswer;
    if (!fault) return undefined;
    const left = (fault.count ?? 1) - 1;
    if (left > 0) this.faults.submissionAnswer = { ...fault, count: left };
    else delete this.faults.submissionAnswer;
    return fault;
  }

  /** The refusal for a submission whose hash is (or is not) already known, if one applies; uses one of its count. */
  takeRejection(known: boolean): RejectResubmissionFault['code'] | undefined {
    const fault = this.faults.rejectResubmission;
    if (!fault || !(known || fault.anySubmission)) return undefined;
    const left = (fault.count ?? 1) - 1;
    if (left > 0) this.faults.rejectResubmission = { ...fault, count: left };
    else delete this.faults.rejectResubmission;
    return fault.code;
  }
}
