import type { VigilConfig } from '@vigil/config';
import { ALL_TOPICS } from '@vigil/contracts';
import type { Bus } from './bus';
import { LocalBus } from './local';

/** The process's bus for the configured mode: durable local log files (embedded) or Kafka (distributed). */
export async function createBus(config: VigilConfig): Promise<Bus> {
  if (config.bus.kind === 'kafka') {
    throw new Error('KAFKA_BROKERS is set, but the Kafka bus arrives with the distributed mode; unset KAFKA_BROKERS');
  }
  return LocalBus.open({ dir: config.bus.dir, topics: ALL_TOPICS });
}
