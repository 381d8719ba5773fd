import type { HttpEvent, IpEvent, TlsEvent } from '@vigil/contracts';
import type { IndicatorMatch } from '../../intel/indicator';
import type { IndicatorStore } from '../../intel/indicator-store';
import { normaliseDomain } from '../../intel/normalise';
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

/** Where an event goes, read from whichever fields its type has. */
function targetsOf(observed: ObservedEvent): { hostname?: string; destIp?: string; destPort?: number } {
  const event = observed.event as Partial<IpEvent & TlsEvent>;
  const destIp = typeof event.destIP === 'string' && event.destIP.length > 0 ? event.destIP : undefined;
  const destPort = Number.isInteger(event.destPort) ? event.destPort : undefined;
  let hostname = observed.hostname;
  if (hostname === undefined && observed.type === 'tls') hostname = subjectHostname((observed.event as TlsEvent).subject);
  return { hostname, destIp, destPort };
}

/** The host name in a certificate subject's CN (wildcards reduced to their parent), if it is one. */
export function subjectHostname(subject: unknown): string | undefined {
  if (typeof subject !== 'string') return undefined;
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
    const { hostname, destIp, destPort } = targetsOf(observed);
    let matches: IndicatorMatch[] | undefined;
    const add = (found: readonly IndicatorMatch[]): void => {
      if (found.length > 0) (matches ??= []).push(...found);
    };
    if (hostname !== undefined) add(this.store.matchDomain(hostname));
    if (observed.type === 'http') {
      const url = (observed.event as HttpEvent).url;
      if (typeof url === 'string') add(this.store.matchUrl(url));
      // A URL naming an address directly (http://1.2.3.4/...) goes to that address.
      if (hostname !== undefined && /^[\d.]+$|:/.test(hostname)) add(this.store.matchIp(hostname));
    }
    if (destIp !== undefined) {
      add(this.store.matchIp(destIp));
      if (destPort !== undefined) add(this.store.matchIpPort(destIp, destPort));
    }
    if (observed.type === 'tls') {
      const tls = observed.event as TlsEvent;
      if (typeof tls.ja3 === 'string') add(this.store.matchJa3(tls.ja3));
      if (typeof tls.ja3s === 'string') add(this.store.matchJa3s(tls.ja3s));
      if (typeof tls.certHash === 'string') add(this.store.matchCert(tls.certHash));
    }
    return { hostname, destIp, destPort, matches: matches ?? NONE };
  }
}
