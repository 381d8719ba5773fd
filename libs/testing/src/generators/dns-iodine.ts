import type { DnsEvent } from '@vigil/contracts';
import type { Rng } from '../prng';
import { seeded } from './seeded';
import { checkTunnelDomain, dotify, packBits, payloadRoom, randomBytes, sessionEvents, type SessionStep, type TunnelSessionOptions } from './tunnel-session';

export type IodineUpstreamEncoding = 'base32' | 'base64' | 'base64u' | 'base128';
export type IodineDownstreamEncoding = 'base32' | 'base64' | 'base128' | 'raw';

export interface IodineOptions extends TunnelSessionOptions {
  /** The tunnel's top domain (`iodine <server> <topdomain>`). */
  domain: string;
  /** Upstream codec the client switches to after the handshake (base32 until then). Default base128. */
  upstream?: IodineUpstreamEncoding;
  /** Downstream codec (`-O`); `raw` needs NULL or PRIVATE queries. Default raw. */
  downstream?: IodineDownstreamEncoding;
  /** Query type (`-T`). Default NULL. */
  qtype?: 'NULL' | 'PRIVATE' | 'TXT';
  /**
   * `interactive`: an SSH session (its key exchange right after the handshake, then keystrokes and output with
   * lazy-mode pings between); `upload`: a bulk transfer; `idle`: the handshake, then pings only. Default interactive.
   */
  activity?: 'interactive' | 'upload' | 'idle';
}

// iodine's own alphabets (encoding.c): base32 is a-z0-5, base64 adds '-' and '+', base64u '-' and '_', base128
// the Latin-1 bytes 0xBC-0xFD.
const ALPHABETS: Record<IodineUpstreamEncoding, string> = {
  base32: 'abcdefghijklmnopqrstuvwxyz012345',
  base64: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789+',
  base64u: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789_',
  base128: 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789' + String.fromCharCode(...Array.from({ length: 66 }, (_, i) => 0xbc + i)),
};
const BITS: Record<IodineUpstreamEncoding, number> = { base32: 5, base64: 6, base64u: 6, base128: 7 };
const SWITCH_CHAR: Record<IodineUpstreamEncoding, string> = { base32: 'f', base64: 'g', base64u: '0', base128: 'h' };
const DOWNSTREAM_CHAR: Record<IodineDownstreamEncoding, string> = { base32: 't', base64: 's', base128: 'v', raw: 'r' };
const LABEL = 57; // iodine puts a dot after every 57 characters

function encode(bytes: readonly number[], encoding: IodineUpstreamEncoding): string {
  return packBits(bytes, BITS[encoding], ALPHABETS[encoding]);
}

/**
 * An iodine client session (protocol 0x00000502, doc/proto_00000502.txt): the handshake (`v` version, `l`
 * login, `i` address, `z` upstream codec checks, `s` codec switch, `o` options, `y` downstream codec checks, `r`
 * fragment-size probes, `n` fragment size), then data packets (hex user id, 3-character header, cache-miss
 * character, payload in the upstream codec, a dot every 57 characters) and lazy-mode pings (`p` + 7 base32
 * characters), each with a cache-miss counter so that no two queries are alike.
 */
export function iodineDnsEvents(n: number, opts: IodineOptions): DnsEvent[] {
  checkTunnelDomain(opts.domain);
  const rng = seeded(`iodine:${opts.domain}`, opts.seed);
  const upstream = opts.upstream ?? 'base128';
  const downstream = opts.downstream ?? 'raw';
  const qtype = opts.qtype ?? (downstream === 'raw' ? 'NULL' : 'TXT');
  if (downstream === 'raw' && qtype === 'TXT') throw new RangeError('iodine: raw downstream needs NULL or PRIVATE queries');
  const activity = opts.activity ?? 'interactive';
  const userId = rng.int(0, 15);
  const userHex = userId.toString(16);
  let cmc = rng.int(0, 0xffff);
  const counter = (): number[] => {
    cmc = (cmc + 1) & 0xffff;
    return [cmc >>> 8, cmc & 0xff];
  };
  const b32 = (bytes: number[]): string => encode(bytes, 'base32');
  const cmcChars = (): string => b32(counter()).slice(0, 3);
  const name = (label: string): string => `${dotify(label, LABEL)}.${opts.domain}`;
  const room = payloadRoom(opts.domain, LABEL);

  const handshake: string[] = [
    `v${b32([0, 0, 5, 2, ...counter()])}`,
    `l${b32([userId, ...randomBytes(rng, 16), ...counter()])}`,
    `i${b32([userId]).slice(0, 1)}${cmcChars()}`,
    ...upstreamChecks(rng),
    `s${b32([userId]).slice(0, 1)}${SWITCH_CHAR[upstream]}${cmcChars()}`,
    `o${b32([userId]).slice(0, 1)}${DOWNSTREAM_CHAR[downstream]}${cmcChars()}`,
    `o${b32([userId]).slice(0, 1)}l${cmcChars()}`,
    ...['t', 's', 'u', 'v', 'r'].map((codec) => `y${codec}b${cmcChars()}`),
    ...fragsizeProbes(rng, userId, room),
    `n${b32([userId, 0x04, 0x00, ...counter()])}`,
  ];

  // An SSH connection opens with its version exchange and key exchange: a few kilobytes each way.
  let pendingBytes = activity === 'interactive' ? rng.int(1500, 3000) : 0;
  let downSeq = 0;
  let upSeq = 0;
  const step = (): SessionStep => {
    const first = handshake.shift();
    if (first !== undefined) return { name: name(first), qtype, gapMs: first.startsWith('r') ? rng.int(200, 1500) : rng.int(30, 250) };
    if (activity === 'upload') pendingBytes = 4096;
    else if (activity === 'interactive' && pendingBytes === 0 && rng.chance(0.12)) pendingBytes = rng.int(40, 1200);
    const dataRoom = Math.floor(((room - 5) * BITS[upstream]) / 8);
    if (pendingBytes > 0 && rng.chance(activity === 'upload' ? 0.9 : 0.6)) {
      const data = Math.min(pendingBytes, dataRoom);
      pendingBytes -= data;
      upSeq = (upSeq + 1) & 7;
      const header = b32([(userId << 4) | (upSeq << 1), (downSeq << 4) | 1, rng.int(0, 255)]).slice(0, 3);
      const cache = 'abcdefghijklmnopqrstuvwxyz0123456789'[cmc++ % 36];
      return { name: name(`${userHex}${header}${cache}${encode(randomBytes(rng, data), upstream)}`), qtype, gapMs: rng.int(20, 120) };
    }
    downSeq = (downSeq + 1) & 7;
    const ping = `p${b32([userId, (downSeq << 4) | rng.int(0, 15), ...counter()])}`;
    return { name: name(ping), qtype, gapMs: pendingBytes > 0 ? rng.int(20, 120) : rng.int(1500, 4500) };
  };
  return sessionEvents(rng, step, n, opts);
}

/** `z` queries: the client bounces test strings of each codec's characters off the server. */
function upstreamChecks(rng: Rng): string[] {
  const mixed = (alphabet: string, length: number) => rng.string(alphabet, length);
  return [
    `z${mixed(ALPHABETS.base64, 48)}`,
    `z${mixed(ALPHABETS.base64u, 48)}`,
    `z${mixed(ALPHABETS.base128, 48)}`,
  ];
}

/** `r` queries: a binary search for the largest answer that gets through, each query padded with random data. */
function fragsizeProbes(rng: Rng, userId: number, room: number): string[] {
  const probes: string[] = [];
  let low = 100;
  let high = 1400;
  while (high - low > 100) {
    const size = Math.floor((low + high) / 2);
    const head = encode([(userId << 4) | (size >>> 8), size & 0xff], 'base32').slice(0, 3);
    probes.push(`r${head}${rng.string(ALPHABETS.base32, room - 4)}`);
    if (rng.chance(0.6)) low = size;
    else high = size;
  }
  return probes;
}
