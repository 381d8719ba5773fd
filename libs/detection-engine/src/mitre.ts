/** The MITRE ATT&CK tactics and techniques Vigil's built-in detections refer to, with their names. */
export const ATTACK_VERSION = 'v17';

export const ATTACK_TACTICS: Readonly<Record<string, string>> = {
  TA0001: 'Initial Access',
  TA0002: 'Execution',
  TA0003: 'Persistence',
  TA0004: 'Privilege Escalation',
  TA0005: 'Defense Evasion',
  TA0006: 'Credential Access',
  TA0007: 'Discovery',
  TA0008: 'Lateral Movement',
  TA0009: 'Collection',
  TA0010: 'Exfiltration',
  TA0011: 'Command and Control',
  TA0040: 'Impact',
  TA0042: 'Resource Development',
  TA0043: 'Reconnaissance',
};

export const ATTACK_TECHNIQUES: Readonly<Record<string, string>> = {
  T1001: 'Data Obfuscation',
  T1008: 'Fallback Channels',
  T1018: 'Remote System Discovery',
  T1021: 'Remote Services',
  'T1021.004': 'Remote Services: SSH',
  T1040: 'Network Sniffing',
  T1041: 'Exfiltration Over C2 Channel',
  T1046: 'Network Service Discovery',
  T1048: 'Exfiltration Over Alternative Protocol',
  'T1048.001': 'Exfiltration Over Alternative Protocol: Exfiltration Over Symmetric Encrypted Non-C2 Protocol',
  'T1048.002': 'Exfiltration Over Alternative Protocol: Exfiltration Over Asymmetric Encrypted Non-C2 Protocol',
  'T1048.003': 'Exfiltration Over Alternative Protocol: Exfiltration Over Unencrypted Non-C2 Protocol',
  'T1059.001': 'Command and Scripting Interpreter: PowerShell',
  T1071: 'Application Layer Protocol',
  'T1071.001': 'Application Layer Protocol: Web Protocols',
  'T1071.002': 'Application Layer Protocol: File Transfer Protocols',
  'T1071.003': 'Application Layer Protocol: Mail Protocols',
  'T1071.004': 'Application Layer Protocol: DNS',
  T1090: 'Proxy',
  'T1090.003': 'Proxy: Multi-hop Proxy',
  T1095: 'Non-Application Layer Protocol',
  T1102: 'Web Service',
  T1105: 'Ingress Tool Transfer',
  T1132: 'Data Encoding',
  T1189: 'Drive-by Compromise',
  T1190: 'Exploit Public-Facing Application',
  T1197: 'BITS Jobs',
  T1204: 'User Execution',
  'T1218.005': 'System Binary Proxy Execution: Mshta',
  T1496: 'Resource Hijacking',
  T1566: 'Phishing',
  T1567: 'Exfiltration Over Web Service',
  T1568: 'Dynamic Resolution',
  'T1568.002': 'Dynamic Resolution: Domain Generation Algorithms',
  T1571: 'Non-Standard Port',
  T1572: 'Protocol Tunneling',
  T1573: 'Encrypted Channel',
  T1583: 'Acquire Infrastructure',
  'T1583.001': 'Acquire Infrastructure: Domains',
  'T1587.003': 'Develop Capabilities: Digital Certificates',
  'T1588.004': 'Obtain Capabilities: Digital Certificates',
  T1595: 'Active Scanning',
  'T1595.002': 'Active Scanning: Vulnerability Scanning',
};

export interface AttackPair {
  tacticUid: string;
  techniqueUid: string;
}

/** Parses `TA0011:T1071.004`; throws on anything else so a typo in a detection fails its tests. */
export function parseAttackPair(pair: string): AttackPair {
  const match = /^(TA\d{4}):(T\d{4}(?:\.\d{3})?)$/.exec(pair);
  if (!match) throw new Error(`invalid MITRE ATT&CK pair "${pair}" (expected TA0000:T0000[.000])`);
  return { tacticUid: match[1], techniqueUid: match[2] };
}
