import { eventOf, rejected, skipped, type RecordOutcome } from '../outcome';
import { isoFromTimestamp, portOf } from '../values';

/**
 * A BIND 9 query log line (`querylog yes;`) → dnsEvent:
 *
 *   [<time> ][queries: info: ]client [@0x7f...] 10.0.0.1#53211 (example.com): [view internal: ]query: example.com IN A +E(0)K (10.0.0.53)
 *
 * The leading time is optional: BIND's default `dd-Mon-yyyy hh:mm:ss.mmm`, ISO 8601 (`print-time iso8601` /
 * `iso8601-utc`), or a syslog prefix (`Jan  7 10:15:32 ns1 named[812]: `, year taken as the one that puts the line
 * no more than a day after `now`). Times without an offset are read as UTC. Without a time, `ts` is left to
 * the server (the receive time). Lines of other categories are skipped.
 */
export function bindQueryEvent(line: string, now: Date = new Date()): RecordOutcome {
  const at = line.indexOf('client ');
  const query = at === -1 ? null : QUERY.exec(line.slice(at));
  if (query === null) return line.includes('query: ') ? rejected('unparsed_query_line') : skipped('not_a_query_line');
  const [, srcIP, srcPort, name, qclass, qtype] = query;
  const prefix = line.slice(0, at);
  const ts = timeOf(prefix, now);
  if (ts === null) return rejected('invalid_ts');
  if (qclass.toUpperCase() !== 'IN' && qclass.toUpperCase() !== 'CH' && qclass.toUpperCase() !== 'HS' && !/^CLASS\d+$/i.test(qclass)) return rejected('unparsed_query_line');
  return eventOf('dns', { ts, srcIP, srcPort: portOf(srcPort), query: name, qtype });
}

const QUERY = /^client (?:@0x[0-9a-fA-F]+ )?([0-9A-Fa-f.:%a-z]+)#(\d+)(?: \([^)]*\))?: (?:view [^:]+: )?query: (\S+) (\S+) (\S+) /;

const MONTHS: Readonly<Record<string, number>> = { jan: 0, feb: 1, mar: 2, apr: 3, may: 4, jun: 5, jul: 6, aug: 7, sep: 8, oct: 9, nov: 10, dec: 11 };
const BIND_TIME = /^(\d{2})-([A-Za-z]{3})-(\d{4}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?\s/;
const ISO_TIME = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s/;
const SYSLOG_TIME = /^([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2})\s/;

/** The line's time as UTC ISO; undefined when it has none; null when it has one that cannot be read. */
function timeOf(prefix: string, now: Date): string | undefined | null {
  if (prefix.trim() === '') return undefined;
  let m = BIND_TIME.exec(prefix);
  if (m) {
    const month = MONTHS[m[2].toLowerCase()];
    if (month === undefined) return null;
    const millis = Number(((m[7] ?? '') + '000').slice(0, 3));
    return new Date(Date.UTC(Number(m[3]), month, Number(m[1]), Number(m[4]), Number(m[5]), Number(m[6]), millis)).toISOString();
  }
  m = ISO_TIME.exec(prefix);
  if (m) return isoFromTimestamp(m[1]) ?? null;
  m = SYSLOG_TIME.exec(prefix);
  if (m) {
    const month = MONTHS[m[1].toLowerCase()];
    if (month === undefined) return null;
    const at = (year: number) => Date.UTC(year, month, Number(m![2]), Number(m![3]), Number(m![4]), Number(m![5]));
    let year = now.getUTCFullYear();
    if (at(year) > now.getTime() + 86_400_000) year -= 1;
    return new Date(at(year)).toISOString();
  }
  // Only a category/severity prefix (`queries: info: `), or a logger's own prefix we do not know.
  return /^[\w-]+: \w+: $/.test(prefix) ? undefined : null;
}
