import { eventOf, rejected, type RecordOutcome } from '../outcome';
import { isoFromTimestamp, portOf, textOf } from '../values';

/**
 * An Amazon Route 53 Resolver query log record (JSON; `version` 1.x) → dnsEvent. `srcport` is a string in these
 * logs; the querying instance (`srcids.instance`, else the inbound `resolver_endpoint`) becomes `srcID`.
 */
export function route53ResolverEvent(r: Record<string, unknown>): RecordOutcome {
  const ts = isoFromTimestamp(r.query_timestamp);
  if (ts === undefined) return rejected(r.query_timestamp === undefined ? 'missing_ts' : 'invalid_ts');
  const query = textOf(r.query_name);
  if (query === undefined) return rejected('missing_query');
  const ids = r.srcids !== null && typeof r.srcids === 'object' ? (r.srcids as Record<string, unknown>) : {};
  return eventOf('dns', {
    ts,
    srcIP: textOf(r.srcaddr),
    srcPort: portOf(r.srcport),
    srcID: textOf(ids.instance) ?? textOf(ids.resolver_endpoint),
    query,
    qtype: textOf(r.query_type),
  });
}
