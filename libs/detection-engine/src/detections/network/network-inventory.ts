import type { FlagDictionary, ThreatDictionary } from '@vigil/contracts';

/**
 * Threats the network detections add to the inventory (the reused established IDs — outbound_port_scan,
 * icmp_tunneling, ssh_mask, high_volume_ftp, conn_unusual_port_volume, unusual_network_port — are already
 * in THREAT_DICTIONARY). For the lead to merge into the threat dictionary.
 */
export const NETWORK_THREATS: ThreatDictionary = {
  large_ssh_transfer: { title: 'Large outbound transfer over SSH indicating data exfiltration', severity: 4 },
  large_outbound_transfer: { title: 'Large outbound data transfer to an Internet destination', severity: 2 },
  spambot_smtp: { title: 'Direct SMTP connections to many mail servers indicating a spambot', severity: 4 },
  mx_lookup_volume: { title: 'Multiple MX lookups from a workstation indicating a spambot', severity: 3 },
  cleartext_protocol: { title: 'Cleartext protocol used over the Internet', severity: 1, policy: true },
  beacon_ip: { title: 'Beaconing: periodic connections to an Internet destination', severity: 3 },
  long_connection: { title: 'Unusually long connection to an Internet destination', severity: 2 },
  strobe_connections: { title: 'Very high number of connections to one Internet destination (strobe)', severity: 2 },
};

/** Flags the network detections attach in `wisdom` (besides the established `unusual_port`, `mail_server`, `beacon`). */
export const NETWORK_FLAGS: FlagDictionary = {
  port_scan: { title: 'Many unanswered connections to distinct ports or hosts', type: 'feature' },
  large_icmp_payload: { title: 'ICMP packets far larger than a ping', type: 'feature' },
  non_standard_port: { title: 'Protocol on a port assigned to another service', type: 'feature' },
  large_upload: { title: 'Large amount of data sent out', type: 'feature' },
  cleartext: { title: 'Unencrypted protocol', type: 'feature' },
  mx_lookup: { title: 'Mail exchanger (MX) lookup', type: 'feature' },
  long_connection: { title: 'Connection open for hours', type: 'feature' },
  strobe: { title: 'Very high connection count between two hosts', type: 'feature' },
};

/** MITRE ATT&CK names of the tactics and techniques the network detections cite, for the lead to merge. */
export const NETWORK_ATTACK_TACTICS: Readonly<Record<string, string>> = {
  TA0007: 'Discovery',
  TA0010: 'Exfiltration',
  TA0011: 'Command and Control',
};

export const NETWORK_ATTACK_TECHNIQUES: Readonly<Record<string, string>> = {
  T1046: 'Network Service Discovery',
  T1048: 'Exfiltration Over Alternative Protocol',
  'T1048.003': 'Exfiltration Over Alternative Protocol: Exfiltration Over Unencrypted Non-C2 Protocol',
  T1071: 'Application Layer Protocol',
  'T1071.003': 'Application Layer Protocol: Mail Protocols',
  T1095: 'Non-Application Layer Protocol',
  T1571: 'Non-Standard Port',
  T1572: 'Protocol Tunneling',
};
