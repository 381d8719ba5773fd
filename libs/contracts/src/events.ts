/** The five telemetry event types accepted on POST /v1/events/{type}. */
export const TELEMETRY_TYPES = ['dns', 'ip', 'tls', 'http', 'lease'] as const;
export type TelemetryType = (typeof TELEMETRY_TYPES)[number];

export function isTelemetryType(value: string): value is TelemetryType {
  return (TELEMETRY_TYPES as readonly string[]).includes(value);
}

/** Header fields common to every event, after normalisation (canonical field names, RFC 3339 UTC `ts`). */
export interface EventHeader {
  ts: string;
  srcIP?: string;
  srcPort?: number;
  srcHost?: string;
  srcMac?: string;
  srcUser?: string;
  srcID?: string;
}

export interface DnsEvent extends EventHeader {
  query: string;
  qtype?: string;
}

export interface IpEvent extends EventHeader {
  destIP?: string;
  destPort?: number;
  proto?: string;
  bytesIn?: number;
  bytesOut?: number;
  packetsIn?: number;
  packetsOut?: number;
  app?: string;
  action?: string;
  duration?: number;
}

export interface HttpEvent extends EventHeader {
  url: string;
  method?: string;
  status?: number;
  app?: string;
  action?: string;
  bytesIn?: number;
  bytesOut?: number;
  contentType?: string;
  referrer?: string;
  userAgent?: string;
}

export interface TlsEvent extends EventHeader {
  certHash?: string;
  issuer?: string;
  subject?: string;
  validFrom?: string;
  validTo?: string;
  destIP?: string;
  destPort?: number;
  ja3?: string;
  ja3s?: string;
}

export interface LeaseEvent extends EventHeader {
  type?: string;
  termination?: boolean;
  duration?: number;
}

export interface TelemetryEventByType {
  dns: DnsEvent;
  ip: IpEvent;
  tls: TlsEvent;
  http: HttpEvent;
  lease: LeaseEvent;
}

export type TelemetryEvent = DnsEvent | IpEvent | TlsEvent | HttpEvent | LeaseEvent;
