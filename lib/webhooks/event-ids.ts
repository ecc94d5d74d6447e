// An event's id names the change it reports (the item and the state it reached), so the stream
// delivering a change twice makes the same event twice, which the fan-out writes once and receivers
// dedupe on. A record's states never repeat (a transaction never moves back), so one state, one event.
import { nameBasedId } from '../ids.ts';

/** This service's namespace for event ids (fixed forever). */
const NAMESPACE = '5b0f6a3e-2d4c-4e8b-9a71-3f2e1d0c9b8a';

export const eventIdOf = (
  itemType: string,
  tenant: { environment: string; associationId: string },
  itemId: string,
  type: string,
): string =>
  nameBasedId(NAMESPACE, `${itemType}/${tenant.environment}/${tenant.associationId}/${itemId}/${type}`);
