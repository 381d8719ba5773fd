import type { FlagDictionary } from '@vigil/contracts';
import { INTEL_FLAGS } from '../detections/intel/intel-definitions';
import { NETWORK_FLAGS } from '../detections/network/network-inventory';
import { WEB_FLAGS } from '../detections/web/web-inventory';

/**
 * The flag dictionary (GET /v1/ae/inventory/flags). `category` flags say what a destination is;
 * `feature` flags say what is unusual about a name or a connection. The IDs are the ones existing clients
 * know; the titles are Vigil's.
 */
/** The dictionary of the established and Vigil's own core entries; the detection families add theirs below. */
export const CORE_FLAGS: FlagDictionary = {
  c2: { title: 'Command and control infrastructure', type: 'category' },
  dga: { title: 'Domain produced by a domain generation algorithm (DGA)', type: 'feature' },
  perplexing_domain: { title: 'Domain name looks machine-generated', type: 'feature' },
  perplexing_host: { title: 'Host name (subdomain) looks machine-generated or encoded', type: 'feature' },
  unique: { title: 'Destination rarely seen across monitored networks', type: 'feature' },
  unreachable_domain: { title: 'Domain does not resolve', type: 'feature' },
  sinkholed: { title: 'Destination is a known sinkhole', type: 'category' },
  unusual_port: { title: 'Connection to an unusual server port', type: 'feature' },
  suspicious_tld: { title: 'Top-level domain often abused', type: 'feature' },
  bad_tld: { title: 'Top-level domain commonly associated with malware', type: 'feature' },
  young_domain: { title: 'Recently registered domain', type: 'feature' },
  oast: { title: 'Out-of-band application security testing (OAST) service', type: 'category' },
  cryptomining: { title: 'Cryptocurrency mining service', type: 'category' },
  irc: { title: 'IRC server', type: 'category' },
  freedns: { title: 'Free or dynamic DNS provider', type: 'category' },
  doh: { title: 'DNS over HTTPS resolver', type: 'category' },
  dot: { title: 'DNS over TLS resolver', type: 'category' },
  dnscrypt: { title: 'DNSCrypt resolver', type: 'category' },
  anon: { title: 'Anonymizing service', type: 'category' },
  p2p: { title: 'Peer-to-peer network', type: 'category' },
  imposter: { title: 'Name imitates a well-known brand or service', type: 'feature' },
  ip_lookup: { title: 'Public IP address lookup service', type: 'category' },
  mail_server: { title: 'Mail server', type: 'category' },
  name_server: { title: 'Name server', type: 'category' },
  beacon: { title: 'Periodic connections (beaconing)', type: 'feature' },
  blocklist: { title: 'Destination on a block list', type: 'category' },
  bad_ua: { title: 'Suspicious HTTP User-Agent', type: 'feature' },
  encoded_ip: { title: 'Host name encodes an IP address', type: 'feature' },
  hosting: { title: 'Hosting or cloud provider', type: 'category' },
  tor_dns: { title: 'Tor-related DNS name', type: 'category' },

  // Added by Vigil.
  long_hostname: { title: 'Unusually long host name that can carry encoded data', type: 'feature' },
};

export const FLAG_DICTIONARY: FlagDictionary = { ...CORE_FLAGS, ...NETWORK_FLAGS, ...WEB_FLAGS, ...INTEL_FLAGS };
