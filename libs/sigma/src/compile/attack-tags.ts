import type { AttackRef } from '../types';

/** ATT&CK enterprise tactics by Sigma tag name (Sigma's list plus reconnaissance and resource development). */
const TACTICS: Record<string, { uid: string; name: string }> = {
  reconnaissance: { uid: 'TA0043', name: 'Reconnaissance' },
  'resource-development': { uid: 'TA0042', name: 'Resource Development' },
  'initial-access': { uid: 'TA0001', name: 'Initial Access' },
  execution: { uid: 'TA0002', name: 'Execution' },
  persistence: { uid: 'TA0003', name: 'Persistence' },
  'privilege-escalation': { uid: 'TA0004', name: 'Privilege Escalation' },
  'defense-evasion': { uid: 'TA0005', name: 'Defense Evasion' },
  'credential-access': { uid: 'TA0006', name: 'Credential Access' },
  discovery: { uid: 'TA0007', name: 'Discovery' },
  'lateral-movement': { uid: 'TA0008', name: 'Lateral Movement' },
  collection: { uid: 'TA0009', name: 'Collection' },
  exfiltration: { uid: 'TA0010', name: 'Exfiltration' },
  'command-and-control': { uid: 'TA0011', name: 'Command and Control' },
  impact: { uid: 'TA0040', name: 'Impact' },
};

/**
 * `attack.*` tags → ATT&CK references: every tactic paired with every technique of the rule (Sigma
 * tags do not say which technique belongs to which tactic), or each alone when the other is missing.
 */
export function attackRefs(tags: readonly string[]): { attacks: AttackRef[]; mitreAttack: string[] } {
  const tactics: Array<{ uid: string; name: string }> = [];
  const techniques: AttackRef[] = [];
  for (const tag of tags) {
    const m = /^attack\.(.+)$/i.exec(tag);
    if (!m) continue;
    const value = m[1].toLowerCase().replace(/_/g, '-');
    const technique = /^t(\d{4})(?:\.(\d{3}))?$/.exec(value);
    if (technique) {
      const parent = `T${technique[1]}`;
      techniques.push(technique[2] ? { technique: { uid: parent }, subTechnique: { uid: `${parent}.${technique[2]}` } } : { technique: { uid: parent } });
    } else if (TACTICS[value]) {
      tactics.push(TACTICS[value]);
    }
  }
  const attacks: AttackRef[] = [];
  const mitreAttack: string[] = [];
  if (tactics.length === 0) attacks.push(...techniques);
  for (const tactic of tactics) {
    if (techniques.length === 0) attacks.push({ tactic });
    for (const t of techniques) {
      attacks.push({ tactic, ...t });
      mitreAttack.push(`${tactic.uid}:${t.subTechnique?.uid ?? t.technique?.uid}`);
    }
  }
  return { attacks, mitreAttack: [...new Set(mitreAttack)] };
}
