// What JSON.parse cannot tell afterwards, read off the request text before it is parsed: how deep it
// nests (a parser or a recursive merge must never meet a 9,000-level body) and which numbers a double
// cannot hold exactly (9007199254740993 would silently become ...992). This is a scan, not a parser:
// malformed text is left for the parser to refuse.

/** The deepest nesting of objects and arrays any request body may have; documented in the OpenAPI introduction (openapi/description.ts). */
export const MAX_JSON_DEPTH = 32;

export interface JsonTextFindings {
  /** The path where nesting went past MAX_JSON_DEPTH, or null. */
  tooDeepAt: string | null;
  /** Paths (`transfers.0.amount`) of numbers whose text is not exactly the double JSON.parse makes of it. */
  inexactNumbers: string[];
}

type Frame = { kind: 'object'; key: string } | { kind: 'array'; index: number };

const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;

/** A decimal number's text as `[negative, digits, exponent]` with no leading or trailing zeros in digits. */
export function decimalOf(text: string): [boolean, string, number] {
  const [, sign = '', int = '', frac = '', exp = '0'] =
    /^(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text) ?? [];
  const all = `${int}${frac}`;
  const lead = all.length - all.replace(/^0+/, '').length;
  const digits = all.slice(lead).replace(/0+$/, '');
  // value = 0.digits × 10^(exponent): position the point after the leading zeros are gone.
  const exponent = digits ? int.length - lead + Number(exp) : 0;
  return [digits !== '' && sign === '-', digits, exponent];
}

/**
 * Whether a number's text means exactly the value JSON.parse gives it (0.10 yes, 0.10000000000000001
 * no): the shortest decimal that reads back as the same double must be the same decimal as the text.
 */
export function isExactNumber(text: string): boolean {
  const value = Number(text);
  if (!Number.isFinite(value)) return false;
  const [negA, digitsA, expA] = decimalOf(text);
  const [negB, digitsB, expB] = decimalOf(String(value));
  return negA === negB && digitsA === digitsB && expA === expB;
}

const pathOf = (stack: Frame[]): string =>
  stack.map((frame) => (frame.kind === 'object' ? frame.key : String(frame.index))).join('.');

export function scanJsonText(text: string): JsonTextFindings {
  const stack: Frame[] = [];
  const inexactNumbers: string[] = [];
  let expectKey = false;
  let i = 0;
  while (i < text.length) {
    const ch = text[i] as string;
    if (ch === '"') {
      STRING.lastIndex = i;
      const token = STRING.exec(text)?.[0];
      if (!token) break;
      const top = stack.at(-1);
      if (expectKey && top?.kind === 'object') {
        try {
          top.key = JSON.parse(token);
        } catch {
          top.key = token.slice(1, -1);
        }
        expectKey = false;
      }
      i += token.length;
      continue;
    }
    if (ch === '-' || (ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = i;
      const token = NUMBER.exec(text)?.[0];
      if (!token) break;
      if (!isExactNumber(token)) inexactNumbers.push(pathOf(stack) || 'body');
      i += token.length;
      continue;
    }
    if (ch === '{' || ch === '[') {
      stack.push(ch === '{' ? { kind: 'object', key: '' } : { kind: 'array', index: 0 });
      if (stack.length > MAX_JSON_DEPTH) return { tooDeepAt: pathOf(stack.slice(0, -1)), inexactNumbers };
      expectKey = ch === '{';
    } else if (ch === '}' || ch === ']') {
      stack.pop();
    } else if (ch === ',') {
      const top = stack.at(-1);
      if (top?.kind === 'array') top.index += 1;
      else expectKey = true;
    }
    i += 1;
  }
  return { tooDeepAt: null, inexactNumbers };
}

/** Paths of strings (values or member names) that are not well-formed Unicode, e.g. a lone `\ud800`. */
export function malformedStrings(value: unknown, path: string[] = []): string[] {
  if (typeof value === 'string') return value.isWellFormed() ? [] : [path.join('.') || 'body'];
  if (Array.isArray(value))
    return value.flatMap((item, index) => malformedStrings(item, [...path, String(index)]));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) =>
      key.isWellFormed() ? malformedStrings(item, [...path, key]) : [[...path, key.toWellFormed()].join('.')],
    );
  }
  return [];
}
