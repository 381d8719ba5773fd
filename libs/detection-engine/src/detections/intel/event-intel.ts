import type { HttpEvent, IpEvent, TlsEvent } from '@vigil/contracts';
import { BoundedMemo } from '../../bounded-memo';
import type { IndicatorMatch } from '../../intel/indicator';
import type { IndicatorStore } from '../../intel/indicator-store';
import { normaliseDomain } from '../../intel/normalise';
import { hostnameSplitOf } from '../../observed-event';
import type { ObservedEvent } from '../detection';

/** Everything the intel store says about one event, looked up once and shared by all intel detectors. */
export interface EventIntel {
  /** Host the event names: DNS query, HTTP URL host, or the domain in a TLS certificate subject CN. */
  hostname?: string;
  destIp?: string;
  destPort?: number;
  matches: readonly IndicatorMatch[];
}

const NONE: readonly IndicatorMatch[] = Object.freeze([]);

/** `found` appended to `matches`, which is made on the first match (most events match nothing). */
function joined(matches: IndicatorMatch[] | undefined, found: readonly IndicatorMatch[]): IndicatorMatch[] | undefined {
  if (found.length === 0) return matches;
  const out = matches ?? [];
  out.push(...found);
  return out;
}

const DIGITS_AND_DOTS = /^[\d.]+$/;

/** Digits and dots only, or a colon: a URL host that may be an address. Names, which start with a letter, pass on one test. */
export function mayBeAddress(host: string): boolean {
  if (host.includes(':')) return true;
  const first = host.charCodeAt(0);
  const digitOrDot = (first >= 0x30 && first <= 0x39) || first === 0x2e;
  return digitOrDot && DIGITS_AND_DOTS.test(host);
}

/** Where an event goes, read from whichever fields its type has (matches still to be looked up). */
function targetsOf(observed: ObservedEvent): EventIntel {
  const event = observed.event as Partial<IpEvent & TlsEvent>;
  const destIp = typeof event.destIP === 'string' && event.destIP.length > 0 ? event.destIP : undefined;
  const destPort = Number.isInteger(event.destPort) ? event.destPort : undefined;
  let hostname = observed.hostname;
  if (hostname === undefined && observed.type === 'tls') hostname = subjectHostname((observed.event as TlsEvent).subject);
  return { hostname, destIp, destPort, matches: NONE };
}

// Servers present the same certificate to every client: a bounded memo of the (pure) subject reading.
const subjectHostnames = new BoundedMemo<string | undefined>(4096, (subject) => subjectHostnameUncached(subject), 1024);

/** The host name in a certificate subject's CN (wildcards reduced to their parent), if it is one. */
export function subjectHostname(subject: unknown): string | undefined {
  return typeof subject === 'string' ? subjectHostnames.get(subject) : undefined;
}

function subjectHostnameUncached(subject: string): string | undefined {
  const cn = /(?:^|[,/]\s*)CN\s*=\s*([^,/]+)/i.exec(subject)?.[1]?.trim();
  if (cn === undefined) return undefined;
  const name = normaliseDomain(cn.replace(/^\*\./, ''));
  return name !== undefined && name.includes('.') ? name : undefined;
}

/**
 * Looks up an event's host, address, address:port, URL and TLS fingerprints, once per event: every intel
 * detector asks about the same event in turn, so the latest answer is kept.
 */
export class EventIntelLookup {
  private lastEvent?: ObservedEvent;
  private lastIntel: EventIntel = { matches: NONE };

  constructor(readonly store: IndicatorStore) {}

  of(observed: ObservedEvent): EventIntel {
    if (observed !== this.lastEvent) {
      this.lastIntel = this.lookUp(observed);
      this.lastEvent = observed;
    }
    return this.lastIntel;
  }

  private lookUp(observed: ObservedEvent): EventIntel {
    const intel = targetsOf(observed);
    const { hostname, destIp, destPort } = intel;
    let matches: IndicatorMatch[] | undefined;
    // The event's own host name is answered through its split, which keeps the matches for the name's next events.
    if (hostname !== undefined) matches = joined(matches, this.store.matchNamedDomain(hostname, hostname === observed.hostname ? hostnameSplitOf(observed) : undefined));
    if (observed.type === 'http') {
      const url = (observed.event as HttpEvent).url;
      if (typeof url === 'string') matches = joined(matches, this.store.matchUrl(url));
      // A URL naming an address directly (http://1.2.3.4/...) goes to that address.
      if (hostname !== undefined && mayBeAddress(hostname)) matches = joined(matches, this.store.matchIp(hostname));
    }
    if (destIp !== undefined) {
      matches = joined(matches, this.store.matchIp(destIp));
      if (destPort !== undefined) matches = joined(matches, this.store.matchIpPort(destIp, destPort));
    }
    if (observed.type === 'tls') {
      const tls = observed.event as TlsEvent;
      if (typeof tls.ja3 === 'string') matches = joined(matches, this.store.matchJa3(tls.ja3));
      if (typeof tls.ja3s === 'string') matches = joined(matches, this.store.matchJa3s(tls.ja3s));
      if (typeof tls.certHash === 'string') matches = joined(matches, this.store.matchCert(tls.certHash));
    }
    intel.matches = matches ?? NONE;
    return intel;
  }
}
