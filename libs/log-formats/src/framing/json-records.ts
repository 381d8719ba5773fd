/** A JSON object read from a log, or the reason it could not be read. */
export type JsonRecord = { ok: true; value: Record<string, unknown> } | { ok: false; reason: 'invalid_json' | 'not_an_object' };

/**
 * Reads JSON objects from text fed line by line, in every layout log exports use: one object per line (NDJSON),
 * objects pretty-printed over several lines, objects written back to back, and a top-level array of objects
 * (`gcloud logging read --format=json`). Array brackets and separating commas between objects are skipped.
 *
 * The common case — a whole object on one line — costs one JSON.parse. Otherwise the text is scanned for the
 * object's end, keeping track of strings and nesting; a record is limited to `maxRecordChars`.
 */
export class JsonRecordScanner {
  private buffer = '';
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(private readonly maxRecordChars = 16 * 1024 * 1024) {}

  /** True between records: no object is partly read. */
  get idle(): boolean {
    return this.depth === 0 && this.buffer.length === 0;
  }

  line(text: string): JsonRecord[] {
    if (!this.idle && text.charCodeAt(0) === 0x7b && text.charCodeAt(text.length - 1) === 0x7d) {
      // A whole object at the start of a line while another is open: the open one was truncated (a writer
      // died mid-line). Give it up rather than let it swallow the records that follow.
      try {
        const record = asRecord(JSON.parse(text));
        this.reset();
        return [{ ok: false, reason: 'invalid_json' }, record];
      } catch {
        // part of the open object after all
      }
    }
    if (this.idle) {
      const trimmed = text.trim();
      if (trimmed.length === 0 || trimmed === '[' || trimmed === ']' || trimmed === ',' || trimmed === '],' || trimmed === '[]') return [];
      const candidate = trimmed.endsWith('},') ? trimmed.slice(0, -1) : trimmed;
      if (candidate.charCodeAt(0) === 0x7b /* { */ && candidate.charCodeAt(candidate.length - 1) === 0x7d /* } */) {
        try {
          return [asRecord(JSON.parse(candidate))];
        } catch {
          // several objects on one line, or an object that goes on: scan it
        }
      }
    }
    return this.scan(text + '\n');
  }

  private scan(text: string): JsonRecord[] {
    const records: JsonRecord[] = [];
    let start = this.depth > 0 ? 0 : -1; // start of the current object within `text`
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.depth === 0) {
        if (c === 0x7b) {
          this.depth = 1;
          start = i;
        } else if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x2c && c !== 0x5b && c !== 0x5d) {
          // Text outside any object: the rest of the line is not JSON we can read.
          records.push({ ok: false, reason: 'invalid_json' });
          this.buffer = '';
          return records;
        }
        continue;
      }
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === 0x5c) this.escaped = true;
        else if (c === 0x22) this.inString = false;
        continue;
      }
      if (c === 0x22) this.inString = true;
      else if (c === 0x7b || c === 0x5b) this.depth++;
      else if (c === 0x7d || c === 0x5d) {
        this.depth--;
        if (this.depth === 0) {
          const objectText = this.buffer + text.slice(start, i + 1);
          this.buffer = '';
          start = -1;
          try {
            records.push(asRecord(JSON.parse(objectText)));
          } catch {
            records.push({ ok: false, reason: 'invalid_json' });
          }
        }
      }
    }
    if (this.depth > 0 && start !== -1) {
      this.buffer += text.slice(start);
      if (this.buffer.length > this.maxRecordChars) {
        this.reset();
        records.push({ ok: false, reason: 'invalid_json' });
      }
    }
    return records;
  }

  /** The text of an unfinished object at the end of the input, as a rejection (a truncated last record). */
  finish(): JsonRecord[] {
    if (this.idle) return [];
    this.reset();
    return [{ ok: false, reason: 'invalid_json' }];
  }

  private reset(): void {
    this.buffer = '';
    this.depth = 0;
    this.inString = false;
    this.escaped = false;
  }
}

function asRecord(value: unknown): JsonRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? { ok: true, value: value as Record<string, unknown> }
    : { ok: false, reason: 'not_an_object' };
}
