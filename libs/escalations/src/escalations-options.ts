import type { DeliveryTopics } from './delivery/delivery-worker';
import type { TransportFactory } from './transports/create-transport';

/** Optional overrides (tests and tools). Nest token: ESCALATIONS_OPTIONS. */
export interface EscalationsOptions {
  topics?: Partial<DeliveryTopics & { control: string }>;
  createTransport?: TransportFactory;
  /** Commit cadence within a batch (default 250 ms). */
  commitIntervalMs?: number;
}

export const ESCALATIONS_OPTIONS = Symbol('ESCALATIONS_OPTIONS');
