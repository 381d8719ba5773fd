import { gzipSync } from 'node:zlib';

/** Newline-delimited JSON, one event per line, each line newline-terminated (as sensors send it). */
export function toNdjson(events: readonly unknown[]): Buffer {
  return Buffer.from(events.map((e) => `${JSON.stringify(e)}\n`).join(''), 'utf8');
}

/** {@link toNdjson}, gzip-compressed (send with `Content-Encoding: gzip`). */
export function gzipNdjson(events: readonly unknown[]): Buffer {
  return gzipSync(toNdjson(events));
}

/** Produces the first `count` events of a deterministic sequence (a longer call repeats the shorter one's prefix). */
export type EventSource = (count: number) => readonly unknown[];

/**
 * An NDJSON body of whole lines, as close to `bytes` as possible without going over it (it falls short by
 * less than one line). Used for the 1 MB and 10 MB benchmark bodies. `source` must be deterministic in the
 * sense of {@link EventSource}: the body is its first N events.
 */
export function ndjsonBodyOfSize(bytes: number, source: EventSource): Buffer {
  if (!Number.isInteger(bytes) || bytes < 1) throw new RangeError(`bytes must be a positive integer, got ${bytes}`);
  const sample = source(16);
  if (sample.length === 0) throw new RangeError('the event source produced no events');
  const sampleBytes = toNdjson(sample).length;
  let count = Math.max(16, Math.ceil((bytes / (sampleBytes / sample.length)) * 1.1));
  for (;;) {
    const events = source(count);
    const lines: Buffer[] = [];
    let size = 0;
    let full = false;
    for (const event of events) {
      const line = Buffer.from(`${JSON.stringify(event)}\n`, 'utf8');
      if (size + line.length > bytes) {
        full = true;
        break;
      }
      lines.push(line);
      size += line.length;
    }
    // Filled up, or the source has no more events to give: done.
    if (full || events.length < count) return Buffer.concat(lines, size);
    count *= 2;
  }
}
