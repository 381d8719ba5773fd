/** Kinds of indicator the store holds. */
export const INDICATOR_KINDS = ['domain', 'ip', 'cidr', 'ip_port', 'url', 'ja3', 'ja3s', 'cert'] as const;
export type IndicatorKind = (typeof INDICATOR_KINDS)[number];

export function isIndicatorKind(value: string): value is IndicatorKind {
  return (INDICATOR_KINDS as readonly string[]).includes(value);
}

/**
 * What an indicator means: `label` is `<category>:<family>` (`c2:Cobalt Strike`, `sinkhole:shadowserver`,
 * `miner:pool`), `source` names the list it came from (`maltrail:malware`, `misp:sinkholes`, a URL, ...).
 */
export interface IndicatorMeta {
  label: string;
  category: string;
  family: string;
  source: string;
}

/** One indicator as read from a list, before indexing. */
export interface IndicatorRecord {
  kind: IndicatorKind;
  value: string;
  label: string;
  source: string;
}

/** A lookup hit: the indicator as stored (e.g. the parent zone that matched) and what it means. */
export interface IndicatorMatch extends IndicatorMeta {
  kind: IndicatorKind;
  indicator: string;
}

const LABEL = /^([a-z0-9_]+):(.+)$/;

/**
 * A copy of `text` that shares no memory with the string it was cut from. Labels are cut from whole list files
 * (tens of MB); kept as slices for the life of the index, they would keep every file's full text alive.
 */
function detached(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}

/** Splits `<category>:<family>`; throws on a label without a category so a bad list fails loudly. */
export function parseLabel(label: string, source: string): IndicatorMeta {
  const own = detached(label);
  const match = LABEL.exec(own);
  if (!match) throw new Error(`invalid intel label "${label}" (expected <category>:<family>, e.g. c2:Emotet)`);
  return { label: own, category: match[1], family: match[2], source: detached(source) };
}
