import type { IpEvent } from '@vigil/contracts';
import type { ObservedEvent } from '../detection';
import { hostKeyOf, perEvent } from '../../observed-event';
import { isPublicAddress } from './ip-ranges';

/** An IP flow event with its fields checked: a field that is missing or unusable is undefined. */
export interface Flow {
  srcIP: string;
  /** Endpoint identity for state keys (host when known, else the IP): see Endpoint.id. */
  srcKey: string;
  destIP?: string;
  destPort?: number;
  /** Lower-case transport protocol (`tcp`, `udp`, `icmp`, ...). */
  proto?: string;
  /** Lower-case application protocol as the sensor named it (`ssh`, `https`, ...). */
  app?: string;
  /** Lower-case action (`allowed`, `denied`, ...). */
  action?: string;
  bytesIn?: number;
  bytesOut?: number;
  packetsIn?: number;
  packetsOut?: number;
  /** Seconds. */
  durationS?: number;
  destIsPublic: boolean;
  /** State key of the source host within its workspace, built once for every detector. */
  hostKey: string;
  /** State key of (source host, destination IP) within the workspace; equal to hostKey without a destination. */
  pairKey: string;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function port(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 65_535 ? value : undefined;
}

function word(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim().toLowerCase();
  return trimmed.length > 0 ? trimmed : undefined;
}

/**
 * The flow of an `ip` event, or undefined for other event types and flows without a source address. Every
 * network detector reads the same event, so it is parsed (and its address classified) once per event.
 */
export const readFlow: (observed: ObservedEvent) => Flow | undefined = perEvent((observed) => parseFlow(observed));

function parseFlow(observed: ObservedEvent): Flow | undefined {
  if (observed.type !== 'ip' || observed.endpoint.ip === '') return undefined;
  const event = observed.event as IpEvent;
  const destIP = typeof event.destIP === 'string' && event.destIP.length > 0 ? event.destIP : undefined;
  const hostKey = hostKeyOf(observed);
  return {
    srcIP: observed.endpoint.ip,
    srcKey: observed.endpoint.id,
    destIP,
    destPort: port(event.destPort),
    proto: word(event.proto),
    app: word(event.app),
    action: word(event.action),
    bytesIn: count(event.bytesIn),
    bytesOut: count(event.bytesOut),
    packetsIn: count(event.packetsIn),
    packetsOut: count(event.packetsOut),
    durationS: count(event.duration),
    destIsPublic: isPublicAddress(destIP),
    hostKey,
    pairKey: destIP === undefined ? hostKey : `${hostKey}\u0000${destIP}`,
  };
}

const BLOCKED_ACTIONS = new Set(['deny', 'denied', 'drop', 'dropped', 'reject', 'rejected', 'block', 'blocked', 'reset', 'refused']);

/** The firewall or sensor says the connection did not go through. */
export function isBlocked(flow: Flow): boolean {
  return flow.action !== undefined && BLOCKED_ACTIONS.has(flow.action);
}

/**
 * A connection attempt that got nothing back: blocked, or something was sent and nothing received.
 * A flow with no counters at all (or all zero) says nothing either way: some sensors send zeros for
 * fields they do not fill, so it is not counted as unanswered.
 */
export function isUnanswered(flow: Flow): boolean {
  if (isBlocked(flow)) return true;
  const sent = (flow.bytesOut ?? 0) > 0 || (flow.packetsOut ?? 0) > 0;
  const nothingBack = (flow.bytesIn ?? 0) === 0 && (flow.packetsIn ?? 0) === 0 && (flow.bytesIn !== undefined || flow.packetsIn !== undefined);
  return sent && nothingBack;
}

export function isIcmp(flow: Flow): boolean {
  return flow.proto === 'icmp' || flow.proto === 'icmp6' || flow.proto === 'icmpv6' || flow.proto === 'ipv6-icmp' || flow.app === 'icmp';
}

/** TCP, or unknown transport with a destination port (most sensors omit `proto` for TCP only by accident). */
export function isTcpLike(flow: Flow): boolean {
  return flow.proto === 'tcp' || (flow.proto === undefined && flow.destPort !== undefined && !isIcmp(flow));
}

/** `10.0.0.9:443`, `[2001:db8::1]:443`, or the bare address without a port. */
export function formatEndpoint(ip: string, destPort: number | undefined): string {
  if (destPort === undefined) return ip;
  return ip.includes(':') ? `[${ip}]:${destPort}` : `${ip}:${destPort}`;
}

/** Human-readable byte count: `1.4 KB`, `200.0 MB` (decimal units, as transfer sizes are usually quoted). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** `45 s`, `10 min`, `2 h` for window lengths. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}
