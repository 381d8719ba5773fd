import { isDeepStrictEqual } from 'node:util';
import type { TelemetryBatch, TelemetryType } from '@vigil/contracts';
import { normalizeEvent, parseTelemetryBatch } from '@vigil/ingest';
import { benignDnsEvents, httpEvents, ipEvents, leaseEvents, tlsEvents } from '@vigil/testing';
import { packTelemetryRecords } from '../pack-batches';
import { prepareTelemetry } from './prepare-telemetry';

const GENERATED: Record<TelemetryType, (n: number) => object[]> = {
  dns: (n) => benignDnsEvents(n, { hosts: 40 }),
  ip: (n) => ipEvents(n, { hosts: 40 }),
  http: (n) => httpEvents(n, { hosts: 40 }),
  tls: (n) => tlsEvents(n, { hosts: 40 }),
  lease: (n) => leaseEvents(n, { hosts: 40 }),
};

/** What a client may send besides canonical events: upper-cased strings, lower-cased field names. */
function sentOtherwise(event: object, variant: number): object {
  const entries = Object.entries(event);
  if (variant === 0) return Object.fromEntries(entries.map(([k, v]) => [k, typeof v === 'string' ? v.toUpperCase() : v]));
  return Object.fromEntries(entries.map(([k, v]) => [k.toLowerCase(), v]));
}

/** The events of every record, in record order, and each record's header fields. */
function decode(records: { value: Buffer }[]): TelemetryBatch[] {
  return records.map((record) => JSON.parse(record.value.toString('utf8')) as TelemetryBatch);
}

describe('prepareTelemetry: records from the texts as sent', () => {
  it.each(Object.keys(GENERATED) as TelemetryType[])('%s: give exactly the batches that serializing every event gives', (type) => {
    const generated = GENERATED[type](300);
    const lines = generated.flatMap((event, i) => {
      const { ts: _ts, ...withoutTs } = event as { ts?: string };
      return [event, withoutTs, sentOtherwise(event, i % 2)].map((sent) => JSON.stringify(sent));
    });
    const body = Buffer.from(lines.join('\n') + '\n');
    const nowMs = Date.now();

    const prepared = prepareTelemetry('ws-texts', type, body, nowMs);
    if (prepared.notJson) throw new Error('the body is JSON');
    const parsed = parseTelemetryBatch(type, body, new Date(nowMs));
    const serialized = packTelemetryRecords('ws-texts', type, parsed.events, nowMs);

    // Batch ids are drawn per call; everything else, every event included, must be the same.
    const withoutIds = (batches: TelemetryBatch[]) => batches.map(({ batchId: _id, ...rest }) => rest);
    expect(withoutIds(decode(prepared.records))).toEqual(withoutIds(decode(serialized)));
    expect(prepared.accepted).toBe(parsed.events.length);
    // Every line whose event is the line's object (with the receipt time as ts when it had none) took its text
    // from the body, and no other.
    const now = new Date(nowMs);
    const unchanged = lines.filter((line) => {
      const sent = JSON.parse(line) as Record<string, unknown>;
      const result = normalizeEvent(type, sent, now);
      return result.ok && isDeepStrictEqual(result.event, sent.ts === undefined ? { ...sent, ts: now.toISOString() } : sent);
    });
    expect(unchanged.length).toBeGreaterThan(generated.length / 4); // lease events with termination false are not canonical
    expect(parsed.texts.filter((text) => text !== undefined)).toHaveLength(unchanged.length);
  });
});
