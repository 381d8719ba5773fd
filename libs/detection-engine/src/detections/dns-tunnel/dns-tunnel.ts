import type { KeyedState } from '../../state/state-budget';
import type { DnsEvent, Wisdom } from '@vigil/contracts';
import { emptyNameMemo, matchZone, zoneSet, type SplitHostname, type ZoneSet } from '../../domain';
import { hostnameSplitOf } from '../../observed-event';
import { LruMap } from '../../state/lru-map';
import type { SnapshotEventReader, SnapshotEventWriter } from '../../state/event-table';
import { readLru, writeLru } from '../../state/lru-snapshot';
import { OccurrenceWindow, readOccurrenceWindow, writeOccurrenceWindow, type OccurrenceDataCodec } from '../../state/occurrence-window';
import { readNumber, readObject, readString } from '../../state/snapshot';
import type {
  DetectionDefinition,
  DetectionHit,
  Detector,
  DetectorStateStats,
  EvidenceEvent,
  ObservedEvent,
} from '../detection';
import { DNS_TUNNEL_ALLOW_LIST } from './allow-list';
import {
  assessSubdomain,
  DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS,
  type PayloadCharset,
  type RandomSubdomainThresholds,
  type SubdomainAssessment,
} from './subdomain-features';

export const DNS_TUNNEL: DetectionDefinition = {
  id: 'dns_tunnel',
  threat: 'multiple_long_hostnames',
  title: 'DNS tunneling',
  severity: 4,
  flags: ['perplexing_host', 'long_hostname'],
  mitreAttack: ['TA0011:T1071.004', 'TA0010:T1048'],
  analytic: { id: 3, name: 'Statistical' },
  findingType: 'DNS Tunneling',
  keyDescription: 'registered domain',
};

/**
 * Thresholds, chosen on the labelled data in shared/data (tunnel/ train split, benign rankings) and the tunnel
 * tools' generated sessions, leave-one-tool-out (tools/eval/tunnels.ts):
 * - per query (see subdomain-features): long tokens of 24+ characters with entropy >= 0.9 of a random
 *   string, holding raw bytes/base64 or letters and digits well mixed (in TXT/NULL queries also random letters
 *   with few vowels); a label with '+', '/' or '='; a counter label such as `r17560`. Weaker: a short token of
 *   letters and digits well mixed (a poll header, a beacon's nonce), which counts `shortTokenWeight`.
 * - per (workspace, endpoint, registered domain): a weighted count of 10 distinct such subdomains within 60 s
 *   of event time. A tunnel moving any data sends several queries a second, so it crosses 10 within seconds;
 *   a person or a program resolving 10 different random names of one (non-allow-listed) domain in a minute
 *   is rare. Names without a public suffix (`dnscat.<hex>`, sent straight to the tunnel's server) share one
 *   window per host. The price: exfiltration slower than 10 queries a minute is not caught.
 * - the query rate to one zone: short tokens that arrive in a burst (`minBurstSubdomains` distinct ones within
 *   `burstMs`) count fully. A beacon fetching a task through one A/AAAA answer per query sends dozens of
 *   distinct token names within a second; a person or a page load resolves a few names of a site, and seldom
 *   with a token in each.
 */
export interface DnsTunnelOptions {
  windowMs: number;
  /** Weighted distinct subdomains (strong signals 1, short tokens `shortTokenWeight`) that make a tunnel. */
  minDistinctSubdomains: number;
  /** What one distinct subdomain with only a short token counts towards `minDistinctSubdomains`. */
  shortTokenWeight: number;
  /** Short tokens count fully while at least `minBurstSubdomains` distinct ones arrived within `burstMs`. */
  burstMs: number;
  /** Set to Infinity to count short tokens with their weight whatever their rate. */
  minBurstSubdomains: number;
  /** Distinct subdomains remembered per key (oldest dropped first); must be >= minDistinctSubdomains. */
  maxSubdomainsPerKey: number;
  /** (workspace, endpoint, registered domain) windows kept; least recently used dropped first. */
  maxKeys: number;
  /** Evidence events a hit carries at most. */
  maxEvidence: number;
  allowList: readonly string[];
  thresholds: RandomSubdomainThresholds;
}

export const DEFAULT_DNS_TUNNEL_OPTIONS: DnsTunnelOptions = {
  windowMs: 60_000,
  minDistinctSubdomains: 10,
  shortTokenWeight: 0.5,
  burstMs: 2_000,
  minBurstSubdomains: 8,
  maxSubdomainsPerKey: 64,
  maxKeys: 100_000,
  maxEvidence: 10,
  allowList: DNS_TUNNEL_ALLOW_LIST,
  thresholds: DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS,
};

/** The window key of names that end in no public suffix (the tunnel client talks to its server directly). */
export const NO_PUBLIC_SUFFIX = '(no public suffix)';

/** What a window keeps of each random-looking subdomain. */
interface TunnelPayload {
  payloadLength: number;
  charset: PayloadCharset;
  /** 1 for a strong signal, `shortTokenWeight` for a short token. */
  weight: number;
}

const PAYLOAD_CODEC: OccurrenceDataCodec<TunnelPayload> = {
  width: 3,
  write: (p) => [p.payloadLength, p.charset, p.weight],
  read: ([length, charset, weight], at) => ({
    payloadLength: readNumber(length, `${at}.payloadLength`),
    charset: readString(charset, `${at}.charset`) as PayloadCharset,
    weight: readNumber(weight, `${at}.weight`),
  }),
};

/** Snapshots written before short tokens counted: every entry was a strong signal. */
const LEGACY_PAYLOAD_CODEC: OccurrenceDataCodec<TunnelPayload> = {
  width: 2,
  write: (p) => [p.payloadLength, p.charset],
  read: ([length, charset], at) => ({ payloadLength: readNumber(length, `${at}.payloadLength`), charset: readString(charset, `${at}.charset`) as PayloadCharset, weight: 1 }),
};

/** A name that ends in a label no public suffix can be (digits in it, or too long): no registered domain. */
const TLD_LIKE = /^(?:[a-z]{2,24}|xn--[a-z0-9-]{1,59})$/;

/** Whether the label after `lastDot` is {@link TLD_LIKE}; the usual one, 2-24 letters, read without cutting it out. */
export function endsInTldLikeLabel(hostname: string, lastDot: number): boolean {
  const length = hostname.length - lastDot - 1;
  if (length >= 2 && length <= 24) {
    let letters = true;
    for (let i = lastDot + 1; letters && i < hostname.length; i++) {
      const c = hostname.charCodeAt(i);
      letters = c >= 0x61 && c <= 0x7a;
    }
    if (letters) return true;
  }
  return TLD_LIKE.test(hostname.slice(lastDot + 1));
}

/**
 * The window key (`registeredDomain`) and the subdomain to judge, or undefined when the name has nothing left of
 * its domain. Names under a public suffix answer with the shared split of the name (nothing allocated per query).
 */
function tunnelTarget(observed: ObservedEvent): Readonly<SplitHostname> | undefined {
  const hostname = observed.hostname;
  if (hostname === undefined) return undefined;
  const lastDot = hostname.lastIndexOf('.');
  if (lastDot > 0 && !endsInTldLikeLabel(hostname, lastDot)) return { registeredDomain: NO_PUBLIC_SUFFIX, hostname, subdomain: hostname, memo: emptyNameMemo() };
  const split = hostnameSplitOf(observed);
  if (split === undefined || split.subdomain === '') return undefined;
  return split;
}

export class DnsTunnelDetector implements Detector {
  readonly definition = DNS_TUNNEL;
  readonly types = ['dns'] as const;
  private readonly options: DnsTunnelOptions;
  private readonly allowList: ZoneSet;
  private readonly windows: LruMap<string, OccurrenceWindow<TunnelPayload>>;

  constructor(options: Partial<DnsTunnelOptions> = {}) {
    this.options = { ...DEFAULT_DNS_TUNNEL_OPTIONS, ...options };
    const { minDistinctSubdomains, maxSubdomainsPerKey, windowMs, maxEvidence, shortTokenWeight } = this.options;
    if (!(minDistinctSubdomains >= 1)) {
      throw new RangeError(`dns_tunnel: minDistinctSubdomains must be at least 1, got ${minDistinctSubdomains}`);
    }
    if (!(shortTokenWeight >= 0 && shortTokenWeight <= 1)) {
      throw new RangeError(`dns_tunnel: shortTokenWeight must be between 0 and 1, got ${shortTokenWeight}`);
    }
    if (!Number.isInteger(maxSubdomainsPerKey) || maxSubdomainsPerKey < minDistinctSubdomains) {
      throw new RangeError(`dns_tunnel: maxSubdomainsPerKey must be an integer >= minDistinctSubdomains, got ${maxSubdomainsPerKey}`);
    }
    if (!(windowMs > 0)) throw new RangeError(`dns_tunnel: windowMs must be positive, got ${windowMs}`);
    if (!(this.options.burstMs >= 0) || !(this.options.minBurstSubdomains >= 2)) {
      throw new RangeError(`dns_tunnel: burstMs must be >= 0 and minBurstSubdomains >= 2, got ${this.options.burstMs} and ${this.options.minBurstSubdomains}`);
    }
    if (!Number.isInteger(maxEvidence) || maxEvidence < 1) {
      throw new RangeError(`dns_tunnel: maxEvidence must be a positive integer, got ${maxEvidence}`);
    }
    this.allowList = zoneSet(this.options.allowList);
    this.windows = new LruMap(this.options.maxKeys);
  }

  /**
   * The per-query judgement of one DNS event (no state touched): undefined when the name has nothing left of
   * its domain or lies in an allow-listed zone.
   */
  assess(observed: ObservedEvent): (SubdomainAssessment & { domain: string; subdomain: string }) | undefined {
    const target = this.targetOf(observed);
    if (target === undefined || this.isAllowListed(target)) return undefined;
    return { ...this.assessTarget(observed, target), domain: target.registeredDomain, subdomain: target.subdomain };
  }

  /** The name to judge, or undefined when it has nothing left of its domain. */
  private targetOf(observed: ObservedEvent): Readonly<SplitHostname> | undefined {
    if (observed.hostname === undefined || observed.rawHostname === undefined) return undefined;
    return tunnelTarget(observed);
  }

  private isAllowListed(target: Readonly<SplitHostname>): boolean {
    return matchZone(target.hostname, this.allowList) !== undefined;
  }

  /** Judges the subdomain in its original case (mixed case is itself a signal). */
  private assessTarget(observed: ObservedEvent, target: Readonly<SplitHostname>): SubdomainAssessment {
    const qtype = (observed.event as DnsEvent).qtype;
    const domain = target.registeredDomain;
    const raw = observed.rawHostname ?? target.hostname;
    // Most names arrive in lower case already, and then the split's subdomain is the original.
    const subdomain = domain === NO_PUBLIC_SUFFIX ? raw : raw === target.hostname ? target.subdomain : originalCaseSubdomain(raw, domain, target.subdomain);
    return assessSubdomain(subdomain, this.options.thresholds, qtype);
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const target = this.targetOf(observed);
    if (target === undefined) return undefined;
    const assessment = this.assessTarget(observed, target);
    const domain = target.registeredDomain;
    // A name that ends in no public suffix is never ordinary resolution, so even a short token there counts fully.
    const shortTokenWeight = domain === NO_PUBLIC_SUFFIX ? 1 : this.options.shortTokenWeight;
    const weight = assessment.randomLooking ? 1 : assessment.signal === 'short-token' ? shortTokenWeight : 0;
    // The allow list is asked last: most names carry no signal at all.
    if (weight === 0 || this.isAllowListed(target)) return undefined;

    const windowKey = `${observed.workspaceId}\u0000${observed.endpoint.id}\u0000${domain}`;
    let window = this.windows.get(windowKey);
    if (window === undefined) {
      window = new OccurrenceWindow(observed.timeMs, this.options.windowMs, this.options.maxSubdomainsPerKey);
      this.windows.addNew(windowKey, window);
    }
    if (!window.add(target.subdomain, observed, { payloadLength: assessment.payload.length, charset: assessment.payload.charset, weight })) return undefined;
    if (window.size < this.options.minDistinctSubdomains || this.windowScore(window) < this.options.minDistinctSubdomains) return undefined;
    return this.hit(window, domain, observed);
  }

  keyedState(): readonly KeyedState[] {
    return [this.windows];
  }

  stateStats(): DetectorStateStats {
    let largestKey = 0;
    for (const window of this.windows.values()) largestKey = Math.max(largestKey, window.size);
    return {
      keys: this.windows.size,
      maxKeys: this.windows.maxSize,
      largestKey,
      maxEntriesPerKey: this.options.maxSubdomainsPerKey,
    };
  }

  /**
   * `{v: 2, windows}`, per window `[latestMs, [subdomain, age, payloadLength, charset, weight, unreported, event,
   * ...]]`, ages relative to latestMs. A bare list is the earlier form without weights (every entry counted 1).
   */
  snapshot(events: SnapshotEventWriter): unknown {
    return { v: 2, windows: writeLru(this.windows, (w) => writeOccurrenceWindow(w, PAYLOAD_CODEC, events)) };
  }

  restore(state: unknown, events: SnapshotEventReader): void {
    const options = { windowMs: this.options.windowMs, maxEntries: this.options.maxSubdomainsPerKey };
    const legacy = state === undefined || Array.isArray(state);
    const codec = legacy ? LEGACY_PAYLOAD_CODEC : PAYLOAD_CODEC;
    const windows = legacy ? state : readObject(state, DNS_TUNNEL.id).windows;
    readLru(this.windows, windows, (value, at) => readOccurrenceWindow(value, at, options, codec, events), DNS_TUNNEL.id);
  }

  /**
   * Distinct subdomains of a window, each weighted by the strength of its signal; short tokens count fully while
   * they arrive in a burst (see {@link DnsTunnelOptions.minBurstSubdomains}).
   */
  private windowScore(window: OccurrenceWindow<TunnelPayload>): number {
    let score = 0;
    let weak = 0;
    let weakWeight = 0;
    const burstFrom = window.latestMs - this.options.burstMs;
    for (const entry of window.entries.values()) {
      score += entry.data.weight;
      if (entry.data.weight < 1 && entry.lastSeenMs >= burstFrom) {
        weak++;
        weakWeight += entry.data.weight;
      }
    }
    return weak >= this.options.minBurstSubdomains ? score - weakWeight + weak : score;
  }

  /** Distinct short-token subdomains within the burst span of the window's latest event. */
  private burstSize(window: OccurrenceWindow<TunnelPayload>): number {
    let weak = 0;
    const burstFrom = window.latestMs - this.options.burstMs;
    for (const entry of window.entries.values()) if (entry.data.weight < 1 && entry.lastSeenMs >= burstFrom) weak++;
    return weak;
  }

  /** Reports every occurrence not yet reported (the build-up on first firing, one event afterwards). */
  private hit(window: OccurrenceWindow<TunnelPayload>, domain: string, trigger: ObservedEvent): DetectionHit {
    const payloads = [...window.entries.values()].map((entry) => entry.data);
    const wisdom: Wisdom = { flags: [...DNS_TUNNEL.flags], domain };
    const { weight, pending } = window.takeUnreported(trigger);
    const evidence: EvidenceEvent[] = [...pending.slice(-(this.options.maxEvidence - 1)).map((p) => p.event), trigger].map((event) => ({ event, wisdom }));

    const distinct = payloads.length;
    const score = this.windowScore(window);
    const burst = this.burstSize(window);
    const meanLength = Math.round(payloads.reduce((sum, p) => sum + p.payloadLength, 0) / distinct);
    const windowSeconds = Math.round(this.options.windowMs / 1000);
    const encoding = dominantCharset(payloads);
    return {
      detection: DNS_TUNNEL,
      key: domain,
      weight,
      evidence,
      wisdom,
      observations: [
        `${distinct} distinct random-looking subdomains in ${windowSeconds} s`,
        ...(score < distinct ? [`weighted ${formatScore(score)} (short tokens count ${this.options.shortTokenWeight})`] : []),
        ...(burst >= this.options.minBurstSubdomains ? [`${burst} distinct short tokens within ${this.options.burstMs / 1000} s`] : []),
        `mean subdomain length ${meanLength}`,
        `encoding ${encoding}`,
      ],
      desc:
        `${distinct} distinct random-looking subdomains of ${domain} in ${windowSeconds} s, ` +
        `mean subdomain length ${meanLength} (${encoding}-like): DNS queries carrying encoded data`,
    };
  }
}


function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : score.toFixed(1);
}

/** The subdomain with its original case when the name's tail is plain ASCII, else the lower-case one. */
function originalCaseSubdomain(rawHostname: string, domain: string, lowerSubdomain: string): string {
  const tailLength = domain.length + 1;
  if (rawHostname.length <= tailLength) return lowerSubdomain;
  if (rawHostname.slice(-tailLength).toLowerCase() !== `.${domain}`) return lowerSubdomain;
  return rawHostname.slice(0, -tailLength);
}

function dominantCharset(payloads: TunnelPayload[]): PayloadCharset {
  const counts = new Map<PayloadCharset, number>();
  for (const payload of payloads) counts.set(payload.charset, (counts.get(payload.charset) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0][0];
}
