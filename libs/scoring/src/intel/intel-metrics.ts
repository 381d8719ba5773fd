import { metricsRegistry } from '@vigil/platform';
import { Counter, Gauge } from 'prom-client';
import type { IndicatorStore } from '@vigil/detection-engine';

let tracked: IndicatorStore | undefined;

new Gauge({
  name: 'vigil_intel_indicators',
  help: 'Threat-intelligence indicators held (seed and run-time lists)',
  registers: [metricsRegistry],
  collect() {
    this.set(tracked?.size ?? 0);
  },
});
const failures = new Counter({
  name: 'vigil_intel_list_failures_total',
  help: 'Intel list loads or refreshes that failed (previous content kept)',
  registers: [metricsRegistry],
});

export const intelMetrics = {
  /** The store whose size the gauge reports (the process's shared one). */
  track(store: IndicatorStore): void {
    tracked = store;
  },
  failed(): void {
    failures.inc();
  },
};
