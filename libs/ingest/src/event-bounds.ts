/**
 * Bounds on one telemetry event, whatever its type. An event is a flat object of at most ~20 known fields, but
 * clients add fields of their own (dropped by the normaliser), sometimes whole nested log records. The bounds
 * sit far above any real event and stop one event from costing work out of proportion to what it can carry.
 * An event over a bound is rejected on its own (the reason is counted in the answer's `rejected` map); the rest
 * of its batch is kept.
 */

/** Values in one event: its members plus those of every object nested in it and the elements of nested arrays. */
export const MAX_EVENT_FIELDS = 1_000;
/** Nesting: the event object is depth 1, an object or array in one of its fields depth 2, and so on. */
export const MAX_EVENT_DEPTH = 32;
/** Longest string anywhere in an event, member names included, in UTF-16 code units (URLs and user agents of several KB fit). */
export const MAX_EVENT_STRING_LENGTH = 65_536;

export type EventBoundReason = 'too_deep' | 'too_many_fields' | 'string_too_long';

/**
 * The bound a parsed event breaks, or undefined. Depth is judged before fields and fields before strings, so the
 * reason depends neither on the order of members nor on how the event was read (the splitter's scanner reports
 * `too_deep` and `too_many_fields` without parsing). The walk stops descending at the depth bound.
 */
export function eventBoundViolation(event: Record<string, unknown>): EventBoundReason | undefined {
  const tally = newBoundsTally();
  for (const key in event) tallyMember(tally, key, event[key]);
  return boundViolation(tally);
}

/**
 * A running check of one event's bounds, fed member by member by {@link tallyMember}: for callers that loop over
 * the event's members anyway (the normaliser), so that the check costs no second pass.
 */
export interface BoundsTally {
  fields: number;
  longString: boolean;
  tooDeep: boolean;
}

export function newBoundsTally(): BoundsTally {
  return { fields: 0, longString: false, tooDeep: false };
}

/** Counts one member of the event (its name and value, and whatever the value nests). */
export function tallyMember(tally: BoundsTally, key: string, value: unknown): void {
  tally.fields++;
  if (key.length > MAX_EVENT_STRING_LENGTH) tally.longString = true;
  if (typeof value === 'string') {
    if (value.length > MAX_EVENT_STRING_LENGTH) tally.longString = true;
  } else if (typeof value === 'object' && value !== null && !tally.tooDeep) {
    tally.tooDeep = isTooDeep(value, 2, tally);
  }
}

/** The bound the members tallied so far break, by precedence. */
export function boundViolation(tally: BoundsTally): EventBoundReason | undefined {
  if (tally.tooDeep) return 'too_deep';
  if (tally.fields > MAX_EVENT_FIELDS) return 'too_many_fields';
  return tally.longString ? 'string_too_long' : undefined;
}

/** Walks `value`, a container at `depth`, into `tally`; true as soon as a container is too deep. */
function isTooDeep(value: object, depth: number, tally: BoundsTally): boolean {
  if (depth > MAX_EVENT_DEPTH) return true;
  if (Array.isArray(value)) {
    tally.fields += value.length;
    for (const element of value) if (isNestedTooDeep(element, depth + 1, tally)) return true;
    return false;
  }
  const members = value as Record<string, unknown>;
  for (const key in members) {
    tally.fields++;
    if (key.length > MAX_EVENT_STRING_LENGTH) tally.longString = true;
    if (isNestedTooDeep(members[key], depth + 1, tally)) return true;
  }
  return false;
}

function isNestedTooDeep(value: unknown, depth: number, tally: BoundsTally): boolean {
  if (typeof value === 'string') {
    if (value.length > MAX_EVENT_STRING_LENGTH) tally.longString = true;
    return false;
  }
  return typeof value === 'object' && value !== null && isTooDeep(value, depth, tally);
}
