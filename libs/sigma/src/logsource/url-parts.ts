/** The parts of a request URL Sigma web fields address. Works on absolute URLs and on bare paths. */
export interface UrlParts {
  host?: string;
  path: string;
  /** Without the leading '?'; undefined when the URL has none. */
  query?: string;
}

const cache = new WeakMap<object, UrlParts>();

export function splitUrl(url: string): UrlParts {
  let rest = url;
  let host: string | undefined;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(rest);
  if (scheme) {
    rest = rest.slice(scheme[0].length);
    const end = rest.search(/[/?#]/);
    const authority = end === -1 ? rest : rest.slice(0, end);
    rest = end === -1 ? '' : rest.slice(end);
    host = authority.replace(/^[^@]*@/, '').replace(/:\d*$/, '').toLowerCase() || undefined;
  }
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const path = (q === -1 ? rest : rest.slice(0, q)) || (host ? '/' : '');
  return { host, path, query: q === -1 ? undefined : rest.slice(q + 1) };
}

/** URL parts of an HTTP event, parsed once per event object. */
export function urlPartsOf(event: Record<string, unknown>): UrlParts | undefined {
  if (typeof event.url !== 'string') return undefined;
  let parts = cache.get(event);
  if (!parts) cache.set(event, (parts = splitUrl(event.url)));
  return parts;
}
