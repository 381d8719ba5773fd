import type { DnsEvent, HttpEvent, IpEvent, LeaseEvent, TlsEvent } from '@vigil/contracts';
import { POPULAR_DOMAINS } from './popular-domains';
import { createRng, type Rng } from './prng';

/**
 * Deterministic telemetry generators: the same arguments always give the same events. Events are shaped like
 * what sensors send on POST /v1/events/{type} (canonical field names, RFC 3339 UTC timestamps, ascending `ts`).
 */

export interface TimelineOptions {
  /** Seed of the generator; the same seed gives the same events. Default 1. */
  seed?: number | string;
  /** Timestamp of the first event. Default 2024-06-10T06:00:00Z. */
  startTs?: Date | number | string;
  /** Mean gap between consecutive events, in milliseconds. Default 50. */
  intervalMs?: number;
}

export interface NetworkOptions extends TimelineOptions {
  /** Number of internal hosts producing the traffic. Default 25. */
  hosts?: number;
  /** First two octets of the internal addresses (`10.20` → 10.20.x.y). Default `10.20`. */
  subnet?: string;
  /**
   * The network's DNS resolvers: hosts send DNS only to them, and they forward to public upstreams. Pass the
   * same list to the engine as `configuredResolvers`. Default {@link networkResolvers} (`<subnet>.0.2`, `.0.3`).
   */
  resolvers?: readonly string[];
}

export interface TunnelDnsOptions {
  /** Registered domain the tunnel runs under, e.g. `t.example-tunnel.net`. */
  domain: string;
  srcIP: string;
  startTs: Date | number | string;
  /** Exact gap between consecutive queries, in milliseconds. */
  intervalMs: number;
  seed?: number | string;
  /** Alphabet of the encoded labels. Default `base32`. */
  encoding?: 'base32' | 'hex';
  srcHost?: string;
}

export interface OastDnsOptions extends TimelineOptions {
  srcIP?: string;
  srcHost?: string;
  /** OAST callback domains to use. Default {@link OAST_DOMAINS}. */
  domains?: readonly string[];
}

/** Public out-of-band application security testing (OAST) callback domains. */
export const OAST_DOMAINS: readonly string[] = [
  'oast.fun', 'oast.pro', 'oast.live', 'oast.site', 'oast.online', 'oast.me', 'interact.sh',
  'oastify.com', 'burpcollaborator.net', 'dnslog.cn', 'ceye.io',
];

const DEFAULT_START = Date.parse('2024-06-10T06:00:00Z');
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const HEX = '0123456789abcdef';
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const MAX_QUERY_LENGTH = 253;

const SUBDOMAINS: readonly (readonly [string, number])[] = [
  ['', 30], ['www', 30], ['api', 8], ['cdn', 6], ['static', 4], ['img', 3], ['mail', 3], ['login', 3], ['m', 2],
  ['accounts', 2], ['assets', 2], ['media', 2], ['update', 2], ['edge', 1], ['apps', 1], ['docs', 1], ['auth', 1],
  ['s3', 1], ['clients', 1], ['telemetry', 1],
];

const DNS_QTYPES: readonly (readonly [string, number])[] = [
  ['A', 60], ['AAAA', 28], ['HTTPS', 6], ['CNAME', 2], ['MX', 1], ['TXT', 1], ['PTR', 1], ['SRV', 1],
];

/**
 * Networks of large first-party services and CDN edges (Google, Fastly, Cloudflare, Microsoft 365, Facebook,
 * Apple, Akamai, GitHub, CloudFront), as published by their operators: destinations of benign traffic. Not
 * whole /16s and not rentable cloud compute, whose addresses can be anyone's server, C2 included.
 */
export const SERVICE_NETWORKS: readonly string[] = [
  '142.250.0.0/15', '172.217.0.0/16', '216.58.192.0/19', '151.101.0.0/16', '104.16.0.0/13', '13.107.0.0/16',
  '52.96.0.0/14', '20.190.128.0/18', '40.126.0.0/18', '31.13.64.0/18', '157.240.0.0/16', '17.253.0.0/16',
  '23.32.0.0/11', '185.199.108.0/22', '199.232.0.0/16', '54.230.0.0/16',
];
/** Upstreams the network's own resolvers forward to. */
const UPSTREAM_RESOLVERS: readonly string[] = ['8.8.8.8', '8.8.4.4', '1.1.1.1', '1.0.0.1', '9.9.9.9'];
/** Share of port-53 flows that are a resolver forwarding upstream rather than a host asking its resolver. */
const UPSTREAM_SHARE = 0.2;

/**
 * Sites whose generic subdomains would name a different service: `api.telegram.org` is the Telegram Bot API,
 * which people's Telegram apps do not use (they speak MTProto to Telegram's addresses), so browsing traffic
 * draws the hosts people actually reach.
 */
const SITE_SUBDOMAINS: Readonly<Record<string, readonly (readonly [string, number])[]>> = {
  'telegram.org': [['', 4], ['www', 2], ['web', 3], ['core', 1], ['desktop', 1], ['updates', 1]],
  'cloudflare-dns.com': [['', 3], ['mozilla', 2], ['chrome', 2]],
};

/**
 * DNS-over-HTTPS resolver zones among the popular domains. Browsers look them up while probing for DoH, but a
 * network whose hosts use its configured resolvers (and answers the canary) opens no sessions to them.
 */
const DOH_RESOLVER_DOMAINS: ReadonlySet<string> = new Set(['cloudflare-dns.com']);
/** Firefox's DoH canary: looked up by every Firefox to learn whether the network wants DoH off. */
const DOH_CANARY = 'use-application-dns.net';
const DOH_CANARY_SHARE = 0.005;

interface Service {
  port: number;
  proto: 'tcp' | 'udp';
  app: string;
}
const IP_SERVICES: readonly (readonly [Service, number])[] = [
  [{ port: 443, proto: 'tcp', app: 'https' }, 55],
  [{ port: 80, proto: 'tcp', app: 'http' }, 10],
  [{ port: 53, proto: 'udp', app: 'dns' }, 15],
  [{ port: 443, proto: 'udp', app: 'quic' }, 8],
  [{ port: 123, proto: 'udp', app: 'ntp' }, 4],
  [{ port: 993, proto: 'tcp', app: 'imaps' }, 3],
  [{ port: 5223, proto: 'tcp', app: 'apns' }, 3],
  [{ port: 22, proto: 'tcp', app: 'ssh' }, 2],
];

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

const CERT_ISSUERS: readonly string[] = [
  "CN=R3,O=Let's Encrypt,C=US",
  "CN=R11,O=Let's Encrypt,C=US",
  'CN=GTS CA 1C3,O=Google Trust Services LLC,C=US',
  'CN=DigiCert Global G2 TLS RSA SHA256 2020 CA1,O=DigiCert Inc,C=US',
  'CN=Amazon RSA 2048 M02,O=Amazon,C=US',
  'CN=Microsoft Azure RSA TLS Issuing CA 04,O=Microsoft Corporation,C=US',
  'CN=Sectigo RSA Domain Validation Secure Server CA,O=Sectigo Limited,L=Salford,ST=Greater Manchester,C=GB',
];

/** Client hello fingerprints of a handful of common TLS stacks (made-up values of the right form). */
const JA3_CLIENTS: readonly string[] = [
  'cd08e31494f9531f560d64c695473da9',
  'b32309a26951912be7dba376398abc3b',
  '579ccef312d18482fc42e2b822ca2430',
  '3b5074b1b5d032e5620f69f9f700ff0e',
  '9e10692f1b7f78228b2d4e424db3a98c',
];
const JA3S_SERVERS: readonly string[] = [
  'f4febc55ea12b31ae17cfb7e614afda8',
  'eb1d94daa7e0344597e756a1fb6e7054',
  '15af977ce25de452b96affa2addb1036',
];

const DAY_MS = 86_400_000;

function checkCount(n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`event count must be a non-negative integer, got ${n}`);
}

function toEpochMs(value: Date | number | string | undefined, name: string): number {
  if (value === undefined) return DEFAULT_START;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`${name} is not a valid time: ${String(value)}`);
  return ms;
}

function checkInterval(intervalMs: number | undefined, fallback: number): number {
  const value = intervalMs ?? fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`intervalMs must be a non-negative number, got ${value}`);
  return value;
}

/** Random gaps with the given mean, so that timestamps ascend like real traffic does. */
function timeline(rng: Rng, opts: TimelineOptions): () => string {
  let t = toEpochMs(opts.startTs, 'startTs');
  const mean = checkInterval(opts.intervalMs, 50);
  let first = true;
  return () => {
    if (!first) t += Math.round(rng.exponential(mean));
    first = false;
    return new Date(t).toISOString();
  };
}

interface Host {
  ip: string;
  name: string;
  mac: string;
}

function hostPool(opts: NetworkOptions): Host[] {
  const count = opts.hosts ?? 25;
  if (!Number.isInteger(count) || count < 1 || count > 60_000) {
    throw new RangeError(`hosts must be an integer between 1 and 60000, got ${count}`);
  }
  const subnet = opts.subnet ?? '10.20';
  if (!/^\d{1,3}\.\d{1,3}$/.test(subnet) || subnet.split('.').some((o) => Number(o) > 255)) {
    throw new RangeError(`subnet must be two octets such as "10.20", got "${subnet}"`);
  }
  return Array.from({ length: count }, (_, i) => {
    const third = Math.floor(i / 240);
    const fourth = (i % 240) + 10;
    const hex = (v: number) => v.toString(16).padStart(2, '0');
    return {
      ip: `${subnet}.${third}.${fourth}`,
      name: `ws-${String(i + 1).padStart(3, '0')}`,
      mac: `02:00:00:${hex(third)}:${hex(fourth)}:${hex((i * 7) & 0xff)}`,
    };
  });
}

/** Skews picks towards the start of the list, as traffic concentrates on the most popular sites. */
function popularDomain(rng: Rng): string {
  return POPULAR_DOMAINS[Math.floor(Math.pow(rng.next(), 2.5) * POPULAR_DOMAINS.length)];
}

function hostnameOf(rng: Rng, domain: string): string {
  const sub = rng.weighted(SITE_SUBDOMAINS[domain] ?? SUBDOMAINS);
  return sub ? `${sub}.${domain}` : domain;
}

function popularHostname(rng: Rng): string {
  return hostnameOf(rng, popularDomain(rng));
}

/** A popular host a browser or app opens a session (HTTP, TLS) with. */
function sessionHostname(rng: Rng): string {
  let domain = popularDomain(rng);
  while (DOH_RESOLVER_DOMAINS.has(domain)) domain = popularDomain(rng);
  return hostnameOf(rng, domain);
}

function ephemeralPort(rng: Rng): number {
  return rng.int(49152, 65535);
}

/** A host address inside one of {@link SERVICE_NETWORKS} (never the network or broadcast address). */
function serviceAddress(rng: Rng): string {
  const [base, bits] = rng.pick(SERVICE_NETWORKS).split('/');
  const size = 2 ** (32 - Number(bits));
  const start = base.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
  const value = start + rng.int(1, size - 2);
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** The resolvers the generated hosts use: `opts.resolvers`, or `<subnet>.0.2` and `<subnet>.0.3`. */
export function networkResolvers(opts: NetworkOptions = {}): string[] {
  if (opts.resolvers !== undefined) {
    if (opts.resolvers.length === 0) throw new RangeError('resolvers must not be empty');
    for (const ip of opts.resolvers) {
      if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) throw new RangeError(`each of resolvers must be an IPv4 address, got "${ip}"`);
    }
    return [...opts.resolvers];
  }
  const subnet = opts.subnet ?? '10.20';
  return [`${subnet}.0.2`, `${subnet}.0.3`];
}

function seeded(kind: string, seed: number | string | undefined): Rng {
  return createRng(`${kind}:${seed ?? 1}`);
}

/**
 * Ordinary lookups of popular sites (with www/api/cdn/... subdomains) by a pool of internal hosts, and now and
 * then Firefox's DoH canary.
 */
export function benignDnsEvents(n: number, opts: NetworkOptions = {}): DnsEvent[] {
  checkCount(n);
  const rng = seeded('dns-benign', opts.seed);
  const hosts = hostPool(opts);
  const nextTs = timeline(rng, opts);
  return Array.from({ length: n }, () => {
    const host = rng.pick(hosts);
    return {
      ts: nextTs(),
      srcIP: host.ip,
      srcPort: ephemeralPort(rng),
      srcHost: host.name,
      query: rng.chance(DOH_CANARY_SHARE) ? DOH_CANARY : popularHostname(rng),
      qtype: rng.weighted(DNS_QTYPES),
    };
  });
}

/** Splits `payload` into DNS labels of at most 63 characters. */
function toLabels(rng: Rng, payload: string): string[] {
  const labels: string[] = [];
  for (let i = 0; i < payload.length; ) {
    const size = Math.min(rng.int(48, 63), payload.length - i);
    labels.push(payload.slice(i, i + size));
    i += size;
  }
  return labels;
}

function checkDomain(domain: string, name: string): void {
  if (!/^(?=.{3,200}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/.test(domain)) {
    throw new RangeError(`${name} must be a lower-case DNS name such as "tunnel.example", got "${domain}"`);
  }
}

/**
 * A DNS tunnel: one host querying long encoded labels (base32 or hex) under one domain at a fixed rate.
 * Each query carries about 100–200 characters of encoded payload and stays within 253 characters.
 */
export function tunnelDnsEvents(n: number, opts: TunnelDnsOptions): DnsEvent[] {
  checkCount(n);
  checkDomain(opts.domain, 'domain');
  const rng = seeded(`dns-tunnel:${opts.domain}`, opts.seed);
  const start = toEpochMs(opts.startTs, 'startTs');
  const interval = checkInterval(opts.intervalMs, 0);
  const alphabet = (opts.encoding ?? 'base32') === 'hex' ? HEX : BASE32;
  // Room for the payload: the whole name minus the domain, with one dot per label (at most 4 labels).
  const budget = MAX_QUERY_LENGTH - opts.domain.length - 4;
  if (budget < 40) throw new RangeError(`domain "${opts.domain}" is too long to carry tunnel labels`);
  return Array.from({ length: n }, (_, i) => {
    const payload = rng.string(alphabet, rng.int(Math.min(100, budget), Math.min(200, budget)));
    const event: DnsEvent = {
      ts: new Date(start + i * interval).toISOString(),
      srcIP: opts.srcIP,
      srcPort: ephemeralPort(rng),
      query: `${toLabels(rng, payload).join('.')}.${opts.domain}`,
      qtype: rng.weighted([['TXT', 6], ['CNAME', 2], ['NULL', 1], ['MX', 1]] as const),
    };
    if (opts.srcHost) event.srcHost = opts.srcHost;
    return event;
  });
}

const OAST_EXFIL_LABELS: readonly string[] = ['root', 'www-data', 'admin', 'ubuntu', 'jndi', 'ec2-user', 'test'];

/** Callback id of the form each OAST service hands out. */
function oastId(rng: Rng, domain: string): string {
  if (domain === 'oastify.com' || domain === 'burpcollaborator.net') return rng.string(ALNUM, 30);
  if (domain === 'dnslog.cn' || domain === 'ceye.io') return rng.string(ALNUM, 6);
  // interactsh: a 20-character xid (base32hex) followed by a 13-character nonce.
  return rng.string('0123456789abcdefghijklmnopqrstuv', 20) + rng.string(ALNUM, 13);
}

/** Lookups of out-of-band testing callback domains, sometimes with exfiltrated data as the first label. */
export function oastDnsEvents(n: number, opts: OastDnsOptions = {}): DnsEvent[] {
  checkCount(n);
  const domains = opts.domains ?? OAST_DOMAINS;
  if (domains.length === 0) throw new RangeError('domains must not be empty');
  domains.forEach((d) => checkDomain(d, 'each of domains'));
  const rng = seeded('dns-oast', opts.seed);
  const nextTs = timeline(rng, { ...opts, intervalMs: opts.intervalMs ?? 60_000 });
  const srcIP = opts.srcIP ?? '10.20.0.99';
  return Array.from({ length: n }, () => {
    const domain = rng.pick(domains);
    const id = oastId(rng, domain);
    const prefix = rng.chance(0.3) ? `${rng.pick(OAST_EXFIL_LABELS)}.` : '';
    const event: DnsEvent = {
      ts: nextTs(),
      srcIP,
      srcPort: ephemeralPort(rng),
      query: `${prefix}${id}.${domain}`,
      qtype: rng.weighted([['A', 7], ['AAAA', 2], ['TXT', 1]] as const),
    };
    if (opts.srcHost) event.srcHost = opts.srcHost;
    return event;
  });
}

/**
 * Connections from internal hosts to public services (HTTPS, QUIC, NTP, ...) and DNS the way a managed network
 * does it: hosts ask the network's resolvers ({@link networkResolvers}), which forward to public upstreams.
 */
export function ipEvents(n: number, opts: NetworkOptions = {}): IpEvent[] {
  checkCount(n);
  const rng = seeded('ip', opts.seed);
  const hosts = hostPool(opts);
  const resolvers = networkResolvers(opts);
  const resolverHosts: Host[] = resolvers.map((ip, i) => ({ ip, name: `dns-${i + 1}`, mac: '' }));
  const nextTs = timeline(rng, opts);
  return Array.from({ length: n }, () => {
    const service = rng.weighted(IP_SERVICES);
    const forwarding = service.port === 53 && rng.chance(UPSTREAM_SHARE);
    const host = forwarding ? rng.pick(resolverHosts) : rng.pick(hosts);
    const bytesOut = Math.round(rng.exponential(2_000)) + 60;
    const bytesIn = Math.round(rng.exponential(40_000)) + 60;
    return {
      ts: nextTs(),
      srcIP: host.ip,
      srcPort: ephemeralPort(rng),
      srcHost: host.name,
      destIP: service.port !== 53 ? serviceAddress(rng) : forwarding ? rng.pick(UPSTREAM_RESOLVERS) : rng.pick(resolvers),
      destPort: service.port,
      proto: service.proto,
      bytesIn,
      bytesOut,
      packetsIn: Math.ceil(bytesIn / 1_400),
      packetsOut: Math.ceil(bytesOut / 1_400),
      app: service.app,
      action: rng.chance(0.97) ? 'allowed' : 'denied',
      duration: Math.round(rng.exponential(8) * 1000) / 1000,
    };
  });
}

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

/** TLS handshakes with public services; the same hostname always presents the same certificate. */
export function tlsEvents(n: number, opts: NetworkOptions = {}): TlsEvent[] {
  checkCount(n);
  const rng = seeded('tls', opts.seed);
  const hosts = hostPool(opts);
  const nextTs = timeline(rng, opts);
  const start = toEpochMs(opts.startTs, 'startTs');
  return Array.from({ length: n }, () => {
    const host = rng.pick(hosts);
    const hostname = sessionHostname(rng);
    const commonName = hostname.split('.').length > 2 && rng.chance(0.5) ? `*.${hostname.split('.').slice(1).join('.')}` : hostname;
    // Certificate facts derive from the name alone, so repeated handshakes agree.
    const cert = createRng(`cert:${commonName}`);
    const validFrom = start - cert.int(1, 60) * DAY_MS;
    const lifetimeDays = cert.pick([90, 90, 365, 397]);
    return {
      ts: nextTs(),
      srcIP: host.ip,
      srcPort: ephemeralPort(rng),
      srcHost: host.name,
      certHash: cert.string(HEX, 40),
      issuer: cert.pick(CERT_ISSUERS),
      subject: `CN=${commonName}`,
      validFrom: new Date(validFrom).toISOString(),
      validTo: new Date(validFrom + lifetimeDays * DAY_MS).toISOString(),
      destIP: serviceAddress(rng),
      destPort: rng.weighted([[443, 95], [8443, 3], [993, 2]] as const),
      ja3: rng.pick(JA3_CLIENTS),
      ja3s: rng.pick(JA3S_SERVERS),
    };
  });
}

/** DHCP lease changes of the host pool; `srcIP` is the leased address, released and expired leases terminate. */
export function leaseEvents(n: number, opts: NetworkOptions = {}): LeaseEvent[] {
  checkCount(n);
  const rng = seeded('lease', opts.seed);
  const hosts = hostPool(opts);
  const nextTs = timeline(rng, { ...opts, intervalMs: opts.intervalMs ?? 30_000 });
  return Array.from({ length: n }, () => {
    const host = rng.pick(hosts);
    const type = rng.weighted([['assign', 3], ['renew', 5], ['release', 1], ['expire', 1]] as const);
    const event: LeaseEvent = {
      ts: nextTs(),
      srcIP: host.ip,
      srcMac: host.mac,
      srcHost: host.name,
      type,
      termination: type === 'release' || type === 'expire',
    };
    if (!event.termination) event.duration = rng.pick([86_400, 43_200, 3_600, 3_599.5]);
    return event;
  });
}

/**
 * Rewrites events the way real clients send them: older spellings (`srcIp`, `destIp`), timestamps with a
 * +02:00 offset and nanosecond digits (same instant, to the millisecond), and empty fields meaning "absent".
 * Ingest must read the result exactly like the input.
 */
export function withClientQuirks(events: readonly object[], seed: number | string = 1): Record<string, unknown>[] {
  const rng = createRng(`quirks:${seed}`);
  return events.map((source) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      if ((key === 'srcIP' || key === 'destIP') && rng.chance(0.5)) out[key.replace('IP', 'Ip')] = value;
      else if (key === 'ts' && typeof value === 'string' && rng.chance(0.5)) out.ts = withOffsetAndNanos(value, rng);
      else out[key] = value;
    }
    if (rng.chance(0.3)) out.srcUser = '';
    if (rng.chance(0.2)) out.srcID = '';
    return out;
  });
}

function withOffsetAndNanos(isoUtc: string, rng: Rng): string {
  const ms = Date.parse(isoUtc);
  const local = new Date(ms + 2 * 3_600_000).toISOString(); // wall clock at +02:00, printed with a Z
  return `${local.slice(0, 23)}${rng.string('0123456789', 6)}+02:00`;
}
