import type { ServiceApp } from './service-process';

/**
 * Which service answers a path — the routing a reverse proxy in front of a split deployment does. The
 * operational endpoints (/healthz, /readyz, /metrics, /openapi.json) exist on every service and are not routed.
 */
const ROUTES: readonly (readonly [prefix: string, app: ServiceApp])[] = [
  ['/v1/events/', 'ingest-gateway'],
  ['/v1/findings', 'findings-api'],
  ['/v1/alerts', 'findings-api'],
  ['/v1/account/', 'account'],
  ['/admin/', 'account'],
  ['/v1/ae/', 'rules'],
  ['/v1/detections', 'rules'],
];

export function serviceForPath(pathAndQuery: string): ServiceApp {
  const pathname = pathAndQuery.split('?')[0];
  for (const [prefix, app] of ROUTES) {
    if (pathname === prefix.replace(/\/$/, '') || pathname.startsWith(prefix)) return app;
  }
  throw new Error(`no service serves ${pathname}`);
}
