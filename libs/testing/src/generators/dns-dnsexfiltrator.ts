import type { DnsEvent } from '@vigil/contracts';
import { seeded } from './seeded';
import {
  base32Encode,
  base64UrlEncode,
  checkTunnelDomain,
  dotify,
  randomBytes,
  sessionEvents,
  type SessionStep,
  type TunnelSessionOptions,
} from './tunnel-session';

export interface DnsExfiltratorOptions extends TunnelSessionOptions {
  domain: string;
  /** Data encoding: base64url (default) or base32 (`-b32`, for DNS-over-HTTPS resolvers that fold case). */
  encoding?: 'base64url' | 'base32';
  /** Wait between requests (`t=`), ms. Default 0: the next chunk goes as soon as the last was answered. */
  throttleMs?: number;
  /** Longest label (`l=`). Default 63. */
  labelMaxSize?: number;
  /** Longest query name (`r=`). Default 255 (names are capped at 253 here, as on the wire). */
  requestMaxSize?: number;
}

/**
 * DNSExfiltrator (Arno0x) sending one file: an `init.<base32 of "name|chunks">.<encoding>.<domain>` TXT query,
 * then the RC4-encrypted, zipped file as numbered chunks `<n>.<data labels>.<domain>`, each as long as the
 * request size allows, one after the other (or `throttleMs` apart).
 */
export function dnsExfiltratorDnsEvents(n: number, opts: DnsExfiltratorOptions): DnsEvent[] {
  checkTunnelDomain(opts.domain);
  const rng = seeded(`dnsexfiltrator:${opts.domain}`, opts.seed);
  const encoding = opts.encoding ?? 'base64url';
  const labelMax = opts.labelMaxSize ?? 63;
  const requestMax = Math.min(opts.requestMaxSize ?? 255, 253);
  if (!Number.isInteger(labelMax) || labelMax < 4 || labelMax > 63) throw new RangeError(`labelMaxSize must be 4-63, got ${labelMax}`);
  const throttle = opts.throttleMs ?? 0;
  const fileName = rng.pick(['passwords.kdbx', 'q3-forecast.xlsx', 'id_rsa', 'customers.csv', 'backup.zip']);
  const text = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
  let chunk = 0;
  let initSent = false;

  const step = (): SessionStep => {
    if (!initSent) {
      initSent = true;
      return { name: `init.${base32Encode(text(`${fileName}|${n - 1}`))}.${encoding === 'base32' ? 'base32' : 'base64'}.${opts.domain}`, qtype: 'TXT', gapMs: 0 };
    }
    const prefix = `${chunk++}.`;
    // Characters left for data: the whole request minus the chunk number, the domain and the dots between labels.
    const free = requestMax - prefix.length - opts.domain.length - 1;
    const chars = free - Math.ceil(free / (labelMax + 1));
    const bytes = Math.floor((chars * (encoding === 'base32' ? 5 : 6)) / 8);
    const data = encoding === 'base32' ? base32Encode(randomBytes(rng, bytes)) : base64UrlEncode(randomBytes(rng, bytes));
    return { name: `${prefix}${dotify(data.slice(0, chars), labelMax)}.${opts.domain}`, qtype: 'TXT', gapMs: throttle + rng.int(15, 60) };
  };
  return sessionEvents(rng, step, n, opts);
}
