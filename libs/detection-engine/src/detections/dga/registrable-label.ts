import { splitHostname, type SplitHostname } from '../../domain';

export interface RegistrableLabel {
  /** The registered domain, or the name itself when it is a public suffix (`3utilities.com`, `ac.jp`). */
  domain: string;
  /** The label the owner chose: `example` of `www.example.co.uk`. */
  label: string;
}

const LABEL = /^[a-z0-9_-]{1,63}$/;
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The label a DGA would generate: the first label of the registered domain (public suffix list with private
 * sections, so `abc123.duckdns.org` gives `abc123`). A name that is itself a public suffix gives its first
 * label. Undefined for IPs, single labels and names that are not host names.
 */
export function registrableLabel(name: string): RegistrableLabel | undefined {
  if (typeof name !== 'string') return undefined;
  const lower = name.trim().toLowerCase().replace(/\.$/, '');
  return registrableLabelOfSplit(lower, splitHostname(lower));
}

/** {@link registrableLabel} of a name already lower-case and without its trailing dot, given its split. */
export function registrableLabelOfSplit(lower: string, split: Readonly<SplitHostname> | undefined): RegistrableLabel | undefined {
  if (!lower.includes('.') || IPV4.test(lower) || lower.includes(':')) return undefined;
  const domain = split?.registeredDomain ?? lower;
  const label = domain.slice(0, domain.indexOf('.'));
  return LABEL.test(label) ? { domain, label } : undefined;
}

/** What follows the label in a {@link RegistrableLabel} domain: its public suffix, or the zone it was judged under. */
export function suffixOfRegistrable(domain: string): string {
  return domain.slice(domain.indexOf('.') + 1);
}
