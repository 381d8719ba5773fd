import { SocketAddress } from 'node:net';
import * as dnsPacket from 'dns-packet';
import type { DnsEvent } from '@vigil/contracts';
import { MESSAGE_TYPE, type DnstapMessage } from './dnstap-message';

export type MappedMessage = { kind: 'events'; events: DnsEvent[] } | { kind: 'skipped'; reason: string } | { kind: 'rejected'; reason: string };

/** Message types that come in query/response pairs, by family; the other types (stub, tool, update) are skipped. */
const QUERY_FAMILY: Readonly<Record<number, string>> = {
  [MESSAGE_TYPE.AUTH_QUERY]: 'auth',
  [MESSAGE_TYPE.RESOLVER_QUERY]: 'resolver',
  [MESSAGE_TYPE.CLIENT_QUERY]: 'client',
  [MESSAGE_TYPE.FORWARDER_QUERY]: 'forwarder',
};
const RESPONSE_FAMILY: Readonly<Record<number, string>> = {
  [MESSAGE_TYPE.AUTH_RESPONSE]: 'auth',
  [MESSAGE_TYPE.RESOLVER_RESPONSE]: 'resolver',
  [MESSAGE_TYPE.CLIENT_RESPONSE]: 'client',
  [MESSAGE_TYPE.FORWARDER_RESPONSE]: 'forwarder',
};

/**
 * dnstap messages of one connection → dnsEvents: `srcIP`/`srcPort` = the query's initiator (`query_address`,
 * `query_port`), `query`/`qtype` = each question of the DNS message, `ts` = `query_time` (else `response_time`;
 * else left to the server). One lookup is one event: a response is skipped once the sender has logged a query of
 * the same family (client, resolver, auth, forwarder) on this connection, so a resolver that logs both counts
 * each lookup once, and one that logs only responses is still heard.
 */
export class DnstapEventMapper {
  private readonly familiesWithQueries = new Set<string>();

  map(message: DnstapMessage): MappedMessage {
    const queryFamily = QUERY_FAMILY[message.type];
    const responseFamily = RESPONSE_FAMILY[message.type];
    if (queryFamily !== undefined) {
      this.familiesWithQueries.add(queryFamily);
      return toEvents(message, message.queryMessage);
    }
    if (responseFamily !== undefined) {
      if (this.familiesWithQueries.has(responseFamily)) return { kind: 'skipped', reason: 'response_of_logged_query' };
      return toEvents(message, message.queryMessage ?? message.responseMessage);
    }
    return { kind: 'skipped', reason: 'message_type' };
  }
}

function toEvents(message: DnstapMessage, wire: Buffer | undefined): MappedMessage {
  if (wire === undefined) return { kind: 'rejected', reason: 'missing_dns_message' };
  let questions: dnsPacket.Question[] | undefined;
  try {
    questions = dnsPacket.decode(wire).questions;
  } catch {
    return { kind: 'rejected', reason: 'invalid_dns_message' };
  }
  if (!questions || questions.length === 0) return { kind: 'rejected', reason: 'no_question' };
  let srcIP: string | undefined;
  if (message.queryAddress !== undefined) {
    srcIP = addressOf(message.queryAddress);
    if (srcIP === undefined) return { kind: 'rejected', reason: 'invalid_query_address' };
  }
  const ts = isoOf(message.queryTimeSec, message.queryTimeNsec) ?? isoOf(message.responseTimeSec, message.responseTimeNsec);
  const srcPort = message.queryPort !== undefined && message.queryPort > 0 && message.queryPort <= 65535 ? message.queryPort : undefined;
  const events = questions.map((question) => {
    // A qtype number is named by the intake's normalisation, as for `POST /v1/events/dns`.
    const event: Omit<Partial<DnsEvent>, 'qtype'> & { query: string; qtype?: string | number } = { query: question.name, qtype: qtypeOf(question.type) };
    if (ts !== undefined) event.ts = ts;
    if (srcIP !== undefined) event.srcIP = srcIP;
    if (srcPort !== undefined) event.srcPort = srcPort;
    return event as unknown as DnsEvent;
  });
  return { kind: 'events', events };
}

/** dns-packet names the types it knows; others come as `UNKNOWN_<n>`, whose number the intake names (65 → HTTPS). */
function qtypeOf(type: string): string | number {
  const unknown = /^UNKNOWN_(\d+)$/.exec(type);
  return unknown ? Number(unknown[1]) : type;
}

/** 4 or 16 address bytes → text; an IPv4-mapped IPv6 address (dual-stack listeners) → the IPv4 address. */
export function addressOf(bytes: Buffer): string | undefined {
  if (bytes.length === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
  if (bytes.length !== 16) return undefined;
  if (bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return addressOf(bytes.subarray(12));
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return new SocketAddress({ address: groups.join(':'), family: 'ipv6' }).address;
}

function isoOf(seconds: number | undefined, nanoseconds: number | undefined): string | undefined {
  if (seconds === undefined || seconds <= 0) return undefined;
  const millis = seconds * 1000 + Math.floor((nanoseconds ?? 0) / 1e6);
  const date = new Date(millis);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
