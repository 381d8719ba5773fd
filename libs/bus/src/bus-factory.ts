import type { VigilConfig } from '@vigil/config';
import { ALL_TOPICS } from '@vigil/contracts';
import type { Bus } from './bus';
import { KafkaBus } from './kafka';
import { LocalBus } from './local';

/** The process's bus for the configured mode: durable local log files (embedded) or Kafka (distributed). */
export async function createBus(config: VigilConfig): Promise<Bus> {
  if (config.bus.kind === 'kafka') {
    return KafkaBus.open({ brokers: config.bus.brokers, topics: ALL_TOPICS, clientId: 'vigil' });
  }
  return LocalBus.open({ dir: config.bus.dir, topics: ALL_TOPICS });
}
