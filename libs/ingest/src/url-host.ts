const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The host name of an HTTP event's URL, lower-cased (IDNs in punycode, IPv6 without brackets), or undefined
 * when there is none. Clients send URLs without a scheme (`example.com/path`, `example.com:8080/x`,
 * `//cdn.example.com/a.js`): those are read as `http://…`.
 */
export function urlHost(url: string): string | undefined {
  const trimmed = url.trim();
  if (trimmed === '') return undefined;
  const absolute = HAS_SCHEME.test(trimmed) ? trimmed : `http://${trimmed.replace(/^\/\//, '')}`;
  let hostname: string;
  try {
    hostname = new URL(absolute).hostname;
  } catch {
    return undefined;
  }
  if (hostname.startsWith('[') && hostname.endsWith(']')) hostname = hostname.slice(1, -1);
  if (hostname.endsWith('.')) hostname = hostname.slice(0, -1);
  return hostname === '' ? undefined : hostname;
}
