import type { ThreatDictionary } from '@vigil/contracts';
import { INTEL_THREATS } from '../detections/intel/intel-definitions';
import { NETWORK_THREATS } from '../detections/network/network-inventory';
import { WEB_THREATS } from '../detections/web/web-inventory';

/**
 * The threat dictionary (GET /v1/ae/inventory/threats). IDs and titles of the established threats are the
 * ones existing clients already know; severities not published for them were chosen here (marked "chosen").
 * Severity: 5 critical, 4 high, 3 medium, 2 low, 1 informational.
 */
/** The dictionary of the established and Vigil's own core entries; the detection families add theirs below. */
export const CORE_THREATS: ThreatDictionary = {
  c2_communication: { title: 'C2 communication attempt indicating infection', severity: 5 },
  multiple_long_hostnames: { title: 'Multiple requests to long hostnames indicating DNS tunneling', severity: 4 },
  dga_volume: { title: 'Multiple requests for DGA domains indicating infection', severity: 4 },
  outbound_port_scan: { title: 'Outbound TCP port scan indicating hacking tool use or infection', severity: 4 },
  sinkholed_destination: { title: 'Traffic to a known sinkhole indicating infection', severity: 4 },
  suspicious_domain_volume: { title: 'Multiple requests to suspicious domains', severity: 3 },
  unreachable_domain_volume: { title: 'Multiple requests to unreachable domains', severity: 2 },
  conn_unusual_port_volume: { title: 'Multiple outbound connections to an unusual server port', severity: 3 },
  // chosen: beaconing is a C2 pattern, one step below confirmed C2 (5).
  suspicious_domain_beacon: { title: 'Beaconing to a suspicious domain', severity: 4 },
  bad_tld: { title: 'Traffic to a destination TLD commonly associated with malware', severity: 1 },
  tor_dns: { title: 'Suspicious Tor DNS request', severity: 3 },
  icmp_tunneling: { title: 'High volume of outbound ICMP traffic indicating tunneling', severity: 3 },
  ssh_mask: { title: 'Suspicious SSH session masquerading as a different protocol', severity: 4 },
  high_volume_ftp: { title: 'High volume of outbound traffic over FTP', severity: 3 },
  bad_irc_traffic: { title: 'Suspicious IRC traffic indicating infection', severity: 4 },
  unusual_network_port: { title: 'Traffic to an unusual port requiring investigation', severity: 2 },
  suspicious_ip: { title: 'Traffic to a suspicious IP destination', severity: 2 },
  // chosen: DoH/DoT/DNSCrypt bypass the monitored resolver; often a browser default, so medium.
  encrypted_dns: { title: 'Encrypted DNS traffic indicating potential infection or evasion', severity: 3 },
  vpn_activity: { title: 'Third-party VPN activity', severity: 3, policy: true },
  p2p_activity: { title: 'P2P activity', severity: 3, policy: true },
  // chosen: same level as the other evasion threats that suggest infection (ssh_mask, bad_irc_traffic).
  anon_circuit: { title: 'Anonymizing circuit setup indicating infection or evasion attempt', severity: 4 },

  // Added by Vigil.
  imposter_domain: { title: 'Traffic to a look-alike of a popular domain indicating phishing', severity: 3 },
  customer_sigma_rule: { title: 'Match of a customer-provided Sigma rule', severity: 3 },
  oast_interaction: {
    title: 'Interaction with an out-of-band application security testing (OAST) service indicating exploitation or security testing',
    severity: 4,
  },
};

export const THREAT_DICTIONARY: ThreatDictionary = { ...CORE_THREATS, ...NETWORK_THREATS, ...WEB_THREATS, ...INTEL_THREATS };
