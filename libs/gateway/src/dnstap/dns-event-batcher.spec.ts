import type { DnsEvent } from '@vigil/contracts';
import { TelemetryBusUnavailableError } from '../telemetry-intake';
import { DnsEventBatcher } from './dns-event-batcher';

const event = (i: number): DnsEvent => ({ ts: '2026-03-01T00:00:00.000Z', srcIP: '10.0.0.1', query: `q${i}.example.com` });

function batcher(publish: (events: DnsEvent[]) => Promise<void>, intervalMs = 20) {
  const dropped: number[] = [];
  const retries: number[] = [];
  const b = new DnsEventBatcher({ maxEvents: 3, intervalMs, publish, onDropped: (n) => dropped.push(n), onRetry: (n) => retries.push(n) });
  return { b, dropped, retries };
}

describe('DnsEventBatcher', () => {
  it('publishes pending events after the interval, and reports full at the batch size', async () => {
    const published: DnsEvent[][] = [];
    const { b } = batcher(async (events) => void published.push(events));
    b.add([event(1), event(2)]);
    expect(b.full).toBe(false);
    b.add([event(3)]);
    expect(b.full).toBe(true);
    await new Promise((r) => setTimeout(r, 60));
    expect(published).toEqual([[event(1), event(2), event(3)]]);
    expect(b.size).toBe(0);
  });

  it('retries while the bus is unavailable, one flush at a time, and keeps the order', async () => {
    const published: string[][] = [];
    let failures = 2;
    const { b, retries } = batcher(async (events) => {
      if (failures-- > 0) throw new TelemetryBusUnavailableError('saturated', 0);
      published.push(events.map((e) => e.query));
    }, 10_000);
    b.add([event(1)]);
    const first = b.flush();
    b.add([event(2)]);
    await Promise.all([first, b.flush()]);
    expect(retries).toEqual([1, 1]);
    expect(published).toEqual([['q1.example.com'], ['q2.example.com']]);
  });

  it('gives a batch up when closing with the bus still down, or on any other error', async () => {
    let attempts = 0;
    const down = batcher(async () => {
      attempts++;
      throw new TelemetryBusUnavailableError('down', 0);
    });
    down.b.add([event(1), event(2)]);
    await down.b.close();
    expect(attempts).toBe(3);
    expect(down.dropped).toEqual([2]);

    const broken = batcher(async () => {
      throw new Error('bug');
    });
    broken.b.add([event(1)]);
    await broken.b.flush();
    expect(broken.dropped).toEqual([1]);
    expect(broken.retries).toEqual([]);
  });
});
