import type { DnsEvent } from '@vigil/contracts';
import { seeded } from './seeded';
import {
  checkTunnelDomain,
  dotify,
  hexEncode,
  payloadRoom,
  randomBytes,
  sessionEvents,
  uint16,
  type SessionStep,
  type TunnelSessionOptions,
} from './tunnel-session';

export interface Dnscat2Options extends TunnelSessionOptions {
  /** The tunnel's zone (`<hex>.<domain>`); without one the client talks to the server directly (`dnscat.<hex>`). */
  domain?: string;
  /** Encrypted sessions (the default since 0.04): a key exchange first, then signed and encrypted packets. */
  encrypted?: boolean;
  /** `interactive`: a command shell, mostly empty polls; `upload`: every query full of data; `idle`: polls only. */
  activity?: 'interactive' | 'upload' | 'idle';
  /** Gap between polls when idle (the client's `--delay`), ms. Default 1000. */
  pollMs?: number;
  /** Query types the client picks from at random. Default TXT, CNAME, MX (the client's default). */
  qtypes?: readonly string[];
}

const MAX_LABEL = 62;
const TAG = 'dnscat';

/**
 * A dnscat2 client session (protocol.md of dnscat2): every packet hex-encoded in labels of up to 62 characters,
 * under the tunnel's domain or after the `dnscat.` tag. Packets: 16-bit packet id, type, 16-bit session id,
 * then (encrypted) a 6-byte signature and 2-byte nonce, then seq/ack and data. The session opens with a key
 * exchange (ENC INIT with a 64-byte public key) and a SYN carrying the session name; afterwards the client polls
 * with MSG packets once per delay, sending data as soon as it has some.
 */
export function dnscat2DnsEvents(n: number, opts: Dnscat2Options): DnsEvent[] {
  if (opts.domain !== undefined) checkTunnelDomain(opts.domain);
  const rng = seeded(`dnscat2:${opts.domain ?? TAG}`, opts.seed);
  const encrypted = opts.encrypted ?? true;
  const activity = opts.activity ?? 'interactive';
  const pollMs = opts.pollMs ?? 1000;
  const qtypes = opts.qtypes ?? ['TXT', 'CNAME', 'MX'];
  const room = Math.floor(payloadRoom(opts.domain ?? `${TAG}.`, MAX_LABEL) / 2);
  const sessionId = rng.int(0, 0xffff);
  let packetId = rng.int(0, 0xffff);
  let seq = rng.int(0, 0xffff);
  const ack = rng.int(0, 0xffff);
  let nonce = 0;
  let pendingBytes = 0;

  const name = (packet: number[]): string => {
    const hex = dotify(hexEncode(packet), MAX_LABEL);
    return opts.domain === undefined ? `${TAG}.${hex}` : `${hex}.${opts.domain}`;
  };
  const header = (type: number): number[] => [...uint16(packetId++ & 0xffff), type, ...uint16(sessionId)];
  const sealed = (type: number, body: number[]): number[] =>
    encrypted ? [...header(type), ...randomBytes(rng, 6), ...uint16(nonce++), ...randomBytes(rng, body.length)] : [...header(type), ...body];

  const handshake: number[][] = [];
  if (encrypted) handshake.push([...header(0x03), 0, 0, 0, 0, ...randomBytes(rng, 64)]);
  const sessionName = Array.from(`command (${rng.pick(['WS-0142', 'laptop-7', 'srv-db02', 'desktop-x'])})\0`, (c) => c.charCodeAt(0));
  handshake.push(sealed(0x00, [...uint16(seq), 0, 0x21, ...sessionName]));

  const step = (): SessionStep => {
    const qtype = rng.pick(qtypes);
    const first = handshake.shift();
    if (first !== undefined) return { name: name(first), qtype, gapMs: rng.int(20, 120) };
    const overhead = (encrypted ? 13 : 5) + 4;
    if (activity === 'upload') pendingBytes = room;
    else if (activity === 'interactive' && pendingBytes === 0 && rng.chance(0.08)) pendingBytes = rng.int(20, 1500);
    const data = Math.min(pendingBytes, room - overhead);
    pendingBytes -= data;
    seq = (seq + data) & 0xffff;
    const packet = sealed(0x01, [...uint16(seq), ...uint16(ack), ...randomBytes(rng, data)]);
    return { name: name(packet), qtype, gapMs: data > 0 || pendingBytes > 0 ? rng.int(30, 150) : pollMs + rng.int(-50, 50) };
  };
  return sessionEvents(rng, step, n, opts);
}
