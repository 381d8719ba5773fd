import type { HttpEvent } from '@vigil/contracts';
import { hostnameSplitOf, perEvent } from '../../observed-event';
import type { SplitHostname } from '../../domain';
import type { PopularitySet } from '../../popularity';
import { tierOfSplit } from '../../popularity/event-tier';
import type { ObservedEvent } from '../detection';
import { isPublicAddress, parseAddress } from '../network/ip-ranges';

/** What the HTTP detections read from one request. */
export interface HttpRequest {
  event: HttpEvent;
  /** Lower-case URL host (an address for raw-IP URLs). */
  host: string;
  /** Set when the URL host is an IP address. */
  ipLiteral: boolean;
  /** Registered domain of the host (undefined for addresses and bare suffixes). */
  domain?: string;
  /** The host's split (the event's own), which keeps the registered domain's tier for the name's next events. */
  split: Readonly<SplitHostname> | undefined;
  /** Decoded URL path without query ('' when unparsable). */
  path: string;
  userAgent?: string;
  /** False when the response status says nothing was delivered (3xx-5xx); a 0 or missing status counts as delivered. */
  delivered: boolean;
}

function decodedPath(path: string): string {
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The request facts of an HTTP event, read once per event and shared by the HTTP detections. */
export const readHttpRequest: (observed: ObservedEvent) => HttpRequest | undefined = perEvent(readHttpRequestOnce);

function readHttpRequestOnce(observed: ObservedEvent): HttpRequest | undefined {
  if (observed.type !== 'http' || observed.hostname === undefined) return undefined;
  const event = observed.event as HttpEvent;
  const host = observed.hostname;
  // A name that splits at a registered domain is no address; the split is the event's own, shared by the detections.
  const split = hostnameSplitOf(observed);
  const ipLiteral = split === undefined && parseAddress(host) !== undefined;
  const status = typeof event.status === 'number' ? event.status : 0;
  const ua = typeof event.userAgent === 'string' && event.userAgent.trim().length > 0 ? event.userAgent.trim() : undefined;
  // One object shape for every request (userAgent present, perhaps undefined).
  return {
    event,
    host,
    ipLiteral,
    domain: split?.registeredDomain,
    split,
    path: observed.urlPath === undefined ? '' : decodedPath(observed.urlPath),
    userAgent: ua,
    delivered: status === 0 || (status >= 200 && status < 300),
  };
}

/** True when the destination is a public address or an unpopular registered domain. */
export function isUnpopularDestination(request: HttpRequest, rankings: PopularitySet): boolean {
  if (request.ipLiteral) return isPublicAddress(request.host);
  return request.split !== undefined && tierOfSplit(request.split, rankings) === undefined;
}

/** `the unpopular domain evil.top` / `the address 203.0.113.9`, for descriptions. */
export function describeDestination(request: HttpRequest): string {
  return request.ipLiteral ? `the address ${request.host}` : `${request.host}${request.domain !== undefined ? ` (${request.domain}, not in the popularity rankings)` : ''}`;
}
