import { POPULAR_DOMAINS } from '../popular-domains';
import type { Rng } from '../prng';

const SUBDOMAINS: readonly (readonly [string, number])[] = [
  ['', 30], ['www', 30], ['api', 8], ['cdn', 6], ['static', 4], ['img', 3], ['mail', 3], ['login', 3], ['m', 2],
  ['accounts', 2], ['assets', 2], ['media', 2], ['update', 2], ['edge', 1], ['apps', 1], ['docs', 1], ['auth', 1],
  ['s3', 1], ['clients', 1], ['telemetry', 1],
];

/**
 * Sites whose generic subdomains would name a different service: `api.telegram.org` is the Telegram Bot API,
 * which people's Telegram apps do not use (they speak MTProto to Telegram's addresses), so browsing traffic
 * draws the hosts people actually reach.
 */
const SITE_SUBDOMAINS: Readonly<Record<string, readonly (readonly [string, number])[]>> = {
  'telegram.org': [['', 4], ['www', 2], ['web', 3], ['core', 1], ['desktop', 1], ['updates', 1]],
  'cloudflare-dns.com': [['', 3], ['mozilla', 2], ['chrome', 2]],
};

/**
 * DNS-over-HTTPS resolver zones among the popular domains. Browsers look them up while probing for DoH, but a
 * network whose hosts use its configured resolvers (and answers the canary) opens no sessions to them.
 */
const DOH_RESOLVER_DOMAINS: ReadonlySet<string> = new Set(['cloudflare-dns.com']);

/** Skews picks towards the start of the list, as traffic concentrates on the most popular sites. */
export function popularDomain(rng: Rng): string {
  return POPULAR_DOMAINS[Math.floor(Math.pow(rng.next(), 2.5) * POPULAR_DOMAINS.length)];
}

function hostnameOf(rng: Rng, domain: string): string {
  const sub = rng.weighted(SITE_SUBDOMAINS[domain] ?? SUBDOMAINS);
  return sub ? `${sub}.${domain}` : domain;
}

export function popularHostname(rng: Rng): string {
  return hostnameOf(rng, popularDomain(rng));
}

/** A popular host a browser or app opens a session (HTTP, TLS) with. */
export function sessionHostname(rng: Rng): string {
  let domain = popularDomain(rng);
  while (DOH_RESOLVER_DOMAINS.has(domain)) domain = popularDomain(rng);
  return hostnameOf(rng, domain);
}
