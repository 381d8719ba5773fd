import { isTelemetryType, type TelemetryEvent, type TelemetryType, type Wisdom } from '@vigil/contracts';
import type { EvidenceEvent, ObservedEvent } from '../detections/detection';
import { endpointId, newObservedEvent, observeEvent, urlPathOf } from '../observed-event';
import { fail, readArray, readCount, readNumber, readObject, readOptionalString, readString, readStrings, writeNumber } from './snapshot';

/**
 * The same event is held by several parts at once (each detector's window, a finding's evidence, a Sigma
 * correlation), so a snapshot stores each event once in a shared table and the parts store its number.
 */
export interface SnapshotEventWriter {
  /** Number of an observed event (its telemetry event, endpoint and host name included). */
  observed(event: ObservedEvent): number;
  /** Number of a raw telemetry event object. */
  event(event: object): number;
  /** Number of a string that repeats across parts (workspace and batch ids). */
  string(value: string): number;
}

export interface SnapshotEventReader {
  observed(ref: unknown, what: string): ObservedEvent;
  event(ref: unknown, what: string): object;
  string(ref: unknown, what: string): string;
}

/** The table as stored in the snapshot (`parts.events`). */
export interface EventTableData {
  /** Strings. */
  s: string[];
  /** Field-name lists of the events (most events of a type share one). */
  k: string[][];
  /** Raw telemetry events: [field-list, value, value, ...]. */
  e: unknown[][];
  /**
   * Observed events: [workspace, batch, index, type, event], the rest being what observing the event gives,
   * else with [timeMs, ip, host, mac, id, rawHostname, hostname] appended.
   */
  o: unknown[][];
}

/** Interns by object identity, so every holder of one event refers to the same entry. */
export class EventTableWriter implements SnapshotEventWriter {
  private readonly strings = new Map<string, number>();
  private readonly events = new Map<object, number>();
  private readonly observedEvents = new Map<ObservedEvent, number>();
  private readonly shapes = new Map<string, number>();
  private readonly data: EventTableData = { s: [], k: [], e: [], o: [] };

  string(value: string): number {
    let ref = this.strings.get(value);
    if (ref === undefined) {
      ref = this.data.s.push(value) - 1;
      this.strings.set(value, ref);
    }
    return ref;
  }

  event(event: object): number {
    let ref = this.events.get(event);
    if (ref === undefined) {
      const fields: string[] = [];
      const tuple: unknown[] = [0];
      for (const [field, value] of Object.entries(event)) {
        if (value === undefined) continue;
        fields.push(field);
        tuple.push(value);
      }
      const shapeKey = fields.join('\u0000');
      let shape = this.shapes.get(shapeKey);
      if (shape === undefined) {
        shape = this.data.k.push(fields) - 1;
        this.shapes.set(shapeKey, shape);
      }
      tuple[0] = shape;
      ref = this.data.e.push(tuple) - 1;
      this.events.set(event, ref);
    }
    return ref;
  }

  observed(o: ObservedEvent): number {
    let ref = this.observedEvents.get(o);
    if (ref !== undefined) return ref;
    const { ip, host, mac, id } = o.endpoint;
    const tuple: unknown[] = [this.string(o.workspaceId), this.string(o.batchId), o.index, o.type, this.event(o.event)];
    if (!derivable(o)) {
      // Derivable fields are left out (null): the endpoint id and the lower-case host name.
      tuple.push(
        writeNumber(o.timeMs),
        ip,
        host ?? null,
        mac ?? null,
        id === endpointId(ip, host) ? null : id,
        o.rawHostname ?? null,
        o.hostname === (o.rawHostname?.toLowerCase() ?? undefined) ? null : (o.hostname ?? 0),
      );
      while (tuple.length > 7 && tuple[tuple.length - 1] === null) tuple.pop();
    }
    ref = this.data.o.push(tuple) - 1;
    this.observedEvents.set(o, ref);
    return ref;
  }

  table(): EventTableData {
    return this.data;
  }
}

/** Decodes lazily and once per entry, so parts that shared an event share one object again. */
export class EventTableReader implements SnapshotEventReader {
  private readonly strings: string[];
  private readonly shapes: string[][];
  private readonly events: unknown[];
  private readonly observedTuples: unknown[];
  private readonly decodedEvents: (object | undefined)[] = [];
  private readonly decodedObserved: (ObservedEvent | undefined)[] = [];

  /** An empty table when `data` is undefined (a snapshot without events). */
  constructor(data: unknown) {
    const table = data === undefined ? { s: [], k: [], e: [], o: [] } : readObject(data, 'events');
    this.strings = readStrings(table.s, 'events.s');
    this.shapes = readArray(table.k, 'events.k').map((fields, i) => readStrings(fields, `events.k[${i}]`));
    this.events = readArray(table.e, 'events.e');
    this.observedTuples = readArray(table.o, 'events.o');
  }

  string(ref: unknown, what: string): string {
    const index = readCount(ref, what);
    if (index >= this.strings.length) fail(what, 'a string reference', ref);
    return this.strings[index];
  }

  event(ref: unknown, what: string): object {
    const index = readCount(ref, what);
    if (index >= this.events.length) fail(what, 'an event reference', ref);
    let event = this.decodedEvents[index];
    if (event === undefined) {
      const at = `events.e[${index}]`;
      const [shape, ...values] = readArray(this.events[index], at);
      const fields = this.shapes[readCount(shape, `${at}[0]`)];
      if (fields === undefined || fields.length !== values.length) fail(at, 'values for a known field list', shape);
      event = Object.fromEntries(fields.map((field, i) => [field, values[i]]));
      this.decodedEvents[index] = event;
    }
    return event;
  }

  observed(ref: unknown, what: string): ObservedEvent {
    const index = readCount(ref, what);
    if (index >= this.observedTuples.length) fail(what, 'an observed-event reference', ref);
    let observed = this.decodedObserved[index];
    if (observed === undefined) {
      observed = this.decodeObserved(index);
      this.decodedObserved[index] = observed;
    }
    return observed;
  }

  private decodeObserved(index: number): ObservedEvent {
    const what = `events.o[${index}]`;
    const t = readArray(this.observedTuples[index], what);
    const type = t[3];
    if (typeof type !== 'string' || !isTelemetryType(type)) fail(`${what}.type`, 'a telemetry type', type);
    if (t.length === 5) {
      const observed = observedAgain(this.string(t[0], `${what}.workspace`), this.string(t[1], `${what}.batch`), readCount(t[2], `${what}.index`), type, this.event(t[4], `${what}.event`));
      if (observed === undefined) fail(`${what}.event`, 'an observable event', t[4]);
      return observed;
    }
    const ip = readString(t[6], `${what}.ip`);
    const host = readOptionalString(t[7], `${what}.host`);
    const mac = readOptionalString(t[8], `${what}.mac`);
    const id = readOptionalString(t[9], `${what}.id`) ?? endpointId(ip, host);
    const observed = newObservedEvent(
      this.string(t[0], `${what}.workspace`),
      this.string(t[1], `${what}.batch`),
      readCount(t[2], `${what}.index`),
      type,
      this.event(t[4], `${what}.event`) as TelemetryEvent,
      readNumber(t[5], `${what}.timeMs`),
      { ip, host, mac, id },
    );
    const raw = readOptionalString(t[10], `${what}.rawHostname`);
    if (raw !== undefined) observed.rawHostname = raw;
    const hostname = t[11] === 0 ? undefined : (readOptionalString(t[11], `${what}.hostname`) ?? raw?.toLowerCase());
    if (hostname !== undefined) observed.hostname = hostname;
    // The URL path is derived from the event alone, so it is not stored.
    if (type === 'http' && hostname !== undefined) {
      const path = urlPathOf((observed.event as { url?: unknown }).url);
      if (path !== undefined) observed.urlPath = path;
    }
    return observed;
  }
}

/** The event observed as the engine does it; `timeMs` serves as the batch time should its `ts` be unusable. */
function observedAgain(workspaceId: string, batchId: string, index: number, type: TelemetryType, event: object, timeMs = NaN): ObservedEvent | undefined {
  const events: Record<number, object> = { [index]: event };
  return observeEvent({ v: 1, workspaceId, batchId, type, receivedAt: timeMs, events: events as unknown as TelemetryEvent[] }, index);
}

/** Whether observing the event again gives exactly `o` (true unless lease attribution or a fallback time changed it). */
function derivable(o: ObservedEvent): boolean {
  const again = observedAgain(o.workspaceId, o.batchId, o.index, o.type, o.event);
  if (again === undefined || !Object.is(again.timeMs, o.timeMs) || again.hostname !== o.hostname || again.rawHostname !== o.rawHostname) return false;
  const [a, b] = [again.endpoint, o.endpoint];
  return a.ip === b.ip && a.host === b.host && a.mac === b.mac && a.id === b.id;
}

export function readWisdom(value: unknown, what: string): Wisdom {
  const w = readObject(value, what);
  const wisdom: Wisdom = { flags: readStrings(w.flags, `${what}.flags`) };
  if (w.labels !== undefined) wisdom.labels = readStrings(w.labels, `${what}.labels`);
  if (w.domain !== undefined) wisdom.domain = readString(w.domain, `${what}.domain`);
  return wisdom;
}

/** Evidence as a flat list `[event, wisdom, event, wisdom, ...]`. */
export function writeEvidence(events: SnapshotEventWriter, items: readonly EvidenceEvent[]): unknown[] {
  return items.flatMap((item) => [events.observed(item.event), item.wisdom]);
}

export function readEvidence(events: SnapshotEventReader, value: unknown, what: string): EvidenceEvent[] {
  const flat = readArray(value, what);
  if (flat.length % 2 !== 0) fail(what, 'pairs of [event, wisdom]', `length ${flat.length}`);
  const out: EvidenceEvent[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push({ event: events.observed(flat[i], `${what}[${i}]`), wisdom: readWisdom(flat[i + 1], `${what}[${i + 1}]`) });
  return out;
}
