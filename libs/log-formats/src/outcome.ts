import type { TelemetryEventByType, TelemetryType } from '@vigil/contracts';

/**
 * An event as a sensor would POST it to `/v1/events/{type}`: the API's field names, `ts` as an RFC 3339 string.
 * The server still validates and normalises it (the importer goes through the API like any sensor).
 */
export type OutgoingEvent<T extends TelemetryType = TelemetryType> = Omit<TelemetryEventByType[T], 'ts'> & { ts?: string };

/** One event and the endpoint it goes to. */
export type ImportedEvent = { [T in TelemetryType]: { type: T; event: OutgoingEvent<T> } }[TelemetryType];

/**
 * What one log record became: events (usually one; a Suricata DNS v3 record with several queries gives several),
 * a rejection (malformed or unusable: counted per reason, never fatal) or a skip (a well-formed record that
 * carries no telemetry Vigil takes, such as a Suricata `alert` or a DNS answer record).
 */
export type RecordOutcome =
  | { kind: 'events'; events: ImportedEvent[] }
  | { kind: 'rejected'; reason: string }
  | { kind: 'skipped'; reason: string };

export function eventOf<T extends TelemetryType>(type: T, event: OutgoingEvent<T>): RecordOutcome {
  return { kind: 'events', events: [{ type, event } as ImportedEvent] };
}

export function rejected(reason: string): RecordOutcome {
  return { kind: 'rejected', reason };
}

export function skipped(reason: string): RecordOutcome {
  return { kind: 'skipped', reason };
}
