// An item's size as DynamoDB counts it for capacity (its "item sizes and formats" page): every attribute's
// name and value in UTF-8 bytes, a number 1 byte per two significant digits plus 1, null and booleans 1,
// a list or map 3 bytes plus 1 per element plus its elements (a map's member names counted as names).
// A write is charged per started KB of the larger of the item before and after, so this is what tells
// whether a record's writes cost 1 unit or 2.

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

function numberSize(value: number | bigint): number {
  const digits = String(value)
    .replace(/^-/, '')
    .replace(/e.*$/i, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** One value's size, without the name it is held under. */
export function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberSize(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce((sum: number, v) => sum + valueSize(v), 0);
  if (Array.isArray(value)) return value.reduce((sum: number, v) => sum + 1 + valueSize(v), 3);
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .reduce((sum, [name, v]) => sum + 1 + utf8(name) + valueSize(v), 3);
}

/** The item's size in bytes: names and values of every attribute. */
export const itemSize = (item: Record<string, unknown>): number =>
  Object.entries(item)
    .filter(([, v]) => v !== undefined)
    .reduce((sum, [name, v]) => sum + utf8(name) + valueSize(v), 0);

/** Each attribute's share of the item, largest first: what to shorten when an item is over a KB. */
export const attributeSizes = (item: Record<string, unknown>): [string, number][] =>
  Object.entries(item)
    .filter(([, v]) => v !== undefined)
    .map(([name, v]): [string, number] => [name, utf8(name) + valueSize(v)])
    .sort((a, b) => b[1] - a[1]);
