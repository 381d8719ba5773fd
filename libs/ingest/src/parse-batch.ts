import type { TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { isObjectItem, splitJsonObjects } from './split';
import { createEventNormalizer } from './validate';

export interface ParsedTelemetryBatch {
  /** Items found in the body: JSON values (each element of a top-level array counts) and malformed parts. */
  received: number;
  /** The accepted, normalised events, in body order. */
  events: TelemetryEvent[];
  /** Rejection reason → count, e.g. `{ invalid_json: 1, missing_query: 2, too_deep: 1 }`. */
  rejected: Record<string, number>;
  /**
   * True when the body is non-empty but holds no JSON object at all (`hello`, `[1,2]`): the request deserves a
   * 400 `{message}`. Otherwise the answer is a 200, rejections counted per reason — a body of objects that all
   * fail validation or break a per-event bound (a `too_deep` object included) is still a 200.
   */
  notJson: boolean;
}

/** Splits, validates and normalises one request body of events of `type`, received at `now`. */
export function parseTelemetryBatch(type: TelemetryType, body: Buffer, now: Date): ParsedTelemetryBatch {
  // The splitter's values are freshly parsed and ours: the normaliser may finish them in place.
  const normalize = createEventNormalizer(type, now, { mayReuseInput: true });
  const events: TelemetryEvent[] = [];
  const rejected: Record<string, number> = {};
  let received = 0;
  let objects = 0;
  for (const item of splitJsonObjects(body)) {
    received++;
    if (isObjectItem(item)) objects++;
    if (!item.ok) {
      rejected[item.reason] = (rejected[item.reason] ?? 0) + 1;
      continue;
    }
    const result = normalize(item.value);
    if (result.ok) events.push(result.event);
    else rejected[result.reason] = (rejected[result.reason] ?? 0) + 1;
  }
  return { received, events, rejected, notJson: received > 0 && objects === 0 };
}
