import type { DnsEvent } from '@vigil/contracts';
import { seeded } from './seeded';
import {
  base64Encode,
  checkTunnelDomain,
  dotify,
  payloadRoom,
  randomBytes,
  sessionEvents,
  uint16,
  type SessionStep,
  type TunnelSessionOptions,
} from './tunnel-session';

export interface Dns2tcpOptions extends TunnelSessionOptions {
  /** The tunnel's zone (`dns2tcpc -z`). */
  domain: string;
  /** `TXT` (default) or `KEY` (`dns2tcpc -T`). */
  qtype?: 'TXT' | 'KEY';
  /**
   * `interactive`: an SSH session through the tunnel (its key exchange first, then polls between keystrokes);
   * `upload`: a bulk transfer; `idle`: connected, polls only. Default interactive.
   */
  activity?: 'interactive' | 'upload' | 'idle';
}

const MAX_LABEL = 63;
const NOP = 0x04;
const DATA = 0x08;
const ACK = 0x10;

/**
 * A dns2tcp client session (dns2tcp 0.5): each query carries a 7-byte header (session id, ack, seq, type) and any
 * data, base64-encoded (standard alphabet, `+` and `/`, no padding) in labels of up to 63 characters, all TXT or
 * all KEY queries. After the authentication (a challenge answered with an HMAC-SHA1) and the resource request,
 * the client keeps polling with empty packets so that the server can send, and sends data when it has some.
 */
export function dns2tcpDnsEvents(n: number, opts: Dns2tcpOptions): DnsEvent[] {
  checkTunnelDomain(opts.domain);
  const rng = seeded(`dns2tcp:${opts.domain}`, opts.seed);
  const qtype = opts.qtype ?? 'TXT';
  const activity = opts.activity ?? 'interactive';
  const room = Math.floor((payloadRoom(opts.domain, MAX_LABEL) * 3) / 4);
  const sessionId = rng.int(0, 0xffff);
  let seq = rng.int(0, 0xffff);
  let ack = rng.int(0, 0xffff);
  // An SSH connection opens with its version exchange and key exchange: a few kilobytes each way.
  let pendingBytes = activity === 'interactive' ? rng.int(1500, 3000) : 0;

  const packet = (type: number, data: number[]): string =>
    `${dotify(base64Encode([...uint16(sessionId), ...uint16(ack), ...uint16(seq), type, ...data]), MAX_LABEL)}.${opts.domain}`;
  const text = (s: string): number[] => Array.from(s, (c) => c.charCodeAt(0));
  const handshake = [
    packet(0x00, text('auth')),
    packet(0x00, randomBytes(rng, 20)),
    packet(0x00, text(rng.pick(['ssh', 'smtp', 'socks', 'rdp']))),
  ];

  const step = (): SessionStep => {
    const first = handshake.shift();
    if (first !== undefined) return { name: first, qtype, gapMs: rng.int(40, 200) };
    seq = (seq + 1) & 0xffff;
    if (rng.chance(0.5)) ack = (ack + 1) & 0xffff;
    if (activity === 'upload') pendingBytes = room;
    else if (activity === 'interactive' && pendingBytes === 0 && rng.chance(0.25)) pendingBytes = rng.int(30, 900);
    const data = Math.min(pendingBytes, room - 7);
    pendingBytes -= data;
    const name = data > 0 ? packet(DATA | ACK, randomBytes(rng, data)) : packet(NOP, []);
    return { name, qtype, gapMs: data > 0 ? rng.int(20, 120) : rng.int(150, 600) };
  };
  return sessionEvents(rng, step, n, opts);
}
