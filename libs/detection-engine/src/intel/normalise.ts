import { isIP } from 'node:net';
import type { IndicatorKind } from './indicator';

/**
 * Canonical forms shared by list loading and event lookups, so that an indicator and the event field it
 * should match always meet in the same spelling.
 */

const DOMAIN = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*$/;
const HEX_HASH = /^(?:[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64})$/;

/** Lower-case host name without leading/trailing dots, or undefined when it is not a valid name. */
export function normaliseDomain(name: string): string | undefined {
  const domain = name.trim().toLowerCase().replace(/^\.+|\.+$/g, '');
  // DOMAIN has no ':', so of the addresses only a dotted quad can match it.
  return DOMAIN.test(domain) && ipv4ToNumber(domain) === undefined ? domain : undefined;
}

let lastText = '';
let lastNumber: number | undefined = undefined;

/**
 * IPv4 dotted quad to an unsigned 32-bit number, or undefined (also for an octet with a leading zero, which
 * node:net does not take for an address either). A character loop: this runs for every event, several times
 * for the same address (public or not, then each intel lookup), so the latest answer is kept.
 */
export function ipv4ToNumber(ip: string): number | undefined {
  if (ip !== lastText) {
    lastNumber = parseIpv4(ip);
    lastText = ip;
  }
  return lastNumber;
}

function parseIpv4(ip: string): number | undefined {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digits > 0 && octet === 0) return undefined;
      octet = octet * 10 + (c - 48);
      if (++digits > 3 || octet > 255) return undefined;
    } else if (c === 46 && digits > 0 && dots < 3) {
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
    } else {
      return undefined;
    }
  }
  return dots === 3 && digits > 0 ? value * 256 + octet : undefined;
}

/** IPv6 address to 32 lower-case hex digits (no separators), or undefined. Handles `::` and an embedded IPv4 tail. */
export function ipv6ToHex(ip: string): string | undefined {
  let address = ip.trim().toLowerCase();
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  if (isIP(address) !== 6) return undefined;
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = ipv4ToNumber(tail);
    if (v4 === undefined) return undefined;
    address = `${address.slice(0, lastColon + 1)}${(v4 >>> 16).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const halves = address.split('::');
  const head = halves[0] === '' ? [] : halves[0].split(':');
  const rest = halves.length > 1 && halves[1] !== '' ? halves[1].split(':') : [];
  const missing = 8 - head.length - rest.length;
  const groups = halves.length > 1 ? [...head, ...Array<string>(missing).fill('0'), ...rest] : head;
  if (groups.length !== 8) return undefined;
  return groups.map((g) => g.padStart(4, '0')).join('');
}

/** A parsed IP address: v4 as a number, v6 as 32 hex digits. */
export type ParsedIp = { v: 4; value: number } | { v: 6; value: string };

export function parseIp(ip: string): ParsedIp | undefined {
  if (typeof ip !== 'string') return undefined;
  const trimmed = ip.trim();
  const unbracketed = trimmed.startsWith('[') && trimmed.endsWith(']') ? trimmed.slice(1, -1) : trimmed;
  const v4 = ipv4ToNumber(unbracketed);
  if (v4 !== undefined) return { v: 4, value: v4 };
  const v6 = ipv6ToHex(unbracketed);
  if (v6 === undefined) return undefined;
  // IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4 host.
  if (v6.startsWith('00000000000000000000ffff')) return { v: 4, value: parseInt(v6.slice(24), 16) };
  return { v: 6, value: v6 };
}

/** Canonical text of an IP: dotted quad, or the 32-hex-digit form for IPv6. */
export function canonicalIp(ip: string): string | undefined {
  // A plain dotted quad (ipv4ToNumber refuses leading zeros and spaces) is already canonical: most addresses are.
  if (ipv4ToNumber(ip) !== undefined) return ip;
  const parsed = parseIp(ip);
  if (parsed === undefined) return undefined;
  return parsed.v === 4 ? numberToIpv4(parsed.value) : parsed.value;
}

export function numberToIpv4(value: number): string {
  return `${value >>> 24}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

export interface ParsedCidr {
  v: 4 | 6;
  prefix: number;
  /** v4: network number; v6: the network's leading bits as a bit-prefix key (see {@link ipv6PrefixKey}). */
  key: number | string;
}

/** Network key of an IPv4 number under a prefix length. */
export function ipv4PrefixKey(value: number, prefix: number): number {
  if (prefix === 0) return 0;
  return (value & (0xffffffff << (32 - prefix))) >>> 0;
}

/** The first `prefix` bits of a 32-hex-digit IPv6 address, as hex digits plus the masked partial digit. */
export function ipv6PrefixKey(hex: string, prefix: number): string {
  const full = prefix >> 2;
  const bits = prefix & 3;
  if (bits === 0) return hex.slice(0, full);
  const partial = parseInt(hex[full], 16) & (0xf << (4 - bits)) & 0xf;
  return hex.slice(0, full) + partial.toString(16);
}

export function parseCidr(cidr: string): ParsedCidr | undefined {
  const slash = cidr.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIp(cidr.slice(0, slash));
  const prefixText = cidr.slice(slash + 1).trim();
  if (ip === undefined || !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = Number(prefixText);
  if (ip.v === 4) return prefix > 32 ? undefined : { v: 4, prefix, key: ipv4PrefixKey(ip.value, prefix) };
  return prefix > 128 ? undefined : { v: 6, prefix, key: ipv6PrefixKey(ip.value, prefix) };
}

/** `a.b.c.d:port` or `[v6]:port` → canonical `ip|port`, or undefined. */
export function normaliseIpPort(value: string): string | undefined {
  const trimmed = value.trim();
  const colon = trimmed.lastIndexOf(':');
  if (colon < 0) return undefined;
  const host = trimmed.slice(0, colon);
  const portText = trimmed.slice(colon + 1);
  if (!/^\d{1,5}$/.test(portText)) return undefined;
  const port = Number(portText);
  if (port < 1 || port > 65535) return undefined;
  if (!host.startsWith('[') && host.includes(':')) return undefined;
  const ip = canonicalIp(host);
  return ip === undefined ? undefined : ipPortKey(ip, port);
}

export function ipPortKey(canonicalIpText: string, port: number): string {
  return `${canonicalIpText}|${port}`;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443' };

/**
 * A URL indicator or an HTTP event's URL as `host[:port]` plus path (query and fragment dropped; scheme
 * and default port dropped; host lower-case, path case kept). A path alone (`/gate.php`) has host ''.
 */
export interface NormalisedUrl {
  host: string;
  path: string;
}

export function normaliseUrl(url: string): NormalisedUrl | undefined {
  if (typeof url !== 'string') return undefined;
  let rest = url.trim();
  if (rest.length === 0 || /\s/.test(rest)) return undefined;
  if (rest.startsWith('/') && !rest.startsWith('//')) return { host: '', path: stripQuery(rest) };
  let scheme = 'http';
  const schemeMatch = /^([a-z][a-z0-9+.-]*):\/\//i.exec(rest);
  if (schemeMatch) {
    scheme = schemeMatch[1].toLowerCase();
    rest = rest.slice(schemeMatch[0].length);
  } else if (rest.startsWith('//')) {
    rest = rest.slice(2);
  }
  const slash = rest.search(/[/?#]/);
  let authority = slash < 0 ? rest : rest.slice(0, slash);
  const path = slash < 0 ? '' : stripQuery(rest.slice(slash));
  const at = authority.lastIndexOf('@');
  if (at >= 0) authority = authority.slice(at + 1);
  let host = authority.toLowerCase();
  let port = '';
  const portMatch = /:(\d{1,5})$/.exec(host);
  if (portMatch) {
    port = portMatch[1];
    host = host.slice(0, -portMatch[0].length);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  const ip = canonicalIp(host);
  if (ip === undefined && normaliseDomain(host) === undefined) return undefined;
  const hostKey = ip ?? host;
  const portPart = port === '' || port === DEFAULT_PORTS[scheme] ? '' : `:${Number(port)}`;
  return { host: hostKey + portPart, path: path === '/' ? '' : path };
}

/**
 * The path {@link normaliseUrl} gives `url` when it gives one: found by one scan, without checking the host (the
 * costly part), so that a URL whose path no indicator has is ruled out cheaply.
 */
export function normalisedUrlPath(url: string): string | undefined {
  if (typeof url !== 'string') return undefined;
  const rest = url.trim();
  if (rest.length === 0 || /\s/.test(rest)) return undefined;
  if (rest.charCodeAt(0) === SLASH && rest.charCodeAt(1) !== SLASH) return stripQuery(rest);
  let start = authorityStart(rest);
  for (; start < rest.length; start++) {
    const c = rest.charCodeAt(start);
    if (c === SLASH) break;
    if (c === QUESTION || c === HASH) return '';
  }
  let end = start;
  while (end < rest.length && rest.charCodeAt(end) !== QUESTION && rest.charCodeAt(end) !== HASH) end++;
  return end - start <= 1 ? '' : rest.slice(start, end);
}

const SLASH = 0x2f;
const QUESTION = 0x3f;
const HASH = 0x23;

/** Where the authority begins: after `scheme://`, after a leading `//`, else at 0 (as {@link normaliseUrl} reads it). */
function authorityStart(url: string): number {
  const first = url.charCodeAt(0) | 0x20;
  if (first >= 0x61 && first <= 0x7a) {
    let at = 1;
    while (at < url.length && isSchemeCharacter(url.charCodeAt(at))) at++;
    if (url.startsWith('://', at)) return at + 3;
  }
  return url.startsWith('//') ? 2 : 0;
}

function isSchemeCharacter(c: number): boolean {
  const lower = c | 0x20;
  return (lower >= 0x61 && lower <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2e || c === 0x2d;
}

function stripQuery(path: string): string {
  const cut = path.search(/[?#]/);
  const bare = cut < 0 ? path : path.slice(0, cut);
  return bare.startsWith('/') ? bare : `/${bare}`;
}

/** Lower-case hex digest without separators (`AB:CD:..` → `abcd..`), or undefined unless MD5/SHA-1/SHA-256. */
export function normaliseHash(hash: string): string | undefined {
  if (typeof hash !== 'string') return undefined;
  if (isLowerHexDigest(hash)) return hash;
  const hex = hash.trim().toLowerCase().replace(/[:\s]/g, '');
  return HEX_HASH.test(hex) ? hex : undefined;
}

/** JA3/JA3S fingerprints are MD5 digests. */
export function normaliseJa3(hash: string): string | undefined {
  const hex = normaliseHash(hash);
  return hex !== undefined && hex.length === 32 ? hex : undefined;
}

/** Already in normal form, as sensors mostly send digests: checked without regular expressions or copies. */
function isLowerHexDigest(value: string): boolean {
  if (value.length !== 32 && value.length !== 40 && value.length !== 64) return false;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

/** Guesses the kind of a list entry; hashes are ambiguous (JA3 vs certificate) and must be declared. */
export function detectKind(value: string): Exclude<IndicatorKind, 'ja3' | 'ja3s' | 'cert'> | undefined {
  const v = value.trim();
  if (v.length === 0) return undefined;
  if (v.includes('/')) {
    if (parseCidr(v) !== undefined) return 'cidr';
    return normaliseUrl(v) !== undefined ? 'url' : undefined;
  }
  if (parseIp(v) !== undefined) return 'ip';
  if (normaliseIpPort(v) !== undefined) return 'ip_port';
  if (normaliseDomain(v) !== undefined) return 'domain';
  return undefined;
}
