import { eventOf, rejected, type RecordOutcome } from '../outcome';
import { countOf, portOf, textOf, urlHost } from '../values';
import { section, type EveHeader, type EveRecord } from './eve-header';

/**
 * `http` → httpEvent. The URL is `http://<hostname>[:http_port]<url>` (the server's address when the request had
 * no Host); `status` may be a number or a string; `length` is the response body size (extended logging).
 */
export function eveHttpEvent(r: EveRecord, header: EveHeader): RecordOutcome {
  const http = section(r, 'http');
  const path = textOf(http.url);
  if (path === undefined) return rejected('missing_url');
  let url: string;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) url = path;
  else {
    const hostname = textOf(http.hostname) ?? (header.destIP !== undefined ? urlHost(header.destIP) : undefined);
    if (hostname === undefined) return rejected('missing_url');
    const port = portOf(http.http_port) ?? (textOf(http.hostname) === undefined && header.destPort !== 80 ? header.destPort : undefined);
    url = `http://${hostname}${port !== undefined ? `:${port}` : ''}${path.startsWith('/') ? path : `/${path}`}`;
  }
  return eventOf('http', {
    ts: header.ts,
    srcIP: header.srcIP,
    srcPort: header.srcPort,
    url,
    method: textOf(http.http_method),
    status: countOf(http.status),
    app: 'http',
    bytesIn: countOf(http.length),
    contentType: textOf(http.http_content_type),
    referrer: textOf(http.http_refer),
    userAgent: textOf(http.http_user_agent),
  });
}
