import { eventOf, type RecordOutcome } from '../outcome';
import { countOf, isoFromTimestamp, numberOf, textOf } from '../values';
import { section, sourceMac, type EveHeader, type EveRecord } from './eve-header';

/**
 * `flow` → ipEvent: `*_toserver` counters are what the client sent (`bytesOut`, `packetsOut`), `*_toclient` what
 * came back. The event time is the flow's start; the duration is end − start (else `age`).
 */
export function eveFlowEvent(r: EveRecord, header: EveHeader): RecordOutcome {
  const flow = section(r, 'flow');
  const start = isoFromTimestamp(flow.start);
  const end = isoFromTimestamp(flow.end);
  const duration = start !== undefined && end !== undefined ? Math.max(0, (Date.parse(end) - Date.parse(start)) / 1000) : numberOf(flow.age);
  const icmp = header.proto === 'icmp' || header.proto === 'ipv6-icmp';
  return eventOf('ip', {
    ts: start ?? header.ts,
    srcIP: header.srcIP,
    srcPort: icmp ? undefined : header.srcPort,
    srcMac: sourceMac(r),
    destIP: header.destIP,
    destPort: icmp ? undefined : header.destPort,
    proto: header.proto,
    app: appOf(r.app_proto),
    duration,
    bytesOut: countOf(flow.bytes_toserver),
    bytesIn: countOf(flow.bytes_toclient),
    packetsOut: countOf(flow.pkts_toserver),
    packetsIn: countOf(flow.pkts_toclient),
  });
}

/** `app_proto` unless Suricata could not tell (`failed`, `unknown`). */
function appOf(value: unknown): string | undefined {
  const app = textOf(value)?.toLowerCase();
  return app === 'failed' || app === 'unknown' ? undefined : app;
}
