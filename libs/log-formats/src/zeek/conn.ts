import { eventOf, rejected, type OutgoingEvent, type RecordOutcome } from '../outcome';
import { countOf, numberOf, portOf, textOf } from '../values';
import { zeekTime } from './zeek-time';
import type { ZeekRecord } from './zeek-record';

/**
 * conn.log → ipEvent. Bytes are payload bytes (`orig_bytes`/`resp_bytes`) seen from the originator: what it sent
 * is `bytesOut`, what came back `bytesIn` (0 stays 0: an unanswered attempt). ICMP "ports" are type and code,
 * so they are not sent as ports.
 */
export function zeekConnEvent(r: ZeekRecord): RecordOutcome {
  const ts = zeekTime(r.ts);
  if (ts === undefined) return rejected(r.ts === undefined ? 'missing_ts' : 'invalid_ts');
  const srcIP = textOf(r['id.orig_h']);
  if (srcIP === undefined) return rejected('missing_srcIP');
  const proto = textOf(r.proto)?.toLowerCase();
  const hasPorts = proto !== 'icmp' && proto !== 'icmp6';
  const event: OutgoingEvent<'ip'> = {
    ts,
    srcIP,
    srcPort: hasPorts ? portOf(r['id.orig_p']) : undefined,
    destIP: textOf(r['id.resp_h']),
    destPort: hasPorts ? portOf(r['id.resp_p']) : undefined,
    proto,
    app: serviceOf(r.service),
    duration: numberOf(r.duration),
    bytesOut: countOf(r.orig_bytes),
    bytesIn: countOf(r.resp_bytes),
    packetsOut: countOf(r.orig_pkts),
    packetsIn: countOf(r.resp_pkts),
    srcMac: textOf(r.orig_l2_addr),
  };
  return eventOf('ip', event);
}

/** The first confirmed service (`ssl,http` → `ssl`); newer Zeeks prefix analyzers that failed with `-`. */
function serviceOf(value: unknown): string | undefined {
  const services = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : [];
  return services.find((s) => s.length > 0 && !s.startsWith('-'))?.toLowerCase();
}
