import type { TelemetryType } from '@vigil/contracts';
import type { SigmaLogsource } from '../types';

/** A logsource Vigil evaluates, and the event types that feed it. `product`/`service` undefined = any. */
interface Route {
  category?: string;
  product?: string;
  service?: string;
  eventTypes: TelemetryType[];
  /** Endpoint (Sysmon) categories: only rules restricted to network fields are accepted. */
  networkFieldsOnly?: boolean;
}

const ROUTES: Route[] = [
  { category: 'dns', eventTypes: ['dns'] },
  { category: 'dns_query', eventTypes: ['dns'], networkFieldsOnly: true },
  { category: 'network', service: 'dns', eventTypes: ['dns'] },
  { product: 'zeek', service: 'dns', eventTypes: ['dns'] },
  { category: 'firewall', eventTypes: ['ip'] },
  // Hostnames are rare on flows: DestinationHostname rules are evaluated on the events that carry one too.
  { category: 'network_connection', eventTypes: ['ip', 'dns', 'http'], networkFieldsOnly: true },
  { category: 'network', service: 'connection', eventTypes: ['ip'] },
  { product: 'zeek', service: 'conn', eventTypes: ['ip'] },
  { category: 'proxy', eventTypes: ['http'] },
  { category: 'webserver', eventTypes: ['http'] },
  { category: 'network', service: 'http', eventTypes: ['http'] },
  { product: 'zeek', service: 'http', eventTypes: ['http'] },
  { product: 'zeek', service: 'x509', eventTypes: ['tls'] },
  { product: 'zeek', service: 'ssl', eventTypes: ['tls'] },
  // Vigil's own taxonomy (README): TLS handshakes and DHCP leases have no SigmaHQ logsource.
  { category: 'tls', eventTypes: ['tls'] },
  { category: 'dhcp', eventTypes: ['lease'] },
  { product: 'vigil', service: 'dns', eventTypes: ['dns'] },
  { product: 'vigil', service: 'ip', eventTypes: ['ip'] },
  { product: 'vigil', service: 'http', eventTypes: ['http'] },
  { product: 'vigil', service: 'tls', eventTypes: ['tls'] },
  { product: 'vigil', service: 'lease', eventTypes: ['lease'] },
];

/** Human-readable list of supported logsources, for errors. */
export const SUPPORTED_LOGSOURCES =
  'category dns, dns_query, firewall, network_connection, proxy, webserver, tls, dhcp; ' +
  'category network with service dns, connection or http; product zeek with service dns, conn, http, x509 or ssl; ' +
  'product vigil with service dns, ip, http, tls or lease';

export interface Routing {
  eventTypes: TelemetryType[];
  networkFieldsOnly: boolean;
}

function describe(logsource: SigmaLogsource): string {
  const parts = (['category', 'product', 'service'] as const).filter((k) => logsource[k] !== undefined).map((k) => `${k}: ${logsource[k]}`);
  return parts.length ? parts.join(', ') : '(empty)';
}

/** The event types a logsource routes to, or an unsupported-logsource error naming what is supported. */
export function routeLogsource(logsource: SigmaLogsource): Routing | string {
  const lower = (v?: string) => v?.toLowerCase();
  const category = lower(logsource.category);
  const product = lower(logsource.product);
  const service = lower(logsource.service);
  for (const route of ROUTES) {
    if (route.category !== undefined && route.category !== category) continue;
    if (route.category === undefined && category !== undefined) continue;
    if (route.product !== undefined && route.product !== product) continue;
    if (route.service !== undefined && route.service !== service) continue;
    // A category route without a service constraint ignores the product (Sysmon `product: windows` rules) but not a service.
    if (route.service === undefined && service !== undefined) continue;
    return { eventTypes: route.eventTypes, networkFieldsOnly: route.networkFieldsOnly === true };
  }
  return `unsupported logsource (${describe(logsource)}): Vigil receives DNS, IP flow, HTTP, TLS and DHCP lease telemetry; supported logsources are ${SUPPORTED_LOGSOURCES}`;
}

/** Whether a filter's logsource applies to a rule's: every attribute the filter sets must be equal. */
export function logsourceCovers(filter: SigmaLogsource, rule: SigmaLogsource): boolean {
  return (['category', 'product', 'service'] as const).every(
    (k) => filter[k] === undefined || filter[k]?.toLowerCase() === rule[k]?.toLowerCase(),
  );
}
