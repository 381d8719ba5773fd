import type { Rng } from '../prng';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const HEX = '0123456789abcdef';
const WORDS = ['mail', 'shop', 'news', 'bank', 'travel', 'school', 'health', 'media', 'games', 'cloud'];
const TLDS = ['com', 'net', 'org', 'de', 'co.uk', 'fr', 'io'];

const reversedIp = (rng: Rng): string => `${rng.int(1, 254)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 223)}`;
const someDomain = (rng: Rng): string => `${rng.pick(WORDS)}${rng.pick(['', '-online', '24', 'hub'])}.${rng.pick(TLDS)}`;

/**
 * Benign look-ups whose names carry encoded data by design: anti-virus reputation queries (file hashes in the
 * name: McAfee GTI, Sophos, ESET), DNS block lists (reversed addresses, domains, hashes: Spamhaus, SpamCop,
 * Barracuda, URIBL, SURBL), mail authentication (DKIM, DMARC, ACME challenges) and push/CDN edge names. Shapes
 * follow the services' public documentation loosely; the values are random. For false-positive measurements of
 * the DNS-tunnel detection.
 */
export function encodedServiceHostname(rng: Rng): { name: string; qtype: string } {
  switch (rng.weighted([['mcafee', 12], ['sophos', 10], ['eset', 8], ['dnsbl-ip', 20], ['dnsbl-domain', 10], ['hashbl', 5], ['mail-auth', 15], ['edge', 20]] as const)) {
    case 'mcafee':
      return { name: `a-0.19-a${rng.string(HEX, 7)}.${rng.string(HEX, 7)}.${rng.string(HEX, 6)}.${rng.string(HEX, 5)}.${rng.string(HEX, 4)}.210.0.${rng.string(BASE32, 26)}.avqs.mcafee.com`, qtype: 'A' };
    case 'sophos':
      return { name: `${rng.string(HEX, 2)}.${rng.string(HEX, 32)}.${rng.string(HEX, 32)}.${rng.pick(['f', 'u', 'i'])}.${rng.int(1, 9)}.sxl4.sophosxl.net`, qtype: 'A' };
    case 'eset':
      return { name: `${rng.string(BASE32, 32)}.${rng.string(HEX, 8)}.${rng.pick(['a', 'b', 'c'])}.e5.sk`, qtype: 'TXT' };
    case 'dnsbl-ip':
      return { name: `${reversedIp(rng)}.${rng.pick(['zen.spamhaus.org', 'bl.spamcop.net', 'b.barracudacentral.org', 'dnsbl.sorbs.net', 'bl.mailspike.net', 'list.dnswl.org'])}`, qtype: rng.pick(['A', 'TXT']) };
    case 'dnsbl-domain':
      return { name: `${someDomain(rng)}.${rng.pick(['dbl.spamhaus.org', 'multi.uribl.com', 'multi.surbl.org'])}`, qtype: 'A' };
    case 'hashbl':
      return { name: `${rng.string(BASE32, 52)}._file.hbl.dq.spamhaus.net`, qtype: 'A' };
    case 'mail-auth':
      return rng.weighted([
        [{ name: `${rng.pick(['selector1', 'selector2', 'google', 'k1', 's1', 'mx'])}._domainkey.${someDomain(rng)}`, qtype: 'TXT' }, 3],
        [{ name: `_dmarc.${someDomain(rng)}`, qtype: 'TXT' }, 2],
        [{ name: `_acme-challenge.${rng.pick(['www.', 'api.', ''])}${someDomain(rng)}`, qtype: 'TXT' }, 1],
      ]);
    default:
      return rng.weighted([
        [{ name: `e${rng.int(1, 99999)}.${rng.pick(['dscx', 'dscb', 'a', 'b'])}.akamaiedge.net`, qtype: 'A' }, 3],
        [{ name: `${rng.int(1, 50)}-courier.push.apple.com`, qtype: 'A' }, 2],
        [{ name: `${rng.string(HEX, 32)}.${rng.pick(['cloudfront.net', 'azureedge.net'])}`, qtype: 'AAAA' }, 1],
      ]);
  }
}
