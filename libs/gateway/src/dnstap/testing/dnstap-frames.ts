import * as dnsPacket from 'dns-packet';
import * as protobuf from 'protobufjs';
import { DNSTAP_PROTO_PATH, MESSAGE_TYPE } from '../dnstap-message';
import { DNSTAP_CONTENT_TYPE } from '../frame-stream-session';
import { CONTROL, encodeControlFrame, encodeDataFrame } from '../frame-streams';

/** Test helpers: dnstap frames as a resolver writes them (protobufjs over the repo's `dnstap.proto`, dns-packet wire messages). */

export interface QueryFrameOptions {
  type?: keyof typeof MESSAGE_TYPE;
  srcIP: string;
  srcPort?: number;
  name: string;
  qtype?: dnsPacket.RecordType;
  /** Milliseconds since the epoch. */
  time: number;
}

let dnstapType: protobuf.Type | undefined;

function dnstap(): protobuf.Type {
  dnstapType ??= protobuf.loadSync(DNSTAP_PROTO_PATH).lookupType('dnstap.Dnstap');
  return dnstapType;
}

export function addressBytes(ip: string): Buffer {
  if (ip.includes('.')) return Buffer.from(ip.split('.').map(Number));
  const [head, tail = ''] = ip.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const all = [...groups(head), ...Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  return Buffer.from(all.flatMap((g) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}

/** A Dnstap protobuf of a query (or response) message. */
export function dnstapPayload(options: QueryFrameOptions): Buffer {
  const type = MESSAGE_TYPE[options.type ?? 'CLIENT_QUERY'];
  const isResponse = type % 2 === 0;
  const question = { type: options.qtype ?? 'A', name: options.name, class: 'IN' as const };
  const wire = dnsPacket.encode(
    isResponse
      ? { type: 'response', id: 7, flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE, questions: [question], answers: [] }
      : { type: 'query', id: 7, flags: dnsPacket.RECURSION_DESIRED, questions: [question] },
  );
  const seconds = Math.floor(options.time / 1000);
  const message: Record<string, unknown> = {
    type,
    socketFamily: options.srcIP.includes(':') ? 2 : 1,
    socketProtocol: 1,
    queryAddress: addressBytes(options.srcIP),
    queryPort: options.srcPort ?? 53000,
    responseAddress: addressBytes('10.0.0.53'),
    responsePort: 53,
    queryTimeSec: seconds,
    queryTimeNsec: (options.time - seconds * 1000) * 1e6,
  };
  if (isResponse) {
    message.responseMessage = wire;
    message.responseTimeSec = seconds;
    message.responseTimeNsec = 0;
  } else {
    message.queryMessage = wire;
  }
  const type_ = dnstap();
  return Buffer.from(type_.encode(type_.create({ identity: Buffer.from('ns1.example'), version: Buffer.from('BIND 9.18'), type: 1, message })).finish());
}

export function queryFrame(options: QueryFrameOptions): Buffer {
  return encodeDataFrame(dnstapPayload(options));
}

export const READY = encodeControlFrame(CONTROL.READY, [DNSTAP_CONTENT_TYPE]);
export const START = encodeControlFrame(CONTROL.START, [DNSTAP_CONTENT_TYPE]);
export const STOP = encodeControlFrame(CONTROL.STOP);
export const ACCEPT = encodeControlFrame(CONTROL.ACCEPT, [DNSTAP_CONTENT_TYPE]);
export const FINISH = encodeControlFrame(CONTROL.FINISH);
