import { parseDocument } from 'yaml';
import type { WorkspacePlaceholders } from '@vigil/contracts';
import { scanYamlText, yamlExpansionError, yamlTextError } from '@vigil/sigma';

/**
 * Per-workspace values of Sigma `expand` placeholders (`field|expand: '%name%'`).
 *
 * A rule archive may carry a reserved file `placeholders.yml` (or `placeholders.yaml`) at its root, a YAML map
 * from placeholder name to a list of strings:
 *
 * ```yaml
 * admin_hosts: [jump1.corp.example, jump2.corp.example]
 * c2_domains:
 *   - '*.bad.example'
 * ```
 *
 * It is not a rule file. `import_mode=merge`: a file replaces the workspace's placeholders, no file keeps them;
 * `import_mode=replace`: the workspace's placeholders become the file's, no file means none. Rules of the upload
 * (and, in merge mode, the rules kept) are compiled with the resulting placeholders; a rule naming one that is
 * not configured is refused with an error naming it.
 */
export const PLACEHOLDERS_FILE_NAMES: readonly string[] = ['placeholders.yml', 'placeholders.yaml'];

export const PLACEHOLDER_LIMITS = {
  maxNames: 256,
  maxNameLength: 64,
  maxValuesPerName: 1000,
  maxValuesInAll: 10_000,
  maxValueLength: 1024,
  /** Bytes of the file (the archive reader already caps every `.yml` at 1 MB). */
  maxBytes: 1024 * 1024,
  maxAliasCount: 100,
  /** `name: [a, b]` needs one level; anything deeper is refused before parsing. */
  maxFlowDepth: 4,
} as const;

const NAME = /^[A-Za-z0-9_.-]+$/;

export type PlaceholdersParseResult = { ok: true; placeholders: WorkspacePlaceholders } | { ok: false; error: string };

/** True for the reserved file at the archive's root (never in a folder). */
export function isPlaceholdersFile(fileName: string): boolean {
  return PLACEHOLDERS_FILE_NAMES.includes(fileName);
}

/** Parses and validates a placeholders file; an empty file configures no placeholder. */
export function parsePlaceholdersFile(text: string): PlaceholdersParseResult {
  const fail = (error: string): PlaceholdersParseResult => ({ ok: false, error });
  const limits = PLACEHOLDER_LIMITS;
  if (Buffer.byteLength(text, 'utf8') > limits.maxBytes) return fail(`placeholders file is larger than ${limits.maxBytes} bytes`);
  if (scanYamlText(text).flowDepth > limits.maxFlowDepth) return fail(`YAML nesting deeper than ${limits.maxFlowDepth} levels`);
  // The same budget as rule files: bounded before the parser runs, and once parsed before aliases are expanded.
  const tooLarge = yamlTextError(text);
  if (tooLarge) return fail(tooLarge);

  const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true, merge: false });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0];
    return fail(`YAML error at ${pos ? `line ${pos.line}, column ${pos.col}` : 'unknown position'}: ${first.message.split(/ at line \d+/)[0]}`);
  }
  const expands = yamlExpansionError(doc);
  if (expands) return fail(expands);
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: limits.maxAliasCount });
  } catch (err) {
    return fail(`YAML cannot be converted: ${(err as Error).message}`);
  }
  if (data === null || data === undefined) return { ok: true, placeholders: {} };
  if (typeof data !== 'object' || Array.isArray(data)) return fail('placeholders file must be a YAML map of placeholder name to a list of strings');

  const entries = Object.entries(data as Record<string, unknown>);
  if (entries.length > limits.maxNames) return fail(`placeholders file names ${entries.length} placeholders; the limit is ${limits.maxNames}`);
  const placeholders: WorkspacePlaceholders = {};
  let total = 0;
  for (const [name, values] of entries) {
    if (name.length > limits.maxNameLength) return fail(`placeholder name '${name.slice(0, 80)}…' is longer than ${limits.maxNameLength} characters`);
    if (!NAME.test(name)) return fail(`placeholder name ${JSON.stringify(name)} is not allowed: use letters, digits, '_', '.' and '-'`);
    if (!Array.isArray(values)) return fail(`placeholder '${name}': expected a list of strings, got ${describe(values)}`);
    if (values.length === 0) return fail(`placeholder '${name}': the list of values is empty`);
    if (values.length > limits.maxValuesPerName) return fail(`placeholder '${name}' has ${values.length} values; the limit is ${limits.maxValuesPerName}`);
    const bad = values.findIndex((v) => typeof v !== 'string');
    if (bad >= 0) return fail(`placeholder '${name}': value ${bad + 1} must be a string, got ${describe(values[bad])} (quote it)`);
    const long = (values as string[]).findIndex((v) => v.length > limits.maxValueLength);
    if (long >= 0) return fail(`placeholder '${name}': value ${long + 1} is longer than ${limits.maxValueLength} characters`);
    total += values.length;
    if (total > limits.maxValuesInAll) return fail(`placeholders file holds more than ${limits.maxValuesInAll} values in all`);
    placeholders[name] = [...new Set(values as string[])];
  }
  return { ok: true, placeholders };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a map';
  return `${typeof value} ${JSON.stringify(value)}`;
}
