import { Counter } from 'prom-client';
import { metricsRegistry } from '@vigil/platform';

const received = new Counter({ name: 'vigil_events_received_total', help: 'Telemetry events received', labelNames: ['type'] as const, registers: [metricsRegistry] });
const accepted = new Counter({ name: 'vigil_events_accepted_total', help: 'Telemetry events accepted', labelNames: ['type'] as const, registers: [metricsRegistry] });
const rejected = new Counter({ name: 'vigil_events_rejected_total', help: 'Telemetry events rejected, by reason', labelNames: ['type', 'reason'] as const, registers: [metricsRegistry] });

export const ingestMetrics = {
  record(type: string, receivedCount: number, acceptedCount: number, rejections: Record<string, number>): void {
    received.inc({ type }, receivedCount);
    accepted.inc({ type }, acceptedCount);
    for (const [reason, count] of Object.entries(rejections)) rejected.inc({ type, reason }, count);
  },
};
