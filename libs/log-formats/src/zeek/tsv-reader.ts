import type { ZeekRecord } from './zeek-record';

/** Header state of a Zeek TSV log; JSON-safe so a resumed import can restore it. */
export interface ZeekTsvHeader {
  separator: string;
  setSeparator: string;
  emptyField: string;
  unsetField: string;
  path?: string;
  fields?: string[];
  types?: string[];
}

export type TsvLine = { kind: 'header' } | { kind: 'record'; record: ZeekRecord } | { kind: 'rejected'; reason: string };

const DEFAULT_HEADER: ZeekTsvHeader = { separator: '\t', setSeparator: ',', emptyField: '(empty)', unsetField: '-' };

/**
 * Reads Zeek's ASCII (TSV) logs: the `#separator`, `#set_separator`, `#empty_field`, `#unset_field`, `#path`,
 * `#fields` and `#types` header lines set how the data lines that follow are read (a file may hold several header
 * blocks, e.g. concatenated logs); `#open`/`#close` are ignored. Unset values (`-`) are left out, empty
 * sets/vectors (`(empty)`) become `[]`, `\xHH` escapes (separators, non-printable bytes) are decoded.
 */
export class ZeekTsvReader {
  private header: ZeekTsvHeader;
  private listFields: boolean[] = [];

  constructor(state?: ZeekTsvHeader) {
    this.header = { ...DEFAULT_HEADER, ...state };
    this.indexTypes();
  }

  /** The header read so far (for checkpoints). */
  get state(): ZeekTsvHeader {
    return { ...this.header };
  }

  get path(): string | undefined {
    return this.header.path;
  }

  line(text: string): TsvLine {
    if (text.charCodeAt(0) === 0x23 /* # */) {
      this.readHeaderLine(text);
      return { kind: 'header' };
    }
    const { fields } = this.header;
    if (fields === undefined) return { kind: 'rejected', reason: 'zeek_data_before_fields_header' };
    const values = text.split(this.header.separator);
    if (values.length !== fields.length) return { kind: 'rejected', reason: 'zeek_field_count_mismatch' };
    const record: ZeekRecord = {};
    const { unsetField, emptyField, setSeparator } = this.header;
    for (let i = 0; i < fields.length; i++) {
      const raw = values[i];
      if (raw === unsetField) continue;
      if (this.listFields[i]) record[fields[i]] = raw === emptyField ? [] : raw.split(setSeparator).map(unescapeZeek);
      else record[fields[i]] = raw === emptyField ? '' : unescapeZeek(raw);
    }
    return { kind: 'record', record };
  }

  private readHeaderLine(text: string): void {
    if (text.startsWith('#separator ')) {
      this.header.separator = unescapeZeek(text.slice('#separator '.length).trim()) || '\t';
      return;
    }
    const sep = this.header.separator;
    const cut = text.indexOf(sep);
    if (cut === -1) return;
    const key = text.slice(1, cut);
    const value = text.slice(cut + sep.length);
    switch (key) {
      case 'set_separator':
        this.header.setSeparator = unescapeZeek(value);
        break;
      case 'empty_field':
        this.header.emptyField = unescapeZeek(value);
        break;
      case 'unset_field':
        this.header.unsetField = unescapeZeek(value);
        break;
      case 'path':
        this.header.path = value;
        break;
      case 'fields':
        this.header.fields = value.split(sep);
        this.header.types = undefined;
        this.indexTypes();
        break;
      case 'types':
        this.header.types = value.split(sep);
        this.indexTypes();
        break;
      default: // #open, #close and unknown meta lines
    }
  }

  private indexTypes(): void {
    const types = this.header.types ?? [];
    this.listFields = (this.header.fields ?? []).map((_, i) => /^(set|vector)\[/.test(types[i] ?? ''));
  }
}

/** Decodes Zeek's `\xHH` escapes and `\\`. Values without a backslash are returned as they are. */
export function unescapeZeek(value: string): string {
  if (!value.includes('\\')) return value;
  return value.replace(/\\(x[0-9a-fA-F]{2}|\\)/g, (_, code: string) => (code === '\\' ? '\\' : String.fromCharCode(parseInt(code.slice(1), 16))));
}
