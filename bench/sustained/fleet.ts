/**
 * Sensor clients that post the workload's bodies without pause, each picking the next body's type by the
 * workload's mix, and count what the server accepted. Client i posts to target i mod n (one target for the
 * all-in-one; the gateways, round-robin, for the split deployment). A non-200 answer other than 429/503 (backpressure) stops
 * the benchmark: under sustained load Vigil must keep answering.
 */
import type { TelemetryType } from '@vigil/contracts';
import { api, createRng, type VigilProcess } from '@vigil/testing';
import { TYPE_MIX, type Body } from './workload';

export interface FleetCounters {
  accepted: number;
  posted: number;
  backpressure: number;
}

export class Fleet {
  readonly counters: FleetCounters = { accepted: 0, posted: 0, backpressure: 0 };
  private running = true;
  private readonly loops: Promise<void>[] = [];

  constructor(
    private readonly targets: readonly Pick<VigilProcess, 'baseUrl' | 'key'>[],
    private readonly bodies: Map<TelemetryType, Body[]>,
  ) {}

  start(clients: number): void {
    for (let i = 0; i < clients; i++) this.loops.push(this.client(i));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  private async client(index: number): Promise<void> {
    const rng = createRng(`fleet-client-${index}`);
    const target = this.targets[index % this.targets.length];
    const next = new Map<TelemetryType, number>();
    while (this.running) {
      const type = rng.weighted(TYPE_MIX);
      const list = this.bodies.get(type)!;
      const position = next.get(type) ?? index;
      next.set(type, position + 1);
      const body = list[position % list.length];
      const res = await api(target, 'POST', `/v1/events/${type}`, { body: body.gzip, headers: { 'content-encoding': 'gzip' } });
      this.counters.posted++;
      if (res.status === 200) this.counters.accepted += (res.body as { accepted: number }).accepted;
      else if (res.status === 429 || res.status === 503) {
        this.counters.backpressure++;
        await new Promise((r) => setTimeout(r, 100));
      } else throw new Error(`POST /v1/events/${type} answered ${res.status}: ${res.text.slice(0, 300)}`);
    }
  }
}
