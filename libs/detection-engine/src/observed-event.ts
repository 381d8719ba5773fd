import type { DnsEvent, HttpEvent, TelemetryBatch, TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { BoundedMemo } from './bounded-memo';
import type { Endpoint, ObservedEvent } from './detections/detection';
import { splitHostname, type SplitHostname } from './domain';
import { internedHostKey } from './host-keys';
import { parsePlainHttpUrl } from './plain-http-url';
import { parseUtcTimestamp } from './utc-timestamp';

/** Host of an HTTP URL; accepts URLs without a scheme (`example.com/path`), as sensors send them. */
export function urlHostname(url: string): string | undefined {
  return parseHttpUrl(url)?.hostname;
}

/** Path of an HTTP URL as {@link ObservedEvent.urlPath} holds it. */
export function urlPathOf(url: unknown): string | undefined {
  return typeof url === 'string' ? parseHttpUrl(url)?.path : undefined;
}

/**
 * Host (lower-case, without brackets or trailing dot) and path of an HTTP URL, parsed once per event: the URL
 * parser is the costliest step of reading a request, so plain URLs take a shortcut that gives the same answer.
 */
function parseHttpUrl(url: string): { hostname: string; path: string } | undefined {
  if (typeof url !== 'string') return undefined;
  const trimmed = url.trim();
  if (trimmed.length === 0) return undefined;
  const plain = parsePlainHttpUrl(trimmed);
  if (plain !== null) return plain;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed)
    ? trimmed
    : trimmed.startsWith('//')
      ? `http:${trimmed}`
      : `http://${trimmed}`;
  let parsed: URL;
  try {
    parsed = new URL(withScheme);
  } catch {
    return undefined;
  }
  const host = parsed.hostname.toLowerCase();
  const hostname = normaliseHostname(host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host);
  return hostname === undefined ? undefined : { hostname, path: parsed.pathname };
}

function normaliseHostname(name: string): string | undefined {
  let host = name.trim();
  if (host.endsWith('.')) host = host.slice(0, -1);
  return host.length === 0 ? undefined : host;
}

function eventTimeMs(event: TelemetryEvent, fallbackMs: number): number {
  if (typeof event.ts !== 'string') return fallbackMs;
  let parsed = parseUtcTimestamp(event.ts);
  if (Number.isNaN(parsed)) parsed = Date.parse(event.ts);
  return Number.isFinite(parsed) ? parsed : fallbackMs;
}

function endpointOf(event: TelemetryEvent): Endpoint {
  const ip = typeof event.srcIP === 'string' ? event.srcIP : '';
  const host = typeof event.srcHost === 'string' && event.srcHost.length > 0 ? event.srcHost : undefined;
  const mac = typeof event.srcMac === 'string' && event.srcMac.length > 0 ? event.srcMac.toLowerCase() : undefined;
  // One shape for every endpoint (absent fields undefined), built without spreading temporary objects.
  return { ip, host, mac, id: endpointId(ip, host) };
}

/**
 * The ids of named hosts, one string per name as sensors send it: a fresh `host:` concatenation per event had to be
 * lower-cased, hashed and compared character by character in the host-key memo; the same string again carries its
 * hash and compares as equal at once.
 */
const namedEndpointIds = new BoundedMemo<string>(65_536, (host) => `host:${host.toLowerCase()}`, 256);

/** See Endpoint.id. */
export function endpointId(ip: string, host: string | undefined): string {
  return host === undefined ? ip : namedEndpointIds.get(host);
}

/**
 * An ObservedEvent with every field in place, the optional ones undefined, in one order: so every event has one
 * hidden class, and the detections' many reads of its fields stay monomorphic. Adding the host name afterwards
 * had given DNS and HTTP events shapes of their own and each of them a property array.
 */
export function newObservedEvent(
  workspaceId: string,
  batchId: string,
  index: number,
  type: TelemetryType,
  event: TelemetryEvent,
  timeMs: number,
  endpoint: Endpoint,
): ObservedEvent {
  return { workspaceId, batchId, index, type, event, timeMs, endpoint, hostname: undefined, rawHostname: undefined, urlPath: undefined };
}

/** Wraps one event of a batch for the detections; undefined when the event is not an object. */
export function observeEvent(batch: TelemetryBatch, index: number): ObservedEvent | undefined {
  const event = batch.events[index];
  if (event === null || typeof event !== 'object' || Array.isArray(event)) return undefined;
  const observed = newObservedEvent(batch.workspaceId, batch.batchId, index, batch.type, event, eventTimeMs(event, batch.receivedAt), endpointOf(event));
  if (batch.type === 'dns') {
    const query = (event as DnsEvent).query;
    if (typeof query === 'string') {
      const raw = normaliseHostname(query);
      if (raw !== undefined) {
        observed.rawHostname = raw;
        observed.hostname = raw.toLowerCase();
      }
    }
  } else if (batch.type === 'http') {
    const url = parseHttpUrl((event as HttpEvent).url);
    if (url !== undefined) {
      observed.rawHostname = url.hostname;
      observed.hostname = url.hostname;
      observed.urlPath = url.path;
    }
  }
  return observed;
}

/**
 * Memoises a pure function of one event, so that several detectors reading the same derived facts (a parsed
 * request, a parsed certificate) compute them once per event. The engine hands each event to every detector
 * in turn, so remembering the latest event is enough; a WeakMap per event would cost the garbage collector dearly
 * (one ephemeron per event, kept alive as long as a window holds the event).
 */
export function perEvent<T>(compute: (observed: ObservedEvent) => T): (observed: ObservedEvent) => T {
  let lastEvent: ObservedEvent | undefined;
  let lastValue: T;
  return (observed) => {
    if (observed !== lastEvent) {
      lastValue = compute(observed);
      lastEvent = observed;
    }
    return lastValue;
  };
}

/** The latest event {@link hostKeyOf} answered for, and its key (as in perEvent). */
let hostKeyEvent: ObservedEvent | undefined;
let latestHostKey = '';

/** The state key of the event's host within its workspace, one string per host for every detection keyed by host. */
export function hostKeyOf(observed: ObservedEvent): string {
  if (observed !== hostKeyEvent) {
    latestHostKey = internedHostKey(observed.workspaceId, observed.endpoint.id);
    hostKeyEvent = observed;
  }
  return latestHostKey;
}

/**
 * Gives {@link hostKeyOf} the key of an event's endpoint where the caller already holds it (a lease's shared
 * endpoint), sparing the look-up in the workspace's memo of host keys. `hostKey` must be that endpoint's key.
 */
export function knowHostKey(observed: ObservedEvent, hostKey: string): void {
  hostKeyEvent = observed;
  latestHostKey = hostKey;
}

/** The split of the event's host name (DNS query, HTTP URL host), worked out once per event for every detection. */
export const hostnameSplitOf: (observed: ObservedEvent) => Readonly<SplitHostname> | undefined = perEvent((observed) =>
  observed.hostname === undefined ? undefined : splitHostname(observed.hostname),
);
