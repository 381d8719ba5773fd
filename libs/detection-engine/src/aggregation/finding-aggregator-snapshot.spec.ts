import { observeEvent } from '../observed-event';
import { DNS_TUNNEL } from '../detections/dns-tunnel/dns-tunnel';
import type { DetectionDefinition, DetectionHit, ObservedEvent } from '../detections/detection';
import { EventTableReader, EventTableWriter } from '../state/event-table';
import { SnapshotError } from '../state/snapshot';
import { batch, dnsEvent, T0 } from '../testing/fixtures';
import { FindingAggregator } from './finding-aggregator';

const CUSTOM: DetectionDefinition = { ...DNS_TUNNEL, id: 'sigma:custom-1', title: 'A customer rule', flags: [] };

function hit(detection: DetectionDefinition, observed: ObservedEvent, key = 'example.org'): DetectionHit {
  const wisdom = { flags: [...detection.flags], domain: key };
  return { detection, key, weight: 2, evidence: [{ event: observed, wisdom }], wisdom, observations: ['o'], desc: `seen ${observed.index}` };
}

const event = (i: number) => observeEvent(batch(`b-${i}`, 'dns', [dnsEvent(`x${i}.example.org`, T0 + i * 1_000, '10.0.0.5', { srcHost: 'pc-1' })]), 0) as ObservedEvent;

function roundTrip(aggregator: FindingAggregator, definitions: Record<string, DetectionDefinition>, size = 100): FindingAggregator {
  const writer = new EventTableWriter();
  const wire = JSON.parse(JSON.stringify({ state: aggregator.snapshot(writer), events: writer.table() }));
  const restored = new FindingAggregator(size);
  restored.restore(wire.state, new EventTableReader(wire.events), (id) => definitions[id]);
  return restored;
}

describe('FindingAggregator: snapshot and restore', () => {
  it('continues open findings: same uid, next revision, counts, evidence and batch ids carried on', () => {
    const straight = new FindingAggregator(100);
    const before = new FindingAggregator(100);
    for (const agg of [straight, before]) {
      agg.add('ws', event(1).endpoint, hit(DNS_TUNNEL, event(1)), 'b-1');
      agg.add('ws', event(1).endpoint, hit(CUSTOM, event(1), 'custom-1'), 'b-1');
      agg.flush(T0 + 10_000);
    }
    // The restoring engine knows the built-in detection, not the customer rule: its stored definition serves.
    const after = roundTrip(before, { [DNS_TUNNEL.id]: DNS_TUNNEL });
    expect(after.openFindings).toBe(2);
    const next = (agg: FindingAggregator) => {
      agg.add('ws', event(2).endpoint, hit(DNS_TUNNEL, event(2)), 'b-2');
      agg.add('ws', event(2).endpoint, hit(CUSTOM, event(2), 'custom-1'), 'b-2');
      return agg.flush(T0 + 20_000);
    };
    const expected = next(straight);
    const got = next(after);
    expect(got).toEqual(expected);
    expect(got[0]).toMatchObject({ revision: 2, count: 4, batchIds: ['b-1', 'b-2'], createdMs: T0 + 10_000 });
    expect(got[0].evidence).toHaveLength(2);
    expect(got[1].detection).toEqual(CUSTOM);
  });

  it('keeps the most recently used findings within a smaller bound; rejects malformed ones, keeping its own', () => {
    const agg = new FindingAggregator(100);
    for (let i = 0; i < 5; i++) agg.add('ws', event(i).endpoint, hit(DNS_TUNNEL, event(i), `d${i}.org`), `b-${i}`);
    agg.flush(T0);
    const small = roundTrip(agg, {}, 2);
    expect(small.openFindings).toBe(2);
    small.add('ws', event(9).endpoint, hit(DNS_TUNNEL, event(9), 'd4.org'), 'b-9');
    expect(small.flush(T0 + 1)[0].revision).toBe(2);

    const writer = new EventTableWriter();
    const state = JSON.parse(JSON.stringify(agg.snapshot(writer))) as { d: Record<string, unknown>; f: unknown[] };
    const events = new EventTableReader(JSON.parse(JSON.stringify(writer.table())));
    expect(() => small.restore({ ...state, f: state.f.slice(1) }, events, () => undefined)).toThrow(SnapshotError);
    expect(() => small.restore({ d: {}, f: state.f }, events, () => undefined)).toThrow(/findings.d.dns_tunnel: expected an object/);
    expect(small.openFindings).toBe(2);
  });
});
