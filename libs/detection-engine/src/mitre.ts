/** The MITRE ATT&CK tactics and techniques Vigil's built-in detections refer to, with their names. */
export const ATTACK_VERSION = 'v17';

export const ATTACK_TACTICS: Readonly<Record<string, string>> = {
  TA0001: 'Initial Access',
  TA0010: 'Exfiltration',
  TA0011: 'Command and Control',
};

export const ATTACK_TECHNIQUES: Readonly<Record<string, string>> = {
  T1048: 'Exfiltration Over Alternative Protocol',
  T1071: 'Application Layer Protocol',
  'T1071.004': 'Application Layer Protocol: DNS',
  T1190: 'Exploit Public-Facing Application',
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
