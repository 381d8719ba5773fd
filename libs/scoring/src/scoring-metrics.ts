import { Counter } from 'prom-client';
import { metricsRegistry } from '@vigil/platform';

const scored = new Counter({ name: 'vigil_events_scored_total', help: 'Telemetry events scored', registers: [metricsRegistry] });
const findings = new Counter({ name: 'vigil_finding_records_total', help: 'Finding records (creates and updates) emitted', registers: [metricsRegistry] });
const alerts = new Counter({ name: 'vigil_alerts_total', help: 'Legacy alerts emitted', registers: [metricsRegistry] });

export const scoringMetrics = {
  record(events: number, findingCount: number, alertCount: number): void {
    scored.inc(events);
    findings.inc(findingCount);
    alerts.inc(alertCount);
  },
};
