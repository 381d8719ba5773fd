import { eventOf, rejected, skipped, type RecordOutcome } from '../outcome';
import { isoFromTimestamp, textOf } from '../values';

/**
 * A Google Cloud DNS query log entry (a Cloud Logging `LogEntry` whose `jsonPayload` is the query) → dnsEvent.
 * The VM that asked becomes `srcHost` (`vmInstanceName`) and `srcID` (`vmInstanceIdString`). Entries that are not
 * query logs (audit logs of the same project) are skipped.
 */
export function gcpCloudDnsEvent(entry: Record<string, unknown>): RecordOutcome {
  const payload = entry.jsonPayload !== null && typeof entry.jsonPayload === 'object' ? (entry.jsonPayload as Record<string, unknown>) : undefined;
  if (payload === undefined || !('queryName' in payload)) return skipped('not_a_dns_query_entry');
  const stamp = entry.timestamp ?? entry.receiveTimestamp;
  const ts = isoFromTimestamp(stamp);
  if (ts === undefined) return rejected(stamp === undefined ? 'missing_ts' : 'invalid_ts');
  const query = textOf(payload.queryName);
  if (query === undefined) return rejected('missing_query');
  return eventOf('dns', {
    ts,
    srcIP: textOf(payload.sourceIP),
    srcHost: textOf(payload.vmInstanceName),
    srcID: textOf(payload.vmInstanceIdString) ?? textOf(payload.vmInstanceId),
    query,
    qtype: textOf(payload.queryType),
  });
}
