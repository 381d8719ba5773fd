import { Histogram } from 'prom-client';
import { metricsRegistry, observeSinceAppended, PIPELINE_DELAY_BUCKETS } from '@vigil/platform';

const storeDelay = new Histogram({
  name: 'vigil_results_store_delay_seconds',
  help: 'Time from a finding or alert record\'s append to its topic until it is stored and can be served, by kind',
  labelNames: ['kind'],
  buckets: PIPELINE_DELAY_BUCKETS,
  registers: [metricsRegistry],
});

export const resultsWriterMetrics = {
  /** `appendedMs`: when each stored record was appended to its topic (epoch ms). */
  stored(kind: 'findings' | 'alerts', appendedMs: readonly number[], nowMs = Date.now()): void {
    observeSinceAppended(storeDelay.labels(kind), appendedMs, nowMs);
  },
};
