import { eventOf, rejected, type RecordOutcome } from '../outcome';
import { countOf, firstOf, portOf, textOf, urlHost } from '../values';
import { zeekTime } from './zeek-time';
import type { ZeekRecord } from './zeek-record';

/**
 * http.log → httpEvent. The URL is rebuilt as `http://<host><uri>`: `host` is the Host header (with its port when
 * the client sent one); without it, the server's address and port. A proxy request's absolute URI is kept.
 */
export function zeekHttpEvent(r: ZeekRecord): RecordOutcome {
  const ts = zeekTime(r.ts);
  if (ts === undefined) return rejected(r.ts === undefined ? 'missing_ts' : 'invalid_ts');
  const url = urlOf(r);
  if (url === undefined) return rejected('missing_url');
  return eventOf('http', {
    ts,
    srcIP: textOf(r['id.orig_h']),
    srcPort: portOf(r['id.orig_p']),
    srcUser: textOf(r.username),
    url,
    method: textOf(r.method),
    status: countOf(r.status_code),
    app: 'http',
    bytesOut: countOf(r.request_body_len),
    bytesIn: countOf(r.response_body_len),
    contentType: textOf(firstOf(r.resp_mime_types)),
    referrer: textOf(r.referrer),
    userAgent: textOf(r.user_agent),
  });
}

function urlOf(r: ZeekRecord): string | undefined {
  const uri = textOf(r.uri);
  if (uri !== undefined && /^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) return uri;
  let host = textOf(r.host);
  if (host === undefined) {
    const ip = textOf(r['id.resp_h']);
    if (ip === undefined) return undefined;
    const port = portOf(r['id.resp_p']);
    host = urlHost(ip) + (port !== undefined && port !== 80 ? `:${port}` : '');
  }
  if (uri === undefined) return textOf(r.host) === undefined ? undefined : `http://${host}/`;
  return uri.startsWith('/') ? `http://${host}${uri}` : `http://${uri}`;
}
