// A list's optional filters as one FilterExpression: every filter whose value is set must hold (AND),
// the others add nothing. Attribute names always go through placeholders (#f…), so a reserved word such
// as `status` needs no care from the caller; values are :f… so they never clash with a key condition's.

export interface ListFilters {
  /** attribute → the value it must equal; undefined: not filtered. */
  equals?: Record<string, unknown>;
  /** list attribute → a value it must contain; undefined: not filtered. */
  contains?: Record<string, unknown>;
}

export interface FilterInput {
  FilterExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
}

export function filterInput(filters: ListFilters): FilterInput {
  const clauses: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const add = (attribute: string, value: unknown, clause: (name: string, value: string) => string) => {
    if (value === undefined) return;
    const i = clauses.length;
    names[`#f${i}`] = attribute;
    values[`:f${i}`] = value;
    clauses.push(clause(`#f${i}`, `:f${i}`));
  };
  for (const [attribute, value] of Object.entries(filters.equals ?? {}))
    add(attribute, value, (name, placeholder) => `${name} = ${placeholder}`);
  for (const [attribute, value] of Object.entries(filters.contains ?? {}))
    add(attribute, value, (name, placeholder) => `contains(${name}, ${placeholder})`);
  if (clauses.length === 0) return {};
  return {
    FilterExpression: clauses.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** Whether an item passes the filters: the FilterExpression's test, for items read by key. */
export function matchesFilters(filters: ListFilters, item: Record<string, unknown>): boolean {
  const equal = Object.entries(filters.equals ?? {}).every(
    ([attribute, value]) => value === undefined || item[attribute] === value,
  );
  const contained = Object.entries(filters.contains ?? {}).every(([attribute, value]) => {
    const held = item[attribute];
    if (value === undefined) return true;
    if (Array.isArray(held)) return held.includes(value);
    return typeof held === 'string' && typeof value === 'string' && held.includes(value);
  });
  return equal && contained;
}
