import type { DnsEvent } from '@vigil/contracts';
import { seeded } from './seeded';
import { checkTunnelDomain, hexEncode, randomBytes, sessionEvents, type SessionStep, type TunnelSessionOptions } from './tunnel-session';

export interface CobaltStrikeDnsOptions extends TunnelSessionOptions {
  /** The listener's DNS host (the beacon's zone). */
  domain: string;
  /** Data channel: `dns` (A answers, 4 bytes each), `dns6` (AAAA, 16 bytes) or `dns-txt` (TXT). Default dns-txt. */
  channel?: 'dns' | 'dns6' | 'dns-txt';
  /** Beacon sleep between check-ins (ms). Default 60,000 (the default profile). */
  sleepMs?: number;
  /** Share of check-ins on which the operator has queued a task. Default 1 (an active operator). */
  taskedShare?: number;
}

/** The default Malleable C2 `dns-beacon` prefixes. */
const PREFIX = { metadata: 'www', output: 'post', A: 'cdn', AAAA: 'www6', TXT: 'api' } as const;
const BYTES_PER_ANSWER = { A: 4, AAAA: 16, TXT: 189 } as const;
/** Hex characters per data label after the count digit: 5 then 7 32-bit words, as the beacon formats them. */
const LABEL_WORDS = [5, 7, 7, 7];

/**
 * A Cobalt Strike DNS Beacon (default profile): an A-record heartbeat `<beacon id>.<domain>` every sleep; when a
 * task is queued, the encrypted metadata goes up as `www.` queries (first its length, `www.1<len>`, then up to four
 * labels of hex words `www.4<hex>.<hex>...`), the task comes down through `api.` TXT (or `cdn.` A / `www6.` AAAA)
 * queries, one answer each, and the output goes up as `post.` queries; every query after the prefix carries a hex
 * nonce joined to the beacon id (`<nonce><id>`), so none repeats.
 */
export function cobaltStrikeDnsEvents(n: number, opts: CobaltStrikeDnsOptions): DnsEvent[] {
  checkTunnelDomain(opts.domain);
  const rng = seeded(`cobalt-strike-dns:${opts.domain}`, opts.seed);
  const channel = opts.channel ?? 'dns-txt';
  const record = channel === 'dns' ? 'A' : channel === 'dns6' ? 'AAAA' : 'TXT';
  const sleepMs = opts.sleepMs ?? 60_000;
  const taskedShare = opts.taskedShare ?? 1;
  const beaconId = rng.int(0x1000000, 0x7fffffff).toString(16);
  const tail = (): string => `${rng.int(1, 0xfffffff).toString(16)}${beaconId}.${opts.domain}`;

  const upload = (prefix: string, bytes: number): SessionStep[] => {
    const steps: SessionStep[] = [{ name: `${prefix}.1${bytes.toString(16)}.${tail()}`, qtype: 'A', gapMs: rng.int(20, 80) }];
    let hex = hexEncode(randomBytes(rng, bytes));
    while (hex.length > 0) {
      const labels: string[] = [];
      for (const words of LABEL_WORDS) {
        if (hex.length === 0) break;
        labels.push(hex.slice(0, words * 8));
        hex = hex.slice(words * 8);
      }
      steps.push({ name: `${prefix}.${labels.length}${labels.join('.')}.${tail()}`, qtype: 'A', gapMs: rng.int(20, 80) });
    }
    return steps;
  };

  const queue: SessionStep[] = [];
  let metadataSent = false;
  const checkIn = (): void => {
    queue.push({ name: `${beaconId}.${opts.domain}`, qtype: 'A', gapMs: sleepMs + rng.int(-500, 500) });
    if (!rng.chance(taskedShare)) return;
    if (!metadataSent) queue.push(...upload(PREFIX.metadata, 128));
    metadataSent = true;
    const taskBytes = rng.chance(0.15) ? rng.int(2000, 20000) : rng.int(48, 400);
    const answers = 1 + Math.ceil(taskBytes / BYTES_PER_ANSWER[record]);
    for (let i = 0; i < answers; i++) queue.push({ name: `${PREFIX[record]}.${tail()}`, qtype: record, gapMs: rng.int(20, 80) });
    queue.push(...upload(PREFIX.output, rng.int(30, 3000)));
  };
  const step = (): SessionStep => {
    if (queue.length === 0) checkIn();
    return queue.shift()!;
  };
  return sessionEvents(rng, step, n, opts);
}
