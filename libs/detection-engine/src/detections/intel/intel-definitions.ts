import type { FlagDictionary, ThreatDictionary } from '@vigil/contracts';
import type { AnalyticType, DetectionDefinition } from '../detection';

const RULE: AnalyticType = { id: 1, name: 'Rule' };
const MATCH: AnalyticType = { id: 9, name: 'Exact Data Match' };

/** Threats the intel detections introduce (the rest reuse established IDs); the lead merges these into the inventory. */
export const INTEL_THREATS: ThreatDictionary = {
  malicious_destination: {
    title: 'Traffic to a known malicious web destination (exploit kit, traffic distribution system, phishing or web skimmer)',
    severity: 3,
  },
  crypto_mining: { title: 'Connection to a cryptocurrency mining pool indicating cryptojacking', severity: 3 },
  telegram_bot_api: { title: 'Telegram Bot API use indicating bot-controlled malware or data theft', severity: 3 },
  dynamic_dns_domain: { title: 'Traffic to a dynamic DNS host name', severity: 2 },
  tunneling_service: { title: 'Traffic through a reverse-tunnelling service exposing an internal host', severity: 3 },
  // Policy: a hand-set DNS server is as likely as malware; operators list sanctioned resolvers to silence it.
  dns_resolver_bypass: { title: 'DNS traffic to a public resolver bypassing the configured resolvers', severity: 2, policy: true },
};

/** Flags the intel detections introduce (the rest reuse established IDs). */
export const INTEL_FLAGS: FlagDictionary = {
  telegram: { title: 'Telegram service', type: 'category' },
  tunnel_service: { title: 'Reverse-tunnelling or port-exposure service', type: 'category' },
};

export const INTEL_C2: DetectionDefinition = {
  id: 'intel_c2',
  threat: 'c2_communication',
  title: 'Known command-and-control destination',
  severity: 5,
  flags: ['c2'],
  mitreAttack: ['TA0011:T1071'],
  analytic: MATCH,
  findingType: 'Command and Control',
  keyDescription: 'the matching indicator (domain, address, address:port, URL or TLS fingerprint)',
};

export const INTEL_SINKHOLE: DetectionDefinition = {
  id: 'intel_sinkhole',
  threat: 'sinkholed_destination',
  title: 'Known sinkhole contacted',
  severity: 4,
  flags: ['sinkholed'],
  mitreAttack: ['TA0011:T1071'],
  analytic: MATCH,
  findingType: 'Command and Control',
  keyDescription: 'the sinkhole indicator (domain or address)',
};

export const INTEL_MALICIOUS: DetectionDefinition = {
  id: 'intel_malicious_destination',
  threat: 'malicious_destination',
  title: 'Known malicious web destination',
  severity: 3,
  flags: ['blocklist'],
  mitreAttack: ['TA0001:T1189'],
  analytic: MATCH,
  findingType: 'Malicious Destination',
  keyDescription: 'the matching indicator',
};

export const INTEL_MINING: DetectionDefinition = {
  id: 'intel_crypto_mining',
  threat: 'crypto_mining',
  title: 'Cryptocurrency mining pool contacted',
  severity: 3,
  flags: ['cryptomining'],
  mitreAttack: ['TA0040:T1496'],
  analytic: RULE,
  findingType: 'Resource Hijacking',
  keyDescription: 'the pool indicator, or stratum:<port>',
};

export const INTEL_IRC: DetectionDefinition = {
  id: 'intel_irc',
  threat: 'bad_irc_traffic',
  title: 'Outbound IRC connection',
  severity: 4,
  flags: ['irc'],
  mitreAttack: ['TA0011:T1071'],
  analytic: RULE,
  findingType: 'Command and Control',
  keyDescription: 'destination address:port',
};

export const INTEL_TOR_DNS: DetectionDefinition = {
  id: 'intel_tor_dns',
  threat: 'tor_dns',
  title: 'Tor hidden-service or tor2web name looked up',
  severity: 3,
  flags: ['tor_dns', 'anon'],
  mitreAttack: ['TA0011:T1090.003'],
  analytic: RULE,
  findingType: 'Anonymizing Proxy',
  keyDescription: '`.onion` name or tor2web gateway zone',
};

export const INTEL_TOR_CIRCUIT: DetectionDefinition = {
  id: 'intel_tor_circuit',
  threat: 'anon_circuit',
  title: 'Connection to a Tor relay',
  severity: 4,
  flags: ['anon'],
  mitreAttack: ['TA0011:T1090.003'],
  analytic: RULE,
  findingType: 'Anonymizing Proxy',
  keyDescription: 'relay address, or "tor-certificate"',
};

export const INTEL_TELEGRAM: DetectionDefinition = {
  id: 'intel_telegram_bot_api',
  threat: 'telegram_bot_api',
  title: 'Telegram Bot API contacted',
  severity: 3,
  flags: ['telegram'],
  mitreAttack: ['TA0011:T1102', 'TA0010:T1567'],
  analytic: RULE,
  findingType: 'Command and Control',
  keyDescription: 'api.telegram.org',
};

export const INTEL_DYNAMIC_DNS: DetectionDefinition = {
  id: 'intel_dynamic_dns',
  threat: 'dynamic_dns_domain',
  title: 'Dynamic DNS host name contacted',
  severity: 2,
  flags: ['freedns'],
  mitreAttack: ['TA0011:T1568'],
  analytic: MATCH,
  findingType: 'Dynamic Resolution',
  keyDescription: 'dynamic DNS zone',
};

export const INTEL_TUNNEL_SERVICE: DetectionDefinition = {
  id: 'intel_tunneling_service',
  threat: 'tunneling_service',
  title: 'Reverse-tunnelling service contacted',
  severity: 3,
  flags: ['tunnel_service'],
  mitreAttack: ['TA0011:T1572', 'TA0011:T1090'],
  analytic: MATCH,
  findingType: 'Protocol Tunneling',
  keyDescription: 'tunnelling service zone',
};

export const INTEL_ENCRYPTED_DNS: DetectionDefinition = {
  id: 'intel_encrypted_dns',
  threat: 'encrypted_dns',
  title: 'Encrypted DNS resolver used',
  severity: 3,
  flags: [],
  mitreAttack: ['TA0011:T1071.004', 'TA0011:T1572'],
  analytic: RULE,
  findingType: 'Encrypted DNS',
  keyDescription: 'resolver host name, or address:port',
};

export const INTEL_DNS_BYPASS: DetectionDefinition = {
  id: 'intel_dns_resolver_bypass',
  threat: 'dns_resolver_bypass',
  title: 'DNS sent to a public resolver instead of the configured ones',
  severity: 2,
  flags: ['name_server'],
  mitreAttack: ['TA0011:T1071.004'],
  analytic: RULE,
  findingType: 'DNS Resolver Bypass',
  keyDescription: 'resolver address',
};

export const INTEL_DETECTIONS: readonly DetectionDefinition[] = [
  INTEL_C2,
  INTEL_SINKHOLE,
  INTEL_MALICIOUS,
  INTEL_MINING,
  INTEL_IRC,
  INTEL_TOR_DNS,
  INTEL_TOR_CIRCUIT,
  INTEL_TELEGRAM,
  INTEL_DYNAMIC_DNS,
  INTEL_TUNNEL_SERVICE,
  INTEL_ENCRYPTED_DNS,
  INTEL_DNS_BYPASS,
];
