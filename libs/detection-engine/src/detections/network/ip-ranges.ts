import { isIPv4, isIPv6 } from 'node:net';
import { ipv4ToNumber } from '../../intel/normalise';

/** An address as a 128-bit integer (IPv4 as its IPv4-mapped IPv6 form), so one range type serves both. */
export interface ParsedAddress {
  family: 4 | 6;
  value: bigint;
}

const V4_MAPPED_PREFIX = 0xffffn << 32n;
const V4_MAPPED_LAST = V4_MAPPED_PREFIX | 0xffffffffn;

function ipv4Value(ip: string): bigint {
  const [a, b, c, d] = ip.split('.').map(Number);
  return BigInt(((a << 24) >>> 0) + (b << 16) + (c << 8) + d);
}

function ipv6Value(ip: string): bigint {
  let text = ip;
  let tail: bigint | undefined;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.', lastColon)) {
    // Dotted IPv4 tail (::ffff:1.2.3.4): two 16-bit groups.
    tail = ipv4Value(text.slice(lastColon + 1));
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const [head, rest] = text.split('::');
  const headGroups = head.length > 0 ? head.split(':') : [];
  const restGroups = rest === undefined ? [] : rest.length > 0 ? rest.split(':') : [];
  const missing = 8 - headGroups.length - restGroups.length;
  const groups = [...headGroups, ...Array<string>(rest === undefined ? 0 : missing).fill('0'), ...restGroups];
  let value = 0n;
  for (const group of groups) value = (value << 16n) + BigInt(parseInt(group, 16));
  if (tail !== undefined) value = (value & ~0xffffffffn) | tail;
  return value;
}

const DIGITS_AND_DOTS = /^[\d.]+$/;

/** Parses an IPv4 or IPv6 address (zone index ignored); undefined when it is not one. */
export function parseAddress(ip: unknown): ParsedAddress | undefined {
  if (typeof ip !== 'string') return undefined;
  const text = ip.trim().replace(/%.*$/, '');
  // Host names, the usual text here, fail fast: IPv6 has a colon, IPv4 only digits and dots.
  if (!text.includes(':') && !DIGITS_AND_DOTS.test(text)) return undefined;
  if (isIPv4(text)) return { family: 4, value: V4_MAPPED_PREFIX | ipv4Value(text) };
  if (isIPv6(text)) return { family: 6, value: ipv6Value(text.toLowerCase()) };
  return undefined;
}

interface Range {
  first: bigint;
  last: bigint;
}

/** A set of CIDR blocks (IPv4 and IPv6), matched by linear scan: meant for tens of blocks, not thousands. */
export class CidrSet {
  private readonly ranges: Range[];
  /**
   * The IPv4 addresses the blocks cover, as 32-bit numbers (first and last of each block in turn, read by index),
   * so that plain IPv4 text is checked with number compares instead of parsing it to a bigint.
   */
  private readonly v4: Float64Array;

  /** @throws Error naming the entry that is not a CIDR block or an address. */
  constructor(cidrs: readonly string[]) {
    this.ranges = cidrs.map(parseCidr);
    const v4: number[] = [];
    for (const r of this.ranges) {
      const first = r.first > V4_MAPPED_PREFIX ? r.first : V4_MAPPED_PREFIX;
      const last = r.last < V4_MAPPED_LAST ? r.last : V4_MAPPED_LAST;
      if (first <= last) v4.push(Number(first - V4_MAPPED_PREFIX), Number(last - V4_MAPPED_PREFIX));
    }
    this.v4 = Float64Array.from(v4);
  }

  get size(): number {
    return this.ranges.length;
  }

  contains(address: ParsedAddress): boolean {
    return this.ranges.some((r) => address.value >= r.first && address.value <= r.last);
  }

  /** Whether the address (text) lies in a block; undefined when the text is not an address. */
  containsAddress(ip: unknown): boolean | undefined {
    const v4 = typeof ip === 'string' ? ipv4ToNumber(ip) : undefined;
    if (v4 !== undefined) {
      for (let i = 0; i < this.v4.length; i += 2) if (v4 >= this.v4[i] && v4 <= this.v4[i + 1]) return true;
      return false;
    }
    const address = parseAddress(ip);
    return address === undefined ? undefined : this.contains(address);
  }
}

export function parseCidr(cidr: string): Range {
  const [ip, prefixText, extra] = cidr.trim().split('/');
  const address = parseAddress(ip);
  if (address === undefined || extra !== undefined) throw new Error(`invalid CIDR block "${cidr}"`);
  const bits = address.family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? bits : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > bits || (prefixText !== undefined && !/^\d+$/.test(prefixText))) {
    throw new Error(`invalid CIDR block "${cidr}": prefix must be 0-${bits}`);
  }
  const hostBits = BigInt(bits - prefix);
  const mask = (1n << hostBits) - 1n;
  const first = address.value & ~mask;
  return { first, last: first | mask };
}

/**
 * Private, shared, loopback, link-local, documentation, benchmarking, multicast and reserved ranges
 * (IANA special-purpose registries); traffic to them never reaches the public Internet.
 */
export const NON_PUBLIC_RANGES: readonly string[] = [
  '0.0.0.0/8', '10.0.0.0/8', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '172.16.0.0/12', '192.0.0.0/24',
  '192.0.2.0/24', '192.88.99.0/24', '192.168.0.0/16', '198.18.0.0/15', '198.51.100.0/24', '203.0.113.0/24',
  '224.0.0.0/4', '240.0.0.0/4',
  '::/127', '64:ff9b:1::/48', '100::/64', '2001:db8::/32', 'fc00::/7', 'fe80::/10', 'ff00::/8',
];

const NON_PUBLIC = new CidrSet(NON_PUBLIC_RANGES);

/** True for an address routed on the public Internet; false for private/reserved ones and for non-addresses. */
export function isPublicAddress(ip: unknown): boolean {
  return NON_PUBLIC.containsAddress(ip) === false;
}
