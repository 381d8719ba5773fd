import type { BusLogger } from './partition-log';
import type { RetryPolicy } from './partition-consumer';
import type { ReadLimits } from './recent-records';

/** What every partition consumer of a bus shares. */
export interface ConsumerSettings {
  limits: ReadLimits;
  retry: RetryPolicy;
  logger: BusLogger;
}
