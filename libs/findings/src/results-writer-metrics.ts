import { Histogram } from 'prom-client';
import { metricsRegistry } from '@vigil/platform';

const storeDelay = new Histogram({
  name: 'vigil_results_store_delay_seconds',
  help: 'Time from a finding or alert record\'s append to its topic until it is stored and can be served, by kind',
  labelNames: ['kind'],
  buckets: [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 30, 60],
  registers: [metricsRegistry],
});

export const resultsWriterMetrics = {
  /** `appendedMs`: when each stored record was appended to its topic (epoch ms). */
  stored(kind: 'findings' | 'alerts', appendedMs: readonly number[], nowMs = Date.now()): void {
    const histogram = storeDelay.labels(kind);
    for (const at of appendedMs) histogram.observe(Math.max(0, nowMs - at) / 1000);
  },
};
