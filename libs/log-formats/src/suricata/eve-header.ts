import { isoFromTimestamp, portOf, textOf } from '../values';

/** A Suricata EVE record (one JSON object). */
export type EveRecord = Record<string, unknown>;

/** The fields every EVE record carries: time and the flow tuple. */
export interface EveHeader {
  ts: string;
  srcIP?: string;
  srcPort?: number;
  destIP?: string;
  destPort?: number;
  proto?: string;
}

/** `timestamp` (`2017-04-07T22:24:37.251547+0100`) and the tuple; undefined when the time is unusable. */
export function eveHeader(r: EveRecord): EveHeader | undefined {
  const ts = isoFromTimestamp(r.timestamp);
  if (ts === undefined) return undefined;
  return { ts, srcIP: textOf(r.src_ip), srcPort: portOf(r.src_port), destIP: textOf(r.dest_ip), destPort: portOf(r.dest_port), proto: textOf(r.proto)?.toLowerCase() };
}

/** The section named after the event type (`"dns": {...}`), or an empty object. */
export function section(r: EveRecord, name: string): Record<string, unknown> {
  const value = r[name];
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The client's MAC when Ethernet logging is on (`ether.src_mac`, Suricata 7 flows: `ether.src_macs[0]`). */
export function sourceMac(r: EveRecord): string | undefined {
  const ether = section(r, 'ether');
  return textOf(ether.src_mac) ?? (Array.isArray(ether.src_macs) ? textOf(ether.src_macs[0]) : undefined);
}
