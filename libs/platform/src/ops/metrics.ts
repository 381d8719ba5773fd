import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus registry. One per process on purpose: metrics describe the process, and in the
 * all-in-one mode the five services are one process.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'vigil_' });

/** Buckets (seconds) of the histograms that time a stage of the way from an upload to a servable finding. */
export const PIPELINE_DELAY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10, 30, 60];

/** Observes, in seconds, how long ago each bus record was appended (`appendedMs`, epoch ms). */
export function observeSinceAppended(histogram: { observe(seconds: number): void }, appendedMs: readonly number[], nowMs = Date.now()): void {
  for (const at of appendedMs) histogram.observe(Math.max(0, nowMs - at) / 1000);
}
