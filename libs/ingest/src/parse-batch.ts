import type { TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { isObjectItem, splitJsonObjects } from './split';
import { createEventNormalizer, type AsSent } from './validate';

/** What was made of one request body: the counts the sender is told. */
export interface TelemetryBatchSummary {
  /** Items found in the body: JSON values (each element of a top-level array counts) and malformed parts. */
  received: number;
  accepted: number;
  /** Rejection reason → count, e.g. `{ invalid_json: 1, missing_query: 2, too_deep: 1 }`. */
  rejected: Record<string, number>;
  /**
   * True when the body is non-empty but holds no JSON object at all (`hello`, `[1,2]`): the request deserves a
   * 400 `{message}`. Otherwise the answer is a 200, rejections counted per reason — a body of objects that all
   * fail validation or break a per-event bound (a `too_deep` object included) is still a 200.
   */
  notJson: boolean;
}

export interface ParsedTelemetryBatch extends TelemetryBatchSummary {
  /** The accepted, normalised events, in body order. */
  events: TelemetryEvent[];
  /** Per event, its JSON text as {@link scanTelemetryBatch} hands it over. */
  texts: (string | undefined)[];
}

/**
 * Takes one accepted event. `text`, when set, is the event's JSON taken from the body, to be used instead of
 * serializing the event again: the event is its NDJSON line as sent, or that line with the receipt time added as
 * `ts` (most sensors send canonical events without one). Undefined where the event was changed or came from
 * another form.
 */
export type AcceptEvent = (event: TelemetryEvent, text: string | undefined) => void;

/**
 * Splits, validates and normalises one request body of events of `type`, received at `now`, handing each
 * accepted event to `accept` in body order as soon as it is made: a caller that keeps what it needs of an event
 * (its JSON, its partition) lets the event itself die young, where holding a body's 20,000 events at once had
 * every young-generation collection of the thread copy them.
 */
export function scanTelemetryBatch(type: TelemetryType, body: Buffer, now: Date, accept: AcceptEvent): TelemetryBatchSummary {
  // The splitter's values are freshly parsed and ours: the normaliser may finish them in place.
  const normalize = createEventNormalizer(type, now, { mayReuseInput: true });
  const tsMember = `,"ts":${JSON.stringify(now.toISOString())}}`;
  const rejected: Record<string, number> = {};
  let received = 0;
  let accepted = 0;
  let objects = 0;
  for (const item of splitJsonObjects(body)) {
    received++;
    if (isObjectItem(item)) objects++;
    if (!item.ok) {
      rejected[item.reason] = (rejected[item.reason] ?? 0) + 1;
      continue;
    }
    const result = normalize(item.value);
    if (result.ok) {
      accepted++;
      accept(result.event, item.text === undefined ? undefined : textAsSent(item.text, result.asSent, tsMember));
    } else rejected[result.reason] = (rejected[result.reason] ?? 0) + 1;
  }
  return { received, accepted, rejected, notJson: received > 0 && objects === 0 };
}

/** {@link scanTelemetryBatch}, collecting the events. */
export function parseTelemetryBatch(type: TelemetryType, body: Buffer, now: Date): ParsedTelemetryBatch {
  const events: TelemetryEvent[] = [];
  const texts: (string | undefined)[] = [];
  const summary = scanTelemetryBatch(type, body, now, (event, text) => {
    events.push(event);
    texts.push(text);
  });
  return { ...summary, events, texts };
}

/**
 * The event's JSON from the text of the object it was made from: the object's text up to its closing brace,
 * with `tsMember` (`,"ts":"…"}`) in place of that brace when the receipt time was added.
 */
function textAsSent(text: string, asSent: AsSent | undefined, tsMember: string): string | undefined {
  if (asSent === undefined) return undefined;
  const close = text.lastIndexOf('}');
  if (asSent === 'same') return text.slice(0, close + 1);
  // A valid event has members for the added one to follow; `{}` never gets here, but would not be patched.
  return text.charCodeAt(lastNonBlankBefore(text, close)) === OPEN_BRACE ? undefined : text.slice(0, close) + tsMember;
}

const OPEN_BRACE = 123;

/** Index of the last character before `end` that is not JSON whitespace. */
function lastNonBlankBefore(text: string, end: number): number {
  let i = end - 1;
  for (let code = text.charCodeAt(i); code === 32 || code === 9 || code === 10 || code === 13; code = text.charCodeAt(--i));
  return i;
}
