import { Logger } from '@nestjs/common';
import type { Bus, BusRecord } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import { endpointsSeenScope, MemoryDistinctCounter } from '@vigil/counters';
import { TelemetryIntake } from './telemetry-intake';

const NOW = new Date('2026-11-29T10:00:00Z');
const SCOPE = endpointsSeenScope('ws-1', NOW);

const bodyFrom = (hosts: string[]) => Buffer.from(hosts.map((h) => JSON.stringify({ srcIP: h, query: 'example.com', qtype: 'A' })).join('\n'));

/** A bus that keeps what it is given, or refuses while `failing` is set. */
function recordingBus(): Bus & { failing?: Error; published: BusRecord[][] } {
  const bus = {
    failing: undefined as Error | undefined,
    published: [] as BusRecord[][],
    publish: async (_topic: string, records: BusRecord[]) => {
      if (bus.failing) throw bus.failing;
      bus.published.push(records);
    },
    subscribe: async () => {
      throw new Error('not used');
    },
    close: async () => undefined,
  };
  return bus;
}

/** The in-process distinct counter, noting the members of every add. */
class NotingCounter extends MemoryDistinctCounter {
  readonly adds: string[][] = [];
  override async add(scope: string, members: string[]): Promise<void> {
    this.adds.push([...members].sort());
    await super.add(scope, members);
  }
}

describe('TelemetryIntake counting endpoints', () => {
  it('sends the counter only endpoints it has not counted yet in the day, and the count stays exact', async () => {
    const counter = new NotingCounter();
    const intake = new TelemetryIntake(recordingBus(), counter, loadConfig({ VIGIL_INGEST_WORKERS: '0' }));
    await intake.accept('ws-1', 'dns', bodyFrom(['10.0.0.1', '10.0.0.2', '10.0.0.3']), NOW);
    await intake.accept('ws-1', 'dns', bodyFrom(['10.0.0.2', '10.0.0.3', '10.0.0.4']), NOW);
    await intake.accept('ws-1', 'dns', bodyFrom(['10.0.0.1', '10.0.0.4']), NOW);
    expect(counter.adds).toEqual([['ip:10.0.0.1', 'ip:10.0.0.2', 'ip:10.0.0.3'], ['ip:10.0.0.4']]);
    expect(await counter.count(SCOPE)).toBe(4);
    // Another day is another scope: counted afresh.
    const tomorrow = new Date(NOW.getTime() + 86_400_000);
    await intake.accept('ws-1', 'dns', bodyFrom(['10.0.0.1']), tomorrow);
    expect(await counter.count(endpointsSeenScope('ws-1', tomorrow))).toBe(1);
  });

  it('counts the endpoints of a body the bus refused once the sender retries it', async () => {
    const counter = new NotingCounter();
    const bus = recordingBus();
    const intake = new TelemetryIntake(bus, counter, loadConfig({ VIGIL_INGEST_WORKERS: '0' }));
    bus.failing = new Error('broker down');
    await expect(intake.accept('ws-1', 'dns', bodyFrom(['10.0.0.7', '10.0.0.8']), NOW)).rejects.toThrow('unavailable');
    expect(await counter.count(SCOPE)).toBe(0);
    bus.failing = undefined;
    await intake.accept('ws-1', 'dns', bodyFrom(['10.0.0.7', '10.0.0.8']), NOW);
    expect(await counter.count(SCOPE)).toBe(2);
  });

  it('accepts a body whose endpoints the counter failed to take, and sends them again with the next', async () => {
    const counter = new NotingCounter();
    const bus = recordingBus();
    const intake = new TelemetryIntake(bus, counter, loadConfig({ VIGIL_INGEST_WORKERS: '0' }));
    const add = jest.spyOn(counter, 'add').mockRejectedValueOnce(new Error('redis down'));
    await expect(intake.accept('ws-1', 'dns', bodyFrom(['10.0.0.9']), NOW)).resolves.toMatchObject({ accepted: 1 });
    expect(bus.published).toHaveLength(1);
    expect(await counter.count(SCOPE)).toBe(0);
    add.mockRestore();
    await intake.accept('ws-1', 'dns', bodyFrom(['10.0.0.9']), NOW);
    expect(await counter.count(SCOPE)).toBe(1);
  });

  it('warns once a minute while the counter keeps failing, not once a body', async () => {
    const counter = new NotingCounter();
    const intake = new TelemetryIntake(recordingBus(), counter, loadConfig({ VIGIL_INGEST_WORKERS: '0' }));
    jest.spyOn(counter, 'add').mockRejectedValue(new Error('redis down'));
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      for (let i = 0; i < 5; i++) await intake.accept('ws-1', 'dns', bodyFrom([`10.0.1.${i}`]), new Date(NOW.getTime() + i * 1_000));
      expect(warn).toHaveBeenCalledTimes(1);
      await intake.accept('ws-1', 'dns', bodyFrom(['10.0.1.9']), new Date(NOW.getTime() + 61_000));
      expect(warn).toHaveBeenCalledTimes(2);
      expect(warn.mock.calls[1][0]).toMatch(/counting endpoints failed \(5 since the last warning\)/);
    } finally {
      warn.mockRestore();
    }
  });
});
