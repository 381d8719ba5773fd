import { metricsRegistry } from '@vigil/platform';
import { Counter, Gauge } from 'prom-client';

/** What the intel gauges report: the indicators held and the list loads or refreshes that failed so far. */
export interface IntelFigures {
  indicators: number;
  failures: number;
}

/** Where the figures come from: the runtime of this thread, or what the scoring threads last reported. */
let source: (() => IntelFigures | undefined) | undefined;

new Gauge({
  name: 'vigil_intel_indicators',
  help: 'Threat-intelligence indicators held (seed and run-time lists)',
  registers: [metricsRegistry],
  collect() {
    this.set(source?.()?.indicators ?? 0);
  },
});
new Counter({
  name: 'vigil_intel_list_failures_total',
  help: 'Intel list loads or refreshes that failed (previous content kept)',
  registers: [metricsRegistry],
  collect() {
    this.reset();
    this.inc(source?.()?.failures ?? 0);
  },
});

/** Sets the source of the intel gauges (the process's scoring consumer does, once). */
export function reportIntel(from: () => IntelFigures | undefined): void {
  source = from;
}
