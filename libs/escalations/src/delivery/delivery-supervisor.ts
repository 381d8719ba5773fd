import type { EscalationDestination } from '../destinations/destination';
import { DeliveryWorker, type WorkerLog } from './delivery-worker';
import { escalationMetrics } from './escalation-metrics';

export type WorkerFactory = (destination: EscalationDestination) => DeliveryWorker;

/** Keeps one running {@link DeliveryWorker} per active destination: starts new ones, stops removed ones. */
export class DeliverySupervisor {
  private readonly workers = new Map<string, DeliveryWorker>();
  private chain: Promise<void> = Promise.resolve();
  private wanted: EscalationDestination[] = [];
  private retryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly createWorker: WorkerFactory,
    private readonly log: WorkerLog,
    private readonly retryStartMs = 5_000,
  ) {}

  /** Destination ids with a running worker. */
  get running(): string[] {
    return [...this.workers.keys()];
  }

  /** Brings the workers in line with `active` (calls are applied one after another). */
  reconcile(active: EscalationDestination[]): Promise<void> {
    this.wanted = active;
    this.chain = this.chain.then(() => this.apply()).catch((error: unknown) => this.log.warn(`escalation workers: ${String(error)}`));
    return this.chain;
  }

  async stopAll(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    await this.chain;
    await Promise.all([...this.workers.values()].map((worker) => worker.stop()));
    this.workers.clear();
  }

  private async apply(): Promise<void> {
    if (this.stopped) return;
    const wanted = new Map(this.wanted.map((d) => [d.id, d]));
    for (const [id, worker] of this.workers) {
      if (wanted.has(id)) continue;
      this.workers.delete(id);
      await worker.stop();
      escalationMetrics.forget(id);
      this.log.log(`escalation "${worker.destination.name}" (${id}) removed; delivery stopped`);
    }
    // Started side by side: one slow group join (a Kafka rebalance) must not hold up the others.
    const starting = [...wanted].filter(([id]) => !this.workers.has(id));
    const results = await Promise.all(starting.map(([, destination]) => this.startWorker(destination)));
    const failures = results.filter((ok) => !ok).length;
    if (failures > 0 && !this.stopped) {
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = setTimeout(() => void this.reconcile(this.wanted), this.retryStartMs);
      this.retryTimer.unref();
    }
  }

  private async startWorker(destination: EscalationDestination): Promise<boolean> {
    const worker = this.createWorker(destination);
    try {
      await worker.start();
      if (this.stopped) {
        await worker.stop();
        return true;
      }
      this.workers.set(destination.id, worker);
      this.log.log(`escalation "${destination.name}" (${destination.id}): delivering ${destination.format} to ${destination.target.kind}`);
      return true;
    } catch (error) {
      await worker.stop().catch(() => undefined);
      this.log.warn(`escalation "${destination.name}" (${destination.id}) could not start, retrying in ${this.retryStartMs} ms: ${String(error)}`);
      return false;
    }
  }
}
