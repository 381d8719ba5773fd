import { ZEEK_PATHS } from './zeek/zeek-record';

/** The log formats `vigil import` reads (`--format NAME`). */
export const LOG_FORMATS = [
  ...ZEEK_PATHS.map((path) => `zeek-${path}` as const),
  'suricata-eve',
  'route53-resolver',
  'gcp-cloud-dns',
  'bind-query',
] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export function isLogFormat(value: string): value is LogFormat {
  return (LOG_FORMATS as readonly string[]).includes(value);
}

export const LOG_FORMAT_DESCRIPTIONS: Readonly<Record<LogFormat, string>> = {
  'zeek-conn': 'Zeek conn.log (TSV or JSON) → ip events',
  'zeek-dns': 'Zeek dns.log (TSV or JSON) → dns events',
  'zeek-http': 'Zeek http.log (TSV or JSON) → http events',
  'zeek-ssl': 'Zeek ssl.log (TSV or JSON) → tls events, certificate fields joined from x509.log',
  'zeek-x509': 'Zeek x509.log (TSV or JSON): certificates for ssl.log; no events of its own',
  'zeek-dhcp': 'Zeek dhcp.log (TSV or JSON) → lease events',
  'suricata-eve': 'Suricata EVE JSON (dns, flow, http, tls, dhcp records) → dns, ip, http, tls, lease events',
  'route53-resolver': 'Amazon Route 53 Resolver query logs (JSON) → dns events',
  'gcp-cloud-dns': 'Google Cloud DNS query logs (Cloud Logging JSON entries) → dns events',
  'bind-query': 'BIND 9 query log lines → dns events',
};
