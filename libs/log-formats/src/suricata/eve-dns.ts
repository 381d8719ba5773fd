import { rejected, skipped, type ImportedEvent, type RecordOutcome } from '../outcome';
import { textOf } from '../values';
import { section, type EveHeader, type EveRecord } from './eve-header';

/**
 * `dns` → dnsEvent, for the request side only (answers repeat the question and would count each lookup twice).
 * EVE v1 and v2 log a query as `{"type":"query","rrname","rrtype"}`; v3 (Suricata 8) as
 * `{"type":"request","queries":[{"rrname","rrtype"}]}`, one event per question.
 */
export function eveDnsEvents(r: EveRecord, header: EveHeader): RecordOutcome {
  const dns = section(r, 'dns');
  const type = textOf(dns.type)?.toLowerCase();
  if (type === 'answer' || type === 'response') return skipped('dns_answer');
  if (type !== 'query' && type !== 'request') return rejected('invalid_dns_type');
  const questions = Array.isArray(dns.queries) ? (dns.queries as unknown[]) : [dns];
  const events: ImportedEvent[] = [];
  for (const question of questions) {
    const q = question !== null && typeof question === 'object' ? (question as Record<string, unknown>) : {};
    const query = textOf(q.rrname);
    if (query === undefined) continue;
    events.push({ type: 'dns', event: { ts: header.ts, srcIP: header.srcIP, srcPort: header.srcPort, query, qtype: textOf(q.rrtype) } });
  }
  return events.length > 0 ? { kind: 'events', events } : rejected('missing_query');
}
