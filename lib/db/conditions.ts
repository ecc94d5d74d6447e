// Conditions of conditional writes, named once and built from values: no repo writes an expression
// string of its own. Placeholders are prefixed (#c…, :c…) so they never clash with an update's.

export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** The item does not exist yet. */
export const absent: Condition = { expression: 'attribute_not_exists(pk)' };

/** The item exists. */
export const exists: Condition = { expression: 'attribute_exists(pk)' };

/** The item exists and each attribute holds the given value (a state machine's "from" state). */
export function holds(expected: Record<string, unknown>): Condition {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const clauses = Object.entries(expected).map(([attribute, value], i) => {
    names[`#c${i}`] = attribute;
    values[`:c${i}`] = value;
    return `#c${i} = :c${i}`;
  });
  return { expression: ['attribute_exists(pk)', ...clauses].join(' AND '), names, values };
}

/** The item does not exist, or it holds the given values (an item owned by whoever wrote it). */
export function absentOrHolds(expected: Record<string, unknown>): Condition {
  const held = holds(expected);
  return { ...held, expression: `attribute_not_exists(pk) OR (${held.expression})` };
}

/**
 * The item does not exist, or it holds `expected` and its `attribute` (an ISO time) is before `before`: a
 * lease its holder let lapse (it died holding it), which another may take.
 */
export function absentOrLapsed(
  expected: Record<string, unknown>,
  attribute: string,
  before: string,
): Condition {
  const held = holds(expected);
  return {
    expression: `attribute_not_exists(pk) OR (${held.expression} AND #cT < :cT)`,
    names: { ...held.names, '#cT': attribute },
    values: { ...held.values, ':cT': before },
  };
}

/** The item does not exist, or `attribute` is below `limit` (a counter with a ceiling). */
export function absentOrBelow(attribute: string, limit: number): Condition {
  return {
    expression: 'attribute_not_exists(#cA) OR #cA < :cLimit',
    names: { '#cA': attribute },
    values: { ':cLimit': limit },
  };
}

/**
 * The map `attribute` has fewer than `limit` entries and holds each of `expected`'s (false where the
 * item or the map does not exist): a bounded set of holders, entries checked as they were read.
 */
export function fewerEntries(attribute: string, limit: number, expected: Record<string, unknown>): Condition {
  const names: Record<string, string> = { '#cM': attribute };
  const values: Record<string, unknown> = { ':cLimit': limit };
  const clauses = Object.entries(expected).map(([key, value], i) => {
    names[`#cK${i}`] = key;
    values[`:cV${i}`] = value;
    return `#cM.#cK${i} = :cV${i}`;
  });
  return { expression: ['size(#cM) < :cLimit', ...clauses].join(' AND '), names, values };
}

/** The item exists and `attribute` is unset or already `value` (a claim that its holder may repeat). */
export function unclaimedOr(attribute: string, value: unknown): Condition {
  return {
    expression: 'attribute_exists(pk) AND (attribute_not_exists(#cA) OR #cA = :cV)',
    names: { '#cA': attribute },
    values: { ':cV': value },
  };
}

/** The condition's parts as the SDK's command input takes them. */
export const conditionInput = (condition: Condition) => ({
  ConditionExpression: condition.expression,
  ...(condition.names && Object.keys(condition.names).length
    ? { ExpressionAttributeNames: condition.names }
    : {}),
  ...(condition.values && Object.keys(condition.values).length
    ? { ExpressionAttributeValues: condition.values }
    : {}),
});

/**
 * The item holds the given values at `version` of `attribute` (0: an item written before it was
 * versioned, which has none): a move conditioned on the state it read and on nothing having moved it since.
 */
export function holdsAtVersion(
  expected: Record<string, unknown>,
  attribute: string,
  version: number,
): Condition {
  const held = holds(expected);
  const names = { ...held.names, '#cVer': attribute };
  return version === 0
    ? { expression: `${held.expression} AND attribute_not_exists(#cVer)`, names, values: held.values ?? {} }
    : {
        expression: `${held.expression} AND #cVer = :cVer`,
        names,
        values: { ...held.values, ':cVer': version },
      };
}
