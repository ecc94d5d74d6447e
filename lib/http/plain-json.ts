// JSON text with every number in plain decimals. JSON.stringify writes a number below 10^-6 in exponent
// form (5e-7): valid JSON, but not how an amount is written, and a stroop read by a decimal parser, a
// spreadsheet or an eye must be 0.0000001. Every body the API answers is written here (api-function.ts).
// An amount is kept as decimal text (7 places, up to 922337203685.4775807 on the ledger) and goes out as
// exactNumber: a double keeps 15 to 17 significant digits, so 92233721368.5477583 read into one would be
// written 92233721368.54776.
import BigNumber from 'bignumber.js';
import { decimalOf } from './json-text.ts';

// JSON.rawJSON (Node 21+) marks text that JSON.stringify writes as it is; TypeScript's lib lacks it yet.
const { rawJSON } = JSON as unknown as { rawJSON(text: string): unknown };

/** A finite number's exact decimal text without an exponent: 5e-7 → `0.0000005`, 1e21 → `1000…0`. */
export function plainNumber(value: number): string {
  const [negative, digits, exponent] = decimalOf(String(value));
  if (!digits) return '0';
  const text =
    exponent <= 0
      ? `0.${'0'.repeat(-exponent)}${digits}`
      : exponent >= digits.length
        ? `${digits}${'0'.repeat(exponent - digits.length)}`
        : `${digits.slice(0, exponent)}.${digits.slice(exponent)}`;
  return negative ? `-${text}` : text;
}

/** What JSON.rawJSON makes: JSON.stringify writes `rawJSON` as it is. */
export interface ExactNumber {
  readonly rawJSON: string;
}

/** The JSON number of a decimal string, every digit as it is (trailing zeros dropped): 1000.0000000 → 1000. */
export const exactNumber = (decimal: string): ExactNumber =>
  rawJSON(new BigNumber(decimal).toFixed()) as ExactNumber;

/** A resource as its builder writes it for JSON: wherever the schema says number, an exactNumber may stand. */
export type OnTheWire<T> = T extends number
  ? number | ExactNumber
  : T extends readonly (infer E)[]
    ? OnTheWire<E>[]
    : T extends object
      ? { [K in keyof T]: OnTheWire<T[K]> }
      : T;

const plain = (_name: string, value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && /e/i.test(String(value))
    ? rawJSON(plainNumber(value))
    : value;

export const plainJson = (value: unknown): string => JSON.stringify(value, plain);
