import type { IndicatorKind, IndicatorRecord } from './indicator';
import { isIndicatorKind } from './indicator';
import { detectKind } from './normalise';

/**
 * Formats `IndicatorStore.loadList` reads:
 * - `vigil`: the seed format (see `libs/detection-engine/data/intel/README.md`): `@<kind>\t<label>\t<source>`
 *   group headers, each followed by one indicator per line; `#` comments.
 * - `tsv`: `indicator<TAB>kind<TAB>family` with an optional header line (the shared maltrail extract);
 *   labelled `<category>:<family>` with the category from the options (default `blocklist`).
 * - `lines`: one indicator per line (`#` comments, text after whitespace ignored), all with the options' label;
 *   the kind is the options' kind or guessed per line (domain, IP, CIDR, IP:port, URL).
 */
export const LIST_FORMATS = ['vigil', 'tsv', 'lines'] as const;
export type ListFormat = (typeof LIST_FORMATS)[number];

export interface ListParseOptions {
  /** `lines`: the label of every entry (required). */
  label?: string;
  /** `lines`: the kind of every entry (required for hashes: ja3, ja3s, cert). */
  kind?: IndicatorKind;
  /** `tsv`: category put in front of each family. */
  category?: string;
  /** Source recorded on each indicator (`vigil` lists carry their own). */
  source: string;
}

export class ListFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ListFormatError';
  }
}

/** Calls `emit` for each record; returns the number of lines skipped as unparseable. */
export function parseList(text: string, format: ListFormat, options: ListParseOptions, emit: (record: IndicatorRecord) => void): number {
  switch (format) {
    case 'vigil':
      return parseVigil(text, emit);
    case 'tsv':
      return parseTsv(text, options, emit);
    case 'lines':
      return parseLines(text, options, emit);
    default:
      throw new ListFormatError(`unknown intel list format "${String(format)}" (expected ${LIST_FORMATS.join(', ')})`);
  }
}

function forEachLine(text: string, visit: (line: string, lineNo: number) => void): void {
  let start = 0;
  let lineNo = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    const line = text.slice(start, end).replace(/\r$/, '');
    if (line.length > 0 && !line.startsWith('#')) visit(line, lineNo);
    start = end + 1;
  }
}

function parseVigil(text: string, emit: (record: IndicatorRecord) => void): number {
  let group: { kind: IndicatorKind; label: string; source: string } | undefined;
  forEachLine(text, (line, lineNo) => {
    if (line.startsWith('@')) {
      const [kind, label, source] = line.slice(1).split('\t');
      if (!isIndicatorKind(kind) || !label || !source) {
        throw new ListFormatError(`line ${lineNo}: bad group header "${line}" (expected @<kind>\\t<label>\\t<source>)`);
      }
      group = { kind, label, source };
      return;
    }
    if (group === undefined) throw new ListFormatError(`line ${lineNo}: indicator before the first @<kind> group header`);
    emit({ kind: group.kind, value: line, label: group.label, source: group.source });
  });
  return 0;
}

function parseTsv(text: string, options: ListParseOptions, emit: (record: IndicatorRecord) => void): number {
  const category = options.category ?? 'blocklist';
  let skipped = 0;
  forEachLine(text, (line, lineNo) => {
    const [value, kind, family] = line.split('\t');
    if (lineNo === 1 && value === 'indicator' && kind === 'kind') return;
    if (value === undefined || kind === undefined || !isIndicatorKind(kind) || !family) {
      skipped++;
      return;
    }
    emit({ kind, value, label: `${category}:${family}`, source: options.source });
  });
  return skipped;
}

function parseLines(text: string, options: ListParseOptions, emit: (record: IndicatorRecord) => void): number {
  const label = options.label;
  if (label === undefined) throw new ListFormatError('the "lines" format needs a label (e.g. "c2:Emotet")');
  let skipped = 0;
  forEachLine(text, (line) => {
    const value = line.trim().split(/\s+/)[0];
    if (value === undefined || value.length === 0) return;
    const kind = options.kind ?? detectKind(value);
    if (kind === undefined) {
      skipped++;
      return;
    }
    emit({ kind, value, label, source: options.source });
  });
  return skipped;
}
