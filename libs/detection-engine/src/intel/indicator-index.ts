import { BoundedMemo } from '../bounded-memo';
import type { IndicatorKind, IndicatorMatch, IndicatorMeta, IndicatorRecord } from './indicator';
import { parseLabel } from './indicator';
import {
  ipPortKey,
  ipv4PrefixKey,
  ipv4ToNumber,
  ipv6PrefixKey,
  normaliseDomain,
  normaliseHash,
  normaliseIpPort,
  normaliseJa3,
  normalisedUrlPath,
  normaliseUrl,
  numberToIpv4,
  parseCidr,
  parseIp,
} from './normalise';

import { NumberFilter } from './number-filter';
import { DigestFilter } from './digest-filter';
import { DomainSuffixFilter } from './domain-suffix-filter';
import { StringFilter } from './string-filter';
import { PackedTable, packIndicators, type KeyedRefs, type PackedIndicators, type Refs } from './packed-indicators';

const NO_MATCHES: readonly IndicatorMatch[] = Object.freeze([]);

export class IndicatorLimitError extends Error {
  constructor(readonly limit: number) {
    super(`intel indicator limit of ${limit} reached; raise maxIndicators or load fewer lists`);
    this.name = 'IndicatorLimitError';
  }
}

/** Counts of indexed indicators by kind. */
export type IndicatorCounts = Record<IndicatorKind, number>;

function emptyCounts(): IndicatorCounts {
  return { domain: 0, ip: 0, cidr: 0, ip_port: 0, url: 0, ja3: 0, ja3s: 0, cert: 0 };
}

/** Accumulates indicators, then freezes them into an {@link IndicatorIndex}. Rejects input beyond `maxIndicators`. */
export class IndicatorIndexBuilder {
  private readonly metas: IndicatorMeta[] = [];
  private readonly metaIds = new Map<string, number>();
  private readonly tables = new Tables();
  private readonly counts = emptyCounts();
  private total = 0;
  private invalid = 0;

  constructor(private readonly maxIndicators: number) {}

  /** Adds one indicator; returns false (and counts it as invalid) when its value does not parse as its kind. */
  add(record: IndicatorRecord): boolean {
    const meta = this.metaId(record.label, record.source);
    const placed = this.place(record.kind, record.value, meta);
    if (placed === undefined) {
      this.invalid++;
      return false;
    }
    if (placed) {
      if (this.total >= this.maxIndicators) throw new IndicatorLimitError(this.maxIndicators);
      this.total++;
      this.counts[record.kind]++;
    }
    return true;
  }

  get invalidCount(): number {
    return this.invalid;
  }

  build(): IndicatorIndex {
    return new IndicatorIndex(this.metas, this.tables, { ...this.counts }, this.total);
  }

  private metaId(label: string, source: string): number {
    const id = `${label}\u0000${source}`;
    let index = this.metaIds.get(id);
    if (index === undefined) {
      index = this.metas.length;
      this.metas.push(parseLabel(label, source));
      this.metaIds.set(id, index);
    }
    return index;
  }

  /** true: stored; false: a duplicate; undefined: not a valid value of that kind. */
  private place(kind: IndicatorKind, value: string, meta: number): boolean | undefined {
    const t = this.tables;
    switch (kind) {
      case 'domain': {
        const domain = normaliseDomain(value);
        return domain === undefined ? undefined : addRef(t.domains, domain, meta);
      }
      case 'ip': {
        const ip = parseIp(value);
        if (ip === undefined) return undefined;
        return ip.v === 4 ? addRef(t.ipv4, ip.value, meta) : addRef(t.ipv6, ip.value, meta);
      }
      case 'cidr': {
        const cidr = parseCidr(value);
        if (cidr === undefined) return undefined;
        const byPrefix = (cidr.v === 4 ? t.cidr4 : t.cidr6) as Map<number, Map<number | string, Refs>>;
        let table = byPrefix.get(cidr.prefix);
        if (table === undefined) {
          table = new Map();
          byPrefix.set(cidr.prefix, table);
        }
        return addRef(table, cidr.key, meta);
      }
      case 'ip_port': {
        const key = normaliseIpPort(value);
        return key === undefined ? undefined : addRef(t.ipPorts, key, meta);
      }
      case 'url': {
        const url = normaliseUrl(value);
        if (url === undefined || (url.host === '' && url.path === '')) return undefined;
        return addRef(t.urls, url.host + url.path, meta);
      }
      case 'ja3':
      case 'ja3s': {
        const hash = normaliseJa3(value);
        return hash === undefined ? undefined : addRef(kind === 'ja3' ? t.ja3 : t.ja3s, hash, meta);
      }
      case 'cert': {
        const hash = normaliseHash(value);
        return hash === undefined ? undefined : addRef(t.certs, hash, meta);
      }
    }
  }
}

/** What an index looks values up in: Maps while building, views over a shared packed table for the seed. */
interface IndicatorTables {
  readonly domains: KeyedRefs<string>;
  readonly ipv4: KeyedRefs<number>;
  readonly ipv6: KeyedRefs<string>;
  readonly cidr4: ReadonlyMap<number, KeyedRefs<number>>;
  readonly cidr6: ReadonlyMap<number, KeyedRefs<string>>;
  readonly ipPorts: KeyedRefs<string>;
  readonly urls: KeyedRefs<string>;
  readonly ja3: KeyedRefs<string>;
  readonly ja3s: KeyedRefs<string>;
  readonly certs: KeyedRefs<string>;
}

class Tables implements IndicatorTables {
  readonly domains = new Map<string, Refs>();
  readonly ipv4 = new Map<number, Refs>();
  readonly ipv6 = new Map<string, Refs>();
  readonly cidr4 = new Map<number, Map<number, Refs>>();
  readonly cidr6 = new Map<number, Map<string, Refs>>();
  readonly ipPorts = new Map<string, Refs>();
  /** `host[:port]/path`, or `/path` for path-only indicators. */
  readonly urls = new Map<string, Refs>();
  readonly ja3 = new Map<string, Refs>();
  readonly ja3s = new Map<string, Refs>();
  readonly certs = new Map<string, Refs>();
}

function addRef<K>(map: Map<K, Refs>, key: K, meta: number): boolean {
  const refs = map.get(key);
  if (refs === undefined) {
    map.set(key, meta);
    return true;
  }
  if (typeof refs === 'number') {
    if (refs === meta) return false;
    map.set(key, [refs, meta]);
    return true;
  }
  if (refs.includes(meta)) return false;
  refs.push(meta);
  return true;
}

/** An immutable, fully built set of indicators. Lookups allocate only when something matches. */
export class IndicatorIndex {
  private readonly cidr4Prefixes: number[];
  private readonly cidr6Prefixes: number[];

  constructor(
    private readonly metas: readonly IndicatorMeta[],
    private readonly t: IndicatorTables,
    readonly counts: Readonly<IndicatorCounts>,
    readonly size: number,
  ) {
    this.cidr4Prefixes = [...t.cidr4.keys()].sort((a, b) => b - a);
    this.cidr6Prefixes = [...t.cidr6.keys()].sort((a, b) => b - a);
    this.cidr4Cover = coveredRanges(t.cidr4);
    this.ipv4Values = new NumberFilter(t.ipv4.keys(), t.ipv4.size);
    this.ipPortHosts4 = new NumberFilter(ipv4HostsOf(t.ipPorts.keys()), t.ipPorts.size);
    this.urlPaths = new StringFilter(pathsOf(t.urls.keys()), t.urls.size);
    this.domainZones = new DomainSuffixFilter(t.domains.keys(), t.domains.size);
    this.ja3Keys = new DigestFilter(t.ja3.keys(), t.ja3.size);
    this.ja3sKeys = new DigestFilter(t.ja3s.keys(), t.ja3s.size);
    this.certKeys = new DigestFilter(t.certs.keys(), t.certs.size);
  }

  /** Every IPv4 range some CIDR indicator covers, merged: most addresses fall outside all of them. */
  private readonly cidr4Cover: Float64Array;
  /** IPv4 addresses with an `ip` indicator: most flows' destinations are none of them. */
  private readonly ipv4Values: NumberFilter;
  /** IPv4 addresses that have an `ip_port` indicator on some port. */
  private readonly ipPortHosts4: NumberFilter;
  /** The domains of domain indicators: most names, and most of their parent zones, are none of them. */
  private readonly domainZones: DomainSuffixFilter;
  /** Scratch for {@link DomainSuffixFilter.candidateZones}. */
  private readonly zoneStarts: number[] = [];
  /** The paths of URL indicators: most requests' paths are none of them. */
  private readonly urlPaths: StringFilter;
  /**
   * The digests of each kind. The packed table holds every kind in one open-addressing table of megabytes, where
   * a miss costs cache misses however few keys its kind has (the seed holds a handful of JA3 and certificate
   * digests, and every TLS session asks about three); a filter of a kilobyte or so answers nearly all of them.
   */
  private readonly ja3Keys: DigestFilter;
  private readonly ja3sKeys: DigestFilter;
  private readonly certKeys: DigestFilter;

  static empty(): IndicatorIndex {
    return new IndicatorIndexBuilder(0).build();
  }

  /** An index over a packed table (shared with other threads, not copied). */
  static fromPacked(packed: PackedIndicators): IndicatorIndex {
    const table = new PackedTable(packed);
    const tables: IndicatorTables = {
      domains: table.view('domains'),
      ipv4: table.view('ipv4'),
      ipv6: table.view('ipv6'),
      cidr4: new Map(packed.cidr4.map(([prefix, entries]) => [prefix, new Map(entries)])),
      cidr6: new Map(packed.cidr6.map(([prefix, entries]) => [prefix, new Map(entries)])),
      ipPorts: table.view('ipPorts'),
      urls: table.view('urls'),
      ja3: table.view('ja3'),
      ja3s: table.view('ja3s'),
      certs: table.view('certs'),
    };
    const counts = emptyCounts();
    for (const [kind, count] of Object.entries(packed.counts)) counts[kind as IndicatorKind] = count;
    return new IndicatorIndex(packed.metas, tables, counts, packed.size);
  }

  /** This index as one packed, shareable table; only an index built from Maps (not itself packed) can be packed. */
  pack(): PackedIndicators {
    const t = this.t;
    if (!(t instanceof Tables)) throw new Error('this intel index is already packed');
    return packIndicators({
      metas: this.metas,
      tables: { domains: t.domains, ipv4: t.ipv4, ipv6: t.ipv6, ipPorts: t.ipPorts, urls: t.urls, ja3: t.ja3, ja3s: t.ja3s, certs: t.certs },
      cidr4: t.cidr4,
      cidr6: t.cidr6,
      counts: this.counts,
      size: this.size,
    });
  }

  /** Indicators for the host name and each parent zone, most specific first (`a.evil.com` → `a.evil.com`, `evil.com`, `com`). */
  matchDomain(hostname: string): readonly IndicatorMatch[] {
    if (this.t.domains.size === 0 || typeof hostname !== 'string' || hostname.length === 0) return NO_MATCHES;
    // Several detections ask about the same event's name in turn.
    if (hostname === this.lastName) return this.lastMatches;
    const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
    // Most names have no zone the filter lets through, and are answered without a lookup; the others repeat
    // (names under a listed zone: dynamic DNS, a cloud provider's) and are remembered with their matches.
    const matches = this.domainZones.candidateZones(name, this.zoneStarts) === 0 ? NO_MATCHES : this.domainMatches.get(name);
    this.lastName = hostname;
    this.lastMatches = matches;
    return matches;
  }

  private lastName: string | undefined;
  private lastMatches: readonly IndicatorMatch[] = NO_MATCHES;

  /** Names that passed the filter, with what they matched. */
  private readonly domainMatches = new BoundedMemo<readonly IndicatorMatch[]>(4096, (name) => this.matchDomainUncached(name), 253, true);

  private matchDomainUncached(name: string): readonly IndicatorMatch[] {
    const starts = this.zoneStarts;
    // Zones come least specific first; matches are given most specific first.
    let out: IndicatorMatch[] | undefined;
    for (let k = this.domainZones.candidateZones(name, starts) - 1; k >= 0; k--) {
      const zone = starts[k] === 0 ? name : name.slice(starts[k]);
      const refs = this.t.domains.get(zone);
      if (refs !== undefined) out = this.collect(out, 'domain', zone, refs);
    }
    return out ?? NO_MATCHES;
  }

  /** Indicators for an address: the address itself, then its covering networks, narrowest first. */
  matchIp(address: string): readonly IndicatorMatch[] {
    // A plain dotted quad (every flow's destination, mostly) is read without the general parser.
    const quad = ipv4ToNumber(address);
    if (quad !== undefined) return this.matchIpv4(quad);
    const ip = parseIp(address);
    if (ip === undefined) return NO_MATCHES;
    if (ip.v === 4) return this.matchIpv4(ip.value);
    let out: IndicatorMatch[] | undefined;
    const refs = this.t.ipv6.get(ip.value);
    if (refs !== undefined) out = this.collect(out, 'ip', address, refs);
    for (const prefix of this.cidr6Prefixes) {
      const hit = this.t.cidr6.get(prefix)!.get(ipv6PrefixKey(ip.value, prefix));
      if (hit !== undefined) out = this.collect(out, 'cidr', `${address}/${prefix}`, hit);
    }
    return out ?? NO_MATCHES;
  }

  private matchIpv4(value: number): readonly IndicatorMatch[] {
    let out: IndicatorMatch[] | undefined;
    const refs = this.ipv4Values.mayContain(value) ? this.t.ipv4.get(value) : undefined;
    if (refs !== undefined) out = this.collect(out, 'ip', numberToIpv4(value), refs);
    if (!isCovered(this.cidr4Cover, value)) return out ?? NO_MATCHES;
    for (const prefix of this.cidr4Prefixes) {
      const key = ipv4PrefixKey(value, prefix);
      const hit = this.t.cidr4.get(prefix)!.get(key);
      if (hit !== undefined) out = this.collect(out, 'cidr', `${numberToIpv4(key)}/${prefix}`, hit);
    }
    return out ?? NO_MATCHES;
  }

  matchIpPort(address: string, port: number): readonly IndicatorMatch[] {
    if (this.t.ipPorts.size === 0 || !Number.isInteger(port)) return NO_MATCHES;
    // A plain dotted quad is its own canonical form (ipv4ToNumber refuses leading zeros and spaces).
    const quad = ipv4ToNumber(address);
    if (quad !== undefined && !this.ipPortHosts4.mayContain(quad)) return NO_MATCHES;
    let canonical: string | undefined = quad !== undefined ? address : undefined;
    if (canonical === undefined) {
      const ip = parseIp(address);
      if (ip === undefined) return NO_MATCHES;
      canonical = ip.v === 4 ? numberToIpv4(ip.value) : ip.value;
    }
    const refs = this.t.ipPorts.get(ipPortKey(canonical, port));
    return refs === undefined ? NO_MATCHES : this.collect(undefined, 'ip_port', `${address}:${port}`, refs);
  }

  /** URLs already matched: requests repeat, and normalising a URL costs more than the lookups. */
  private readonly urlMatches = new BoundedMemo<readonly IndicatorMatch[]>(4096, (url) => this.matchUrlUncached(url), 256, true);

  /** URL indicators for `host[:port]/path` (query ignored) and for the path alone (path-only indicators). */
  matchUrl(url: string): readonly IndicatorMatch[] {
    if (this.t.urls.size === 0 || typeof url !== 'string') return NO_MATCHES;
    const path = normalisedUrlPath(url);
    if (path === undefined || path === '' || !this.urlPaths.mayContain(path)) return NO_MATCHES;
    return this.urlMatches.get(url);
  }

  private matchUrlUncached(url: string): readonly IndicatorMatch[] {
    const parsed = normaliseUrl(url);
    if (parsed === undefined || parsed.path === '') return NO_MATCHES;
    let out: IndicatorMatch[] | undefined;
    const full = this.t.urls.get(parsed.host + parsed.path);
    if (full !== undefined) out = this.collect(out, 'url', parsed.host + parsed.path, full);
    const pathOnly = this.t.urls.get(parsed.path);
    if (pathOnly !== undefined) out = this.collect(out, 'url', parsed.path, pathOnly);
    return out ?? NO_MATCHES;
  }

  matchJa3(hash: string): readonly IndicatorMatch[] {
    return this.matchHash(this.t.ja3, this.ja3Keys, 'ja3', hash, normaliseJa3);
  }

  matchJa3s(hash: string): readonly IndicatorMatch[] {
    return this.matchHash(this.t.ja3s, this.ja3sKeys, 'ja3s', hash, normaliseJa3);
  }

  matchCert(hash: string): readonly IndicatorMatch[] {
    return this.matchHash(this.t.certs, this.certKeys, 'cert', hash, normaliseHash);
  }

  private matchHash(
    map: KeyedRefs<string>,
    keys: DigestFilter,
    kind: IndicatorKind,
    value: string,
    normalise: (value: string) => string | undefined,
  ): readonly IndicatorMatch[] {
    if (map.size === 0 || typeof value !== 'string' || !keys.mayHoldNormalFormOf(value)) return NO_MATCHES;
    const hash = normalise(value);
    if (hash === undefined) return NO_MATCHES;
    const refs = map.get(hash);
    return refs === undefined ? NO_MATCHES : this.collect(undefined, kind, hash, refs);
  }

  private collect(out: IndicatorMatch[] | undefined, kind: IndicatorKind, indicator: string, refs: Refs): IndicatorMatch[] {
    const list = out ?? [];
    if (typeof refs === 'number') list.push({ kind, indicator, ...this.metas[refs] });
    else for (const ref of refs) list.push({ kind, indicator, ...this.metas[ref] });
    return list;
  }
}

/** The ranges `[first, last, first, last, ...]` the CIDR tables cover, sorted and merged where they overlap or touch. */
function coveredRanges(cidr4: ReadonlyMap<number, KeyedRefs<number>>): Float64Array {
  const ranges: [number, number][] = [];
  for (const [prefix, table] of cidr4) {
    const span = 2 ** (32 - prefix);
    for (const network of table.keys()) ranges.push([network, network + span - 1]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [first, last] of ranges) {
    const end = merged.length - 1;
    if (end > 0 && first <= merged[end] + 1) merged[end] = Math.max(merged[end], last);
    else merged.push(first, last);
  }
  return Float64Array.from(merged);
}

/** Whether `value` lies in one of the merged ranges (binary search). */
function isCovered(ranges: Float64Array, value: number): boolean {
  let low = 0;
  let high = ranges.length / 2 - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (value < ranges[2 * mid]) high = mid - 1;
    else if (value > ranges[2 * mid + 1]) low = mid + 1;
    else return true;
  }
  return false;
}

/** The paths of `host[:port]/path` and `/path` keys (a key without a path never matches). */
function* pathsOf(urlKeys: Iterable<string>): Iterable<string> {
  for (const key of urlKeys) {
    const slash = key.indexOf('/');
    if (slash >= 0) yield key.slice(slash);
  }
}

/** The IPv4 addresses of `ip|port` keys. */
function* ipv4HostsOf(ipPortKeys: Iterable<string>): Iterable<number> {
  for (const key of ipPortKeys) {
    const value = ipv4ToNumber(key.slice(0, key.lastIndexOf('|')));
    if (value !== undefined) yield value;
  }
}
