import { registeredDomain } from '../domain';
import { popularity } from '../popularity';

/**
 * Top-level domains that abuse reports (e.g. Spamhaus' and Interisle's most-abused TLD tables) repeatedly rank
 * among the worst by share of malicious registrations: cheap or free registration, little vetting.
 */
export const SUSPICIOUS_TLDS: ReadonlySet<string> = new Set([
  'top', 'xyz', 'tk', 'ml', 'ga', 'cf', 'gq', 'icu', 'cyou', 'buzz', 'cfd', 'sbs', 'bond', 'rest', 'monster', 'click',
  'quest', 'zip', 'mov', 'su', 'pw', 'lol', 'beauty', 'hair', 'skin', 'makeup', 'autos', 'boats', 'yachts', 'homes',
  'motorcycles', 'mom', 'gdn', 'bar', 'casa', 'work', 'support', 'surf', 'uno', 'loan', 'win', 'date', 'bid', 'cam',
]);

/**
 * Flags about the destination name of an alert, independent of which detection raised it: `suspicious_tld` for an
 * abused top-level domain, and `unique` when the registered domain is absent from the popularity rankings (a
 * destination few networks visit). They add context to the alert's wisdom; they never raise an alert on their own.
 */
export function domainContextFlags(hostname: string | undefined): string[] {
  if (hostname === undefined || hostname === '') return [];
  const registered = registeredDomain(hostname);
  if (registered === undefined) return [];
  const flags: string[] = [];
  const tld = registered.slice(registered.lastIndexOf('.') + 1);
  if (SUSPICIOUS_TLDS.has(tld)) flags.push('suspicious_tld');
  if (popularity(registered) === undefined) flags.push('unique');
  return flags;
}
