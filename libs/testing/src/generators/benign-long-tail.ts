import type { DnsEvent } from '@vigil/contracts';
import { POPULAR_DOMAINS } from '../popular-domains';
import { createRng, type Rng } from '../prng';
import { cdnHostname } from './cdn-hostnames';

/**
 * A day of web browsing by many hosts, shaped for the per-host DGA decision: the lookups that reach it are the
 * unranked ("long-tail") sites people visit, the other unranked domains those pages pull in, DNS prefetch of
 * the links on search-result and news-aggregator pages (bursts of many never-seen domains within seconds), and
 * cloud/CDN host names with provider-generated labels. Deterministic for a seed; one host at a time, in time
 * order, so that 20,000 host-days need no more memory than one.
 */
export interface LongTailTrafficOptions {
  /** Registered domains in no popularity ranking (the evaluation passes its held-out benign slice). */
  longTail: readonly string[];
  /** Ranked domains (default: the generators' popular domains). */
  popular?: readonly string[];
  /** Also emit the lookups of popular sites (default true; detectors that skip ranked names can do without). */
  includePopular?: boolean;
  seed?: number | string;
  /** Midnight of the simulated day, in ms since the epoch (default 2026-11-21T00:00:00Z). */
  dayStartMs?: number;
}

/** Mean gap between page visits while active, the share of unranked sites, and how often each extra happens. */
const VISIT_GAP_MS = 90_000;
const LONG_TAIL_SITE_SHARE = 0.3;
const FAVOURITE_SITES = 25;
const LINK_PAGE_SHARE = 0.03;
const COMPANION_SHARE = 0.3;
const CDN_SHARE = 0.35;

export interface HostDay {
  srcIP: string;
  events: DnsEvent[];
}

function hostAddress(index: number): string {
  return `10.${64 + Math.floor(index / 65_536)}.${Math.floor(index / 256) % 256}.${index % 256}`;
}

/** Active periods of one host's day: a working day, sometimes an evening. [startMs, endMs] offsets. */
function activePeriods(rng: Rng): [number, number][] {
  const hour = 3_600_000;
  const start = 7 * hour + rng.float(0, 3 * hour);
  const periods: [number, number][] = [[start, start + rng.float(3, 5) * hour], [start + 5.5 * hour, start + rng.float(8, 10) * hour]];
  if (rng.chance(0.25)) {
    const evening = 19 * hour + rng.float(0, 2 * hour);
    periods.push([evening, evening + rng.float(0.5, 2) * hour]);
  }
  return periods;
}

/** The DNS lookups of host `index` during one day, in time order. */
export function longTailHostDay(index: number, options: LongTailTrafficOptions): HostDay {
  if (options.longTail.length === 0) throw new RangeError('longTail must hold at least one domain');
  const rng = createRng(`long-tail:${options.seed ?? 1}:${index}`);
  const popular = options.popular ?? POPULAR_DOMAINS;
  const includePopular = options.includePopular ?? true;
  const dayStart = options.dayStartMs ?? Date.parse('2026-11-21T00:00:00Z');
  const srcIP = hostAddress(index);
  const favourites = Array.from({ length: FAVOURITE_SITES }, () => rng.pick(options.longTail));
  const lookups: [number, string][] = [];
  const lookup = (at: number, query: string): void => void lookups.push([at, query]);
  const popularLookup = (at: number): void => {
    if (includePopular) lookup(at, `${rng.pick(['www.', '', 'static.', 'api.', 'cdn.'])}${popular[Math.floor(Math.pow(rng.next(), 2) * popular.length)]}`);
  };
  for (const [from, to] of activePeriods(rng)) {
    for (let t = from + rng.exponential(VISIT_GAP_MS); t < to; t += rng.exponential(VISIT_GAP_MS)) {
      const at = dayStart + Math.floor(t);
      const longTailSite = rng.chance(LONG_TAIL_SITE_SHARE);
      if (longTailSite) {
        const site = rng.chance(0.5) ? rng.pick(favourites) : rng.pick(options.longTail);
        lookup(at, rng.chance(0.6) ? `www.${site}` : site);
        if (rng.chance(COMPANION_SHARE)) for (let k = rng.int(1, 3); k > 0; k--) lookup(at + rng.int(100, 2000), rng.pick(options.longTail));
      } else popularLookup(at);
      for (let k = rng.int(2, 8); k > 0; k--) popularLookup(at + rng.int(50, 2000));
      if (rng.chance(CDN_SHARE)) for (let k = rng.int(1, 3); k > 0; k--) lookup(at + rng.int(50, 2500), cdnHostname(rng));
      if (rng.chance(LINK_PAGE_SHARE)) {
        // A search-result or aggregator page: the browser prefetches the DNS of its outbound links.
        for (let k = rng.int(5, 25); k > 0; k--) lookup(at + rng.int(200, 3000), rng.pick(options.longTail));
      }
    }
  }
  lookups.sort((a, b) => a[0] - b[0]);
  return { srcIP, events: lookups.map(([at, query]) => ({ ts: new Date(at).toISOString(), srcIP, query, qtype: 'A' })) };
}

/** Host-days of `hosts` hosts, generated one at a time. */
export function* longTailTraffic(hosts: number, options: LongTailTrafficOptions): Generator<HostDay> {
  if (!Number.isInteger(hosts) || hosts < 1 || hosts > 1_000_000) throw new RangeError(`hosts must be an integer between 1 and 1000000, got ${hosts}`);
  for (let i = 0; i < hosts; i++) yield longTailHostDay(i, options);
}
