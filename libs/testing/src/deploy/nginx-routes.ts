/**
 * Reads the routing table of an nginx server configuration: `upstream` blocks and `location` blocks with their
 * `proxy_pass`. Enough of nginx's syntax for Vigil's own deploy/nginx/vigil.conf (no regex locations, no includes).
 */
export interface NginxLocation {
  match: 'exact' | 'prefix';
  path: string;
  /** Upstream block name proxied to, if the location proxies. */
  upstream?: string;
  /** Status of a `return <code>` location. */
  returns?: number;
}

export interface NginxRoutes {
  /** Upstream name → the `host:port` of its servers. */
  upstreams: Map<string, string[]>;
  locations: NginxLocation[];
}

function withoutComments(text: string): string {
  return text.replace(/#[^\n]*/g, '');
}

export function parseNginxRoutes(text: string): NginxRoutes {
  const source = withoutComments(text);
  const upstreams = new Map<string, string[]>();
  for (const block of source.matchAll(/upstream\s+([\w.-]+)\s*\{([^}]*)\}/g)) {
    upstreams.set(block[1], [...block[2].matchAll(/server\s+([^\s;]+)/g)].map((s) => s[1]));
  }
  const locations: NginxLocation[] = [];
  for (const block of source.matchAll(/location\s+(=\s*)?(\/[^\s{]*)\s*\{([^}]*)\}/g)) {
    const body = block[3];
    const upstream = /proxy_pass\s+https?:\/\/([\w.-]+)/.exec(body)?.[1];
    const returns = /return\s+(\d{3})/.exec(body)?.[1];
    locations.push({
      match: block[1] ? 'exact' : 'prefix',
      path: block[2],
      ...(upstream ? { upstream } : {}),
      ...(returns ? { returns: Number(returns) } : {}),
    });
  }
  if (/location\s+~/.test(source)) throw new Error('regex locations are not supported by parseNginxRoutes');
  return { upstreams, locations };
}

/** nginx's choice for a request path: an exact match wins, else the longest matching prefix. */
export function nginxLocationFor(routes: NginxRoutes, path: string): NginxLocation | undefined {
  const exact = routes.locations.find((l) => l.match === 'exact' && l.path === path);
  if (exact) return exact;
  return routes.locations
    .filter((l) => l.match === 'prefix' && path.startsWith(l.path))
    .sort((a, b) => b.path.length - a.path.length)[0];
}
