import type { DnsEvent, Wisdom } from '@vigil/contracts';
import { matchZone, splitHostname, zoneSet } from '../../domain';
import { LruMap } from '../../state/lru-map';
import type { SnapshotEventReader, SnapshotEventWriter } from '../../state/event-table';
import { readLru, writeLru } from '../../state/lru-snapshot';
import { OccurrenceWindow, readOccurrenceWindow, writeOccurrenceWindow, type OccurrenceDataCodec } from '../../state/occurrence-window';
import { readNumber, readString } from '../../state/snapshot';
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
 * Thresholds, chosen on the labelled data in shared/data (tunnel/ and benign/):
 * - per query (see subdomain-features): long tokens of 24+ characters with entropy >= 0.9 of a random
 *   string, holding raw bytes/base64 or letters and digits well mixed. Data-carrying queries of the tools in
 *   the data (iodine, dns2tcp, dnscapy, tuns) carry 50-230 such characters and >= 95 % of them pass. Short
 *   polls count too when a label holds '+', '/' or '=' (iodine) or is a counter such as `r17560` (tuns);
 *   per query that is 98.75 % of the tunnel names of the validate split at 0 false positives. Of the 20,000
 *   popular host names in cisco-top20k, 282 pass: all but 7 in allow-listed zones (CDN/cloud, sentry.io
 *   org ids), and no other registered domain with more than 2.
 * - per (workspace, endpoint, registered domain): 10 distinct such subdomains within 60 s of event time.
 *   A tunnel moving any data sends tens to hundreds of queries a second, so it crosses 10 within seconds;
 *   a person or a program resolving 10 different random names of one (non-allow-listed) domain in a minute
 *   is rare. The price: exfiltration slower than 10 queries a minute is not caught.
 */
export interface DnsTunnelOptions {
  windowMs: number;
  minDistinctSubdomains: number;
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
  maxSubdomainsPerKey: 64,
  maxKeys: 100_000,
  maxEvidence: 10,
  allowList: DNS_TUNNEL_ALLOW_LIST,
  thresholds: DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS,
};

/** What a window keeps of each random-looking subdomain. */
interface TunnelPayload {
  payloadLength: number;
  charset: PayloadCharset;
}

const PAYLOAD_CODEC: OccurrenceDataCodec<TunnelPayload> = {
  width: 2,
  write: (p) => [p.payloadLength, p.charset],
  read: ([length, charset], at) => ({ payloadLength: readNumber(length, `${at}.payloadLength`), charset: readString(charset, `${at}.charset`) as PayloadCharset }),
};

export class DnsTunnelDetector implements Detector {
  readonly definition = DNS_TUNNEL;
  readonly types = ['dns'] as const;
  private readonly options: DnsTunnelOptions;
  private readonly allowList: ReadonlySet<string>;
  private readonly windows: LruMap<string, OccurrenceWindow<TunnelPayload>>;

  constructor(options: Partial<DnsTunnelOptions> = {}) {
    this.options = { ...DEFAULT_DNS_TUNNEL_OPTIONS, ...options };
    const { minDistinctSubdomains, maxSubdomainsPerKey, windowMs, maxEvidence } = this.options;
    if (!Number.isInteger(minDistinctSubdomains) || minDistinctSubdomains < 1) {
      throw new RangeError(`dns_tunnel: minDistinctSubdomains must be a positive integer, got ${minDistinctSubdomains}`);
    }
    if (!Number.isInteger(maxSubdomainsPerKey) || maxSubdomainsPerKey < minDistinctSubdomains) {
      throw new RangeError(`dns_tunnel: maxSubdomainsPerKey must be an integer >= minDistinctSubdomains, got ${maxSubdomainsPerKey}`);
    }
    if (!(windowMs > 0)) throw new RangeError(`dns_tunnel: windowMs must be positive, got ${windowMs}`);
    if (!Number.isInteger(maxEvidence) || maxEvidence < 1) {
      throw new RangeError(`dns_tunnel: maxEvidence must be a positive integer, got ${maxEvidence}`);
    }
    this.allowList = zoneSet(this.options.allowList);
    this.windows = new LruMap(this.options.maxKeys);
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    if (observed.hostname === undefined || observed.rawHostname === undefined) return undefined;
    const split = splitHostname(observed.hostname);
    if (split === undefined || split.subdomain === '') return undefined;
    if (matchZone(split.hostname, this.allowList) !== undefined) return undefined;

    const qtype = (observed.event as DnsEvent).qtype;
    const assessment = assessSubdomain(originalCaseSubdomain(observed.rawHostname, split.registeredDomain, split.subdomain), this.options.thresholds, qtype);
    if (!assessment.randomLooking) return undefined;

    const windowKey = `${observed.workspaceId}\u0000${observed.endpoint.id}\u0000${split.registeredDomain}`;
    let window = this.windows.get(windowKey);
    if (window === undefined) {
      window = new OccurrenceWindow(observed.timeMs, this.options.windowMs, this.options.maxSubdomainsPerKey);
      this.windows.set(windowKey, window);
    }
    if (!window.add(split.subdomain, observed, { payloadLength: assessment.payload.length, charset: assessment.payload.charset })) return undefined;
    if (window.size < this.options.minDistinctSubdomains) return undefined;
    return this.hit(window, split.registeredDomain, observed);
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

  /** Per window `[latestMs, [subdomain, age, payloadLength, charset, unreported, event, ...]]`, ages relative to latestMs. */
  snapshot(events: SnapshotEventWriter): unknown {
    return writeLru(this.windows, (w) => writeOccurrenceWindow(w, PAYLOAD_CODEC, events));
  }

  restore(state: unknown, events: SnapshotEventReader): void {
    const options = { windowMs: this.options.windowMs, maxEntries: this.options.maxSubdomainsPerKey };
    readLru(this.windows, state, (value, at) => readOccurrenceWindow(value, at, options, PAYLOAD_CODEC, events), DNS_TUNNEL.id);
  }

  /** Reports every occurrence not yet reported (the build-up on first firing, one event afterwards). */
  private hit(window: OccurrenceWindow<TunnelPayload>, domain: string, trigger: ObservedEvent): DetectionHit {
    const payloads = [...window.entries.values()].map((entry) => entry.data);
    const wisdom: Wisdom = { flags: [...DNS_TUNNEL.flags], domain };
    const { weight, pending } = window.takeUnreported(trigger);
    const evidence: EvidenceEvent[] = [...pending.slice(-(this.options.maxEvidence - 1)).map((p) => p.event), trigger].map((event) => ({ event, wisdom }));

    const distinct = payloads.length;
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
        `mean subdomain length ${meanLength}`,
        `encoding ${encoding}`,
      ],
      desc:
        `${distinct} distinct random-looking subdomains of ${domain} in ${windowSeconds} s, ` +
        `mean subdomain length ${meanLength} (${encoding}-like): DNS queries carrying encoded data`,
    };
  }
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
