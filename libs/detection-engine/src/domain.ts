import { parse } from 'tldts';
import { BoundedMemo } from './bounded-memo';
import type { IndicatorMatch } from './intel/indicator';
import type { PopularitySet, PopularityTier } from './popularity/popularity';

/** A host name split at its registrable domain (public suffix list, ICANN + private sections). */
export interface SplitHostname {
  /** Lower-case host name without a trailing dot. */
  hostname: string;
  /** e.g. `example.co.uk` for `a.b.example.co.uk`. */
  registeredDomain: string;
  /** Labels left of the registered domain, lower-case, '' when none (`a.b` for `a.b.example.co.uk`). */
  subdomain: string;
  /**
   * Answers about the name that detections keep with its split, which the memo below shares between a name's
   * events, so that a repeated name's next events skip their look-ups (see {@link NameMemo}).
   */
  readonly memo: NameMemo;
}

/**
 * Per-name answers kept with a split, each with the owner it was computed for (an answer for other rankings, another
 * intel store or an older generation of its lists is worked out again). The rankings hold 100,000 names and the
 * intel zones a filter of their own: look-ups that mostly miss the CPU caches, asked again for every event of a name.
 */
export interface NameMemo {
  /** The registered domain's popularity tier (popularity/event-tier.ts), for `rankings`. */
  rankings: PopularitySet | undefined;
  tier: PopularityTier | undefined;
  /** The intel matches of the host name and its parent zones (IndicatorStore.matchSplitDomain). */
  intelStore: unknown;
  intelGeneration: number;
  intelMatches: readonly IndicatorMatch[];
  /** The brand whose own registered domain this is, or null (imposter_domain), for the rankings `brandOwner`. */
  brandOwner: unknown;
  brand: string | null;
}

/** A memo with no answers yet. */
export function emptyNameMemo(): NameMemo {
  return { rankings: undefined, tier: undefined, intelStore: undefined, intelGeneration: 0, intelMatches: NO_INTEL_MATCHES, brandOwner: undefined, brand: null };
}

const NO_INTEL_MATCHES: readonly IndicatorMatch[] = Object.freeze([]);

const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;
const DOT = 0x2e;
const HYPHEN = 0x2d;

const PARSE_OPTIONS = {
  allowPrivateDomains: true,
  // Query names are host names, never URLs: base64 tunnel labels contain '/', which URL extraction would cut at.
  extractHostname: false,
  // Labels left of the registrable domain may carry any bytes (DNS allows it, tunnels rely on it);
  // the registrable part is validated below instead.
  validateHostname: false,
} as const;

// Several detections split the same name of one event, and traffic repeats names: a bounded memo of the
// (pure) split, keyed by the name as given. 32,768 names instead of 8,192 made one scoring thread alone about 6 %
// faster on the sustained workload (bench/scoring-steady.ts), but the whole all-in-one scored slower in the
// sustained bench and held about 10 MB more: its maps compete for the caches with everything else in the process.
// About half the names of the sustained workload are not in the memo, most of them asked for once: a name is held
// from its second request on (admitOnRepeat), which left the scoring thread's promoted garbage about a quarter
// lower and its cost per event about 4 % lower (bench/scoring-steady.ts, three paired runs of two rounds).
const splitCache = new BoundedMemo<Readonly<SplitHostname> | undefined>(8192, (name) => splitUncached(name), MAX_NAME_LENGTH + 1, true);

/**
 * Splits a host name at its registered domain. Returns undefined for IP addresses, bare public
 * suffixes (`com`, `co.uk`), over-long names and names whose registrable part is not a valid host name.
 * The result is shared between callers (frozen).
 */
export function splitHostname(name: string): Readonly<SplitHostname> | undefined {
  if (typeof name !== 'string') return undefined;
  return splitCache.get(name);
}

function splitUncached(name: string): Readonly<SplitHostname> | undefined {
  let hostname = name.trim().toLowerCase();
  if (hostname.endsWith('.')) hostname = hostname.slice(0, -1);
  if (hostname.length === 0 || hostname.length > MAX_NAME_LENGTH) return undefined;
  if (/\s/.test(hostname)) return undefined;

  const parsed = parse(hostname, PARSE_OPTIONS);
  if (parsed.isIp || !parsed.domain) return undefined;
  const domain = parsed.domain;
  if (!isRegistrableName(domain)) return undefined;
  if (hostname !== domain && !hostname.endsWith(`.${domain}`)) return undefined;

  const subdomain = hostname === domain ? '' : hostname.slice(0, hostname.length - domain.length - 1);
  return Object.freeze({ hostname, registeredDomain: domain, subdomain, memo: emptyNameMemo() });
}

/**
 * Whether every dot-separated label of a lower-case name is 1-63 letters, digits, hyphens and underscores
 * (SRV/DKIM-style labels), with no leading or trailing hyphen. A scan of character codes: splitting the name and
 * testing each label against a pattern was half the cost of splitting a name the memo had not seen.
 */
export function isRegistrableName(name: string): boolean {
  let labelStart = 0;
  for (let i = 0; i <= name.length; i++) {
    const code = i === name.length ? DOT : name.charCodeAt(i);
    if (code === DOT) {
      const length = i - labelStart;
      if (length === 0 || length > MAX_LABEL_LENGTH || name.charCodeAt(labelStart) === HYPHEN || name.charCodeAt(i - 1) === HYPHEN) return false;
      labelStart = i + 1;
    } else if (!((code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === HYPHEN || code === 0x5f)) {
      return false;
    }
  }
  return true;
}

/** The registered (registrable) domain of a host name, or undefined for IPs and invalid names. */
export function registeredDomain(name: string): string | undefined {
  return splitHostname(name)?.registeredDomain;
}

/**
 * Zones for {@link matchZone}: lower-case, no leading or trailing dots, and the lengths they come in, so that a
 * parent of a name is only cut out and looked up when some zone has its length (most names have no parent of
 * any zone's length, and cutting each one out made a string per parent per event).
 */
export class ZoneSet {
  private readonly zones: ReadonlySet<string>;
  private readonly lengths = new Uint8Array(MAX_NAME_LENGTH + 1);

  constructor(zones: Iterable<string>) {
    this.zones = new Set([...zones].map((z) => z.trim().toLowerCase().replace(/^\.+|\.+$/g, '')));
    for (const zone of this.zones) if (zone.length <= MAX_NAME_LENGTH) this.lengths[zone.length] = 1;
  }

  has(zone: string): boolean {
    return this.zones.has(zone);
  }

  /** Whether some zone is `length` characters long. */
  hasLength(length: number): boolean {
    return this.lengths[length] === 1;
  }
}

export function zoneSet(zones: readonly string[]): ZoneSet {
  return new ZoneSet(zones);
}

/** The zone of `zones` that `hostname` (lower-case) equals or lies under, checking each parent once, most specific first. */
export function matchZone(hostname: string, zones: ZoneSet): string | undefined {
  for (let start = 0; ; ) {
    const length = hostname.length - start;
    if (zones.hasLength(length)) {
      const suffix = start === 0 ? hostname : hostname.slice(start);
      if (zones.has(suffix)) return suffix;
    }
    const dot = hostname.indexOf('.', start);
    if (dot < 0) return undefined;
    start = dot + 1;
  }
}
