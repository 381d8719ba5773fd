import { Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus registry. One per process on purpose: metrics describe the process, and in the
 * all-in-one mode the five services are one process.
 */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry, prefix: 'vigil_' });
