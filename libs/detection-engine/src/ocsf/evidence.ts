import type { DnsEvent, HttpEvent, Wisdom } from '@vigil/contracts';
import type { EvidenceEvent, ObservedEvent } from '../detections/detection';

/** OCSF `network_endpoint` subset used for source/destination endpoints. */
export interface OcsfEndpoint {
  ip?: string;
  port?: number;
  hostname?: string;
}

/** One OCSF evidence artifact: the source event in `data`, plus the OCSF objects that describe it. */
export interface OcsfEvidence {
  data: {
    type: string;
    ts: string;
    srcIP?: string;
    srcPort?: number;
    srcHost?: string;
    body: Record<string, unknown>;
    wisdom: Wisdom;
  };
  query?: { hostname: string; type?: string };
  src_endpoint?: OcsfEndpoint;
  dst_endpoint?: OcsfEndpoint;
}

function validPort(port: unknown): number | undefined {
  return typeof port === 'number' && Number.isInteger(port) && port >= 0 && port <= 65535 ? port : undefined;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The event's own host name, else its DHCP lease's (the engine names the endpoint, not every event). */
function sourceHostOf(observed: ObservedEvent): string | undefined {
  return nonEmpty(observed.event.srcHost) ?? nonEmpty(observed.endpoint.host);
}

function sourceEndpoint(observed: ObservedEvent): OcsfEndpoint | undefined {
  const endpoint: OcsfEndpoint = {};
  const ip = nonEmpty(observed.event.srcIP);
  const port = validPort(observed.event.srcPort);
  const host = sourceHostOf(observed);
  if (ip !== undefined) endpoint.ip = ip;
  if (port !== undefined) endpoint.port = port;
  if (host !== undefined) endpoint.hostname = host;
  // OCSF needs an identifying field (ip or hostname); a port alone does not make an endpoint.
  return endpoint.ip !== undefined || endpoint.hostname !== undefined ? endpoint : undefined;
}

function dnsBody(event: DnsEvent, fqdn: string): Record<string, unknown> {
  const body: Record<string, unknown> = { fqdn };
  const qtype = nonEmpty(event.qtype);
  if (qtype !== undefined) body.qtype = qtype;
  return body;
}

function httpBody(event: HttpEvent, host: string | undefined): Record<string, unknown> {
  const body: Record<string, unknown> = { url: event.url };
  if (host !== undefined) body.host = host;
  for (const field of ['method', 'contentType', 'referrer', 'userAgent', 'app', 'action'] as const) {
    const value = nonEmpty(event[field]);
    if (value !== undefined) body[field] = value;
  }
  for (const field of ['status', 'bytesIn', 'bytesOut'] as const) {
    const value = event[field];
    if (typeof value === 'number' && Number.isFinite(value)) body[field] = value;
  }
  return body;
}

/** Shapes a DNS or HTTP source event as an OCSF evidence artifact. */
export function buildEvidence({ event: observed, wisdom }: EvidenceEvent): OcsfEvidence {
  const { event } = observed;
  const data: OcsfEvidence['data'] = {
    type: observed.type,
    ts: typeof event.ts === 'string' ? event.ts : new Date(observed.timeMs).toISOString(),
    body: {},
    wisdom,
  };
  const srcIP = nonEmpty(event.srcIP);
  const srcPort = validPort(event.srcPort);
  const srcHost = sourceHostOf(observed);
  if (srcIP !== undefined) data.srcIP = srcIP;
  if (srcPort !== undefined) data.srcPort = srcPort;
  if (srcHost !== undefined) data.srcHost = srcHost;

  const evidence: OcsfEvidence = { data };
  const src = sourceEndpoint(observed);
  if (src !== undefined) evidence.src_endpoint = src;

  if (observed.type === 'dns') {
    const dns = event as DnsEvent;
    const fqdn = observed.rawHostname ?? String(dns.query ?? '');
    data.body = dnsBody(dns, fqdn);
    if (fqdn.length > 0) {
      evidence.query = { hostname: fqdn };
      const qtype = nonEmpty(dns.qtype);
      if (qtype !== undefined) evidence.query.type = qtype;
    }
  } else if (observed.type === 'http') {
    data.body = httpBody(event as HttpEvent, observed.hostname);
    if (observed.hostname !== undefined) evidence.dst_endpoint = { hostname: observed.hostname };
  }
  return evidence;
}
