import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from '@vigil/platform';

const connections = new Gauge({ name: 'vigil_dnstap_connections', help: 'Open dnstap (Frame Streams) connections', registers: [metricsRegistry] });
const closed = new Counter({
  name: 'vigil_dnstap_connections_closed_total',
  help: 'dnstap connections closed by the gateway, by reason (stream errors such as bad_control_frame or invalid_protobuf, refused, unknown_workspace, handshake_timeout)',
  labelNames: ['reason'] as const,
  registers: [metricsRegistry],
});
const frames = new Counter({ name: 'vigil_dnstap_frames_total', help: 'dnstap data frames received', registers: [metricsRegistry] });
const messages = new Counter({
  name: 'vigil_dnstap_messages_total',
  help: 'dnstap messages by outcome (mapped to events, skipped, rejected) and reason',
  labelNames: ['outcome', 'reason'] as const,
  registers: [metricsRegistry],
});
const dropped = new Counter({
  name: 'vigil_dnstap_events_dropped_total',
  help: 'DNS events from dnstap that could not be published (the bus stayed unavailable while the connection closed)',
  registers: [metricsRegistry],
});

export const dnstapMetrics = {
  connections(delta: number): void {
    connections.inc(delta);
  },
  closed(reason: string): void {
    closed.inc({ reason });
  },
  frame(): void {
    frames.inc();
  },
  message(outcome: 'mapped' | 'skipped' | 'rejected', reason = ''): void {
    messages.inc({ outcome, reason });
  },
  dropped(count: number): void {
    dropped.inc(count);
  },
};
