import { JsonRecordScanner } from './framing/json-records';
import type { LogFormat } from './formats';
import { isZeekPath, zeekPathOfFields } from './zeek/zeek-record';

/**
 * The format of a log from its first lines (at most a few dozen, decompressed): a Zeek TSV header names its log
 * in `#path`; JSON logs are told apart by their keys (`event_type` + `timestamp`: Suricata EVE; `query_name` +
 * `srcaddr`: Route 53 Resolver; `jsonPayload.queryName`: Cloud DNS; Zeek's `id.orig_h`-style fields or `_path`);
 * BIND by its `client ... query:` lines. The file name decides between Zeek JSON logs whose first record is
 * ambiguous. Undefined when nothing fits.
 */
export function detectLogFormat(firstLines: readonly string[], fileName = ''): LogFormat | undefined {
  const lines = firstLines.filter((line) => line.trim().length > 0);
  if (lines.length === 0) return undefined;
  if (lines[0].startsWith('#separator') || lines[0].startsWith('#fields')) {
    const pathLine = lines.find((line) => line.startsWith('#path'));
    const path = pathLine?.slice('#path'.length).trim();
    if (path !== undefined) return isZeekPath(path) ? `zeek-${path}` : undefined;
    return zeekFromFileName(fileName);
  }
  const record = firstJsonObject(lines);
  if (record !== undefined) return jsonFormatOf(record, fileName);
  if (lines.slice(0, 20).some((line) => /client (?:@0x[0-9a-fA-F]+ )?\S+#\d+.*: query: /.test(line))) return 'bind-query';
  return undefined;
}

function firstJsonObject(lines: readonly string[]): Record<string, unknown> | undefined {
  const first = lines[0].trimStart();
  if (!first.startsWith('{') && !first.startsWith('[') && !first.startsWith('@cee:')) return undefined;
  const scanner = new JsonRecordScanner(4 * 1024 * 1024);
  for (const line of lines) {
    for (const record of scanner.line(line.replace(/^@cee:\s*/, ''))) if (record.ok) return record.value;
  }
  return undefined;
}

function jsonFormatOf(r: Record<string, unknown>, fileName: string): LogFormat | undefined {
  if ('event_type' in r && 'timestamp' in r) return 'suricata-eve';
  if ('query_name' in r && ('srcaddr' in r || 'query_timestamp' in r)) return 'route53-resolver';
  const payload = r.jsonPayload;
  if ((payload !== null && typeof payload === 'object' && 'queryName' in payload) || String(r.logName ?? '').includes('dns_queries')) return 'gcp-cloud-dns';
  const zeekPath = zeekPathOfFields(r);
  if (zeekPath !== undefined) return `zeek-${zeekPath}`;
  if ('ts' in r && ('uid' in r || 'id.orig_h' in r || 'fingerprint' in r)) return zeekFromFileName(fileName);
  return undefined;
}

/** `conn.log`, `conn.09:00:00-10:00:00.log.gz`, `dns.json` → the Zeek log type. */
function zeekFromFileName(fileName: string): LogFormat | undefined {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const path = base.split('.')[0];
  return isZeekPath(path) ? `zeek-${path}` : undefined;
}
