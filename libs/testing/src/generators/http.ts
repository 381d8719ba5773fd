import type { HttpEvent } from '@vigil/contracts';
import { checkCount } from './checks';
import { popularDomain, sessionHostname } from './hostnames';
import { ephemeralPort, hostPool, type NetworkOptions } from './network';
import { seeded } from './seeded';
import { timeline } from './timeline';

const USER_AGENTS: readonly string[] = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
  'Microsoft-CryptoAPI/10.0',
  'Windows-Update-Agent/10.0.10011.16384 Client-Protocol/2.50',
  'curl/8.5.0',
];

const HTTP_PATHS: readonly (readonly [string, string])[] = [
  ['/', 'text/html'],
  ['/index.html', 'text/html'],
  ['/api/v1/items', 'application/json'],
  ['/api/v2/session', 'application/json'],
  ['/static/app.js', 'application/javascript'],
  ['/static/main.css', 'text/css'],
  ['/images/logo.png', 'image/png'],
  ['/img/banner.jpg', 'image/jpeg'],
  ['/favicon.ico', 'image/x-icon'],
  ['/fonts/inter.woff2', 'font/woff2'],
  ['/msdownload/update/v3/static/trustedr/en/authrootstl.cab', 'application/vnd.ms-cab-compressed'],
];

/** Proxy-style HTTP requests to popular sites. */
export function httpEvents(n: number, opts: NetworkOptions = {}): HttpEvent[] {
  checkCount(n);
  const rng = seeded('http', opts.seed);
  const hosts = hostPool(opts);
  const nextTs = timeline(rng, opts);
  return Array.from({ length: n }, () => {
    const host = rng.pick(hosts);
    const [path, contentType] = rng.pick(HTTP_PATHS);
    const hostname = sessionHostname(rng);
    const scheme = rng.chance(0.8) ? 'https' : 'http';
    const status = rng.weighted([[200, 75], [204, 5], [301, 3], [302, 5], [304, 7], [404, 4], [403, 1]] as const);
    const event: HttpEvent = {
      ts: nextTs(),
      srcIP: host.ip,
      srcPort: ephemeralPort(rng),
      srcHost: host.name,
      url: `${scheme}://${hostname}${path}`,
      method: rng.weighted([['GET', 85], ['POST', 12], ['HEAD', 2], ['PUT', 1]] as const),
      status,
      app: scheme,
      action: 'allowed',
      bytesIn: status === 304 || status === 204 ? 0 : Math.round(rng.exponential(30_000)) + 200,
      bytesOut: Math.round(rng.exponential(800)) + 150,
      contentType,
      userAgent: rng.pick(USER_AGENTS),
    };
    if (rng.chance(0.4)) event.referrer = `https://www.${popularDomain(rng)}/`;
    return event;
  });
}
