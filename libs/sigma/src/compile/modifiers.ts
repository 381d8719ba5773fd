/** Value modifiers of Sigma v2.1 Vigil evaluates. */
export const KNOWN_MODIFIERS = [
  'contains', 'startswith', 'endswith', 'all', 'cased', 'windash', 'base64', 'base64offset', 'expand',
  're', 'i', 'm', 's', 'cidr', 'lt', 'lte', 'gt', 'gte', 'exists', 'fieldref',
] as const;
export type Modifier = (typeof KNOWN_MODIFIERS)[number];

/** Modifiers of the specification (or pySigma) that have no meaning on network telemetry. */
const NOT_MEANINGFUL: Record<string, string> = {
  utf16le: 'it encodes Windows UTF-16 text, which network telemetry does not carry',
  utf16be: 'it encodes Windows UTF-16 text, which network telemetry does not carry',
  utf16: 'it encodes Windows UTF-16 text, which network telemetry does not carry',
  wide: 'it encodes Windows UTF-16 text, which network telemetry does not carry',
};

const POSITION = ['contains', 'startswith', 'endswith'];
const NUMERIC = ['lt', 'lte', 'gt', 'gte'];
const TYPES = ['re', 'cidr', 'exists', 'fieldref', ...NUMERIC];

export interface ModifierSet {
  field: string;
  list: Modifier[];
  has(m: Modifier): boolean;
}

/** Splits `field|mod|mod` and checks every modifier is known and the combination is legal. */
export function parseFieldSpec(spec: string): ModifierSet | string {
  const [field, ...raw] = spec.split('|');
  const list: Modifier[] = [];
  for (const m of raw) {
    if (m === '') return `'${spec}': empty modifier`;
    if (NOT_MEANINGFUL[m]) return `'${spec}': modifier '${m}' is not supported: ${NOT_MEANINGFUL[m]}`;
    if (!(KNOWN_MODIFIERS as readonly string[]).includes(m)) {
      return `'${spec}': unknown modifier '${m}' (known: ${KNOWN_MODIFIERS.join(', ')})`;
    }
    if (list.includes(m as Modifier)) return `'${spec}': modifier '${m}' given twice`;
    list.push(m as Modifier);
  }
  const has = (m: Modifier) => list.includes(m);
  const set: ModifierSet = { field, list, has };
  const illegal = combinationError(list);
  return illegal ? `'${spec}': ${illegal}` : set;
}

function combinationError(list: Modifier[]): string | undefined {
  const pick = (group: string[]) => list.filter((m) => group.includes(m));
  const position = pick(POSITION);
  if (position.length > 1) return `modifiers ${position.join(' and ')} exclude each other`;
  const types = pick(TYPES);
  if (types.length > 1) return `modifiers ${types.join(' and ')} exclude each other`;
  const type = types[0];
  const others = (allowed: string[]) => list.filter((m) => m !== type && !allowed.includes(m));
  if (type === 're') {
    const bad = others(['i', 'm', 's', 'all']);
    if (bad.length) return `modifier re cannot be combined with ${bad.join(', ')} (re takes only the flags i, m, s)`;
  } else {
    const flag = pick(['i', 'm', 's']);
    if (flag.length) return `modifier ${flag[0]} is a regular-expression flag and needs re`;
  }
  if (type === 'cidr' || type === 'exists' || NUMERIC.includes(type ?? '')) {
    const bad = others(type === 'cidr' ? ['all'] : []);
    if (bad.length) return `modifier ${type} cannot be combined with ${bad.join(', ')}`;
  }
  if (type === 'fieldref') {
    const bad = others([...POSITION, 'cased', 'all']);
    if (bad.length) return `modifier fieldref cannot be combined with ${bad.join(', ')}`;
  }
  if (list.includes('base64') && list.includes('base64offset')) return 'modifiers base64 and base64offset exclude each other';
  if (list.includes('base64offset') && !list.includes('contains')) return 'modifier base64offset needs contains (the value sits inside a longer encoded text)';
  return undefined;
}
