import { eventOf, rejected, type RecordOutcome } from '../outcome';
import { portOf, textOf } from '../values';
import { zeekTime } from './zeek-time';
import type { ZeekRecord } from './zeek-record';

/** dns.log → dnsEvent: the querying host and the question (`qtype_name`, else the numeric `qtype`). */
export function zeekDnsEvent(r: ZeekRecord): RecordOutcome {
  const ts = zeekTime(r.ts);
  if (ts === undefined) return rejected(r.ts === undefined ? 'missing_ts' : 'invalid_ts');
  const query = textOf(r.query);
  if (query === undefined) return rejected('missing_query');
  return eventOf('dns', {
    ts,
    srcIP: textOf(r['id.orig_h']),
    srcPort: portOf(r['id.orig_p']),
    query,
    qtype: textOf(r.qtype_name) ?? textOf(r.qtype),
  });
}
