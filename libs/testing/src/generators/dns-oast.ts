import type { DnsEvent } from '@vigil/contracts';
import type { Rng } from '../prng';
import { ALNUM } from './alphabets';
import { checkCount, checkDomain } from './checks';
import { ephemeralPort } from './network';
import { seeded } from './seeded';
import { timeline, type TimelineOptions } from './timeline';

export interface OastDnsOptions extends TimelineOptions {
  srcIP?: string;
  srcHost?: string;
  /** OAST callback domains to use. Default {@link OAST_DOMAINS}. */
  domains?: readonly string[];
}

/** Public out-of-band application security testing (OAST) callback domains. */
export const OAST_DOMAINS: readonly string[] = [
  'oast.fun', 'oast.pro', 'oast.live', 'oast.site', 'oast.online', 'oast.me', 'interact.sh',
  'oastify.com', 'burpcollaborator.net', 'dnslog.cn', 'ceye.io',
];

const OAST_EXFIL_LABELS: readonly string[] = ['root', 'www-data', 'admin', 'ubuntu', 'jndi', 'ec2-user', 'test'];

/** Callback id of the form each OAST service hands out. */
function oastId(rng: Rng, domain: string): string {
  if (domain === 'oastify.com' || domain === 'burpcollaborator.net') return rng.string(ALNUM, 30);
  if (domain === 'dnslog.cn' || domain === 'ceye.io') return rng.string(ALNUM, 6);
  // interactsh: a 20-character xid (base32hex) followed by a 13-character nonce.
  return rng.string('0123456789abcdefghijklmnopqrstuv', 20) + rng.string(ALNUM, 13);
}

/** Lookups of out-of-band testing callback domains, sometimes with exfiltrated data as the first label. */
export function oastDnsEvents(n: number, opts: OastDnsOptions = {}): DnsEvent[] {
  checkCount(n);
  const domains = opts.domains ?? OAST_DOMAINS;
  if (domains.length === 0) throw new RangeError('domains must not be empty');
  domains.forEach((d) => checkDomain(d, 'each of domains'));
  const rng = seeded('dns-oast', opts.seed);
  const nextTs = timeline(rng, { ...opts, intervalMs: opts.intervalMs ?? 60_000 });
  const srcIP = opts.srcIP ?? '10.20.0.99';
  return Array.from({ length: n }, () => {
    const domain = rng.pick(domains);
    const id = oastId(rng, domain);
    const prefix = rng.chance(0.3) ? `${rng.pick(OAST_EXFIL_LABELS)}.` : '';
    const event: DnsEvent = {
      ts: nextTs(),
      srcIP,
      srcPort: ephemeralPort(rng),
      query: `${prefix}${id}.${domain}`,
      qtype: rng.weighted([['A', 7], ['AAAA', 2], ['TXT', 1]] as const),
    };
    if (opts.srcHost) event.srcHost = opts.srcHost;
    return event;
  });
}
