import { isGzip } from './gzip';
import { JsonRecordScanner } from './json-records';
import { LineSplitter } from './line-splitter';
import { gzipSync } from 'node:zlib';

describe('LineSplitter', () => {
  it('keeps byte offsets exact across chunk boundaries, multi-byte characters and CRLF', () => {
    const text = 'première ligne\r\nzweite Zeile ü\nlast without newline';
    const bytes = Buffer.from(text, 'utf8');
    const splitter = new LineSplitter(100);
    const lines = [];
    for (let i = 0; i < bytes.length; i += 3) lines.push(...splitter.push(bytes.subarray(i, i + 3)));
    const last = splitter.flush();
    expect(lines.map((l) => l.text)).toEqual(['première ligne', 'zweite Zeile ü']);
    expect(lines.map((l) => l.end)).toEqual([100 + Buffer.byteLength('première ligne\r\n'), 100 + Buffer.byteLength('première ligne\r\nzweite Zeile ü\n')]);
    expect(last).toEqual({ text: 'last without newline', end: 100 + bytes.length });
    expect(splitter.flush()).toBeUndefined();
  });

  it('does not depend on the caller keeping a chunk: a reused read buffer is safe', () => {
    const splitter = new LineSplitter();
    const buffer = Buffer.alloc(8);
    const lines = [];
    for (const piece of ['abcd', 'ef\ngh', 'ij\n']) {
      const bytes = Buffer.from(piece);
      bytes.copy(buffer);
      lines.push(...splitter.push(buffer.subarray(0, bytes.length)));
      buffer.fill(0x58);
    }
    expect(lines.map((l) => l.text)).toEqual(['abcdef', 'ghij']);
  });
});

describe('JsonRecordScanner', () => {
  it('reads NDJSON, back-to-back objects, braces inside strings and objects spread over lines', () => {
    const scanner = new JsonRecordScanner();
    const out = [
      ...scanner.line('{"a":1}'),
      ...scanner.line('{"b":"}{"}{"c":[1,{"d":2}]}'),
      ...scanner.line('{'),
      ...scanner.line('  "e": "line \\" }",'),
    ];
    expect(scanner.idle).toBe(false);
    out.push(...scanner.line('  "f": {"g": null}'), ...scanner.line('}'));
    expect(scanner.idle).toBe(true);
    expect(out).toEqual([{ ok: true, value: { a: 1 } }, { ok: true, value: { b: '}{' } }, { ok: true, value: { c: [1, { d: 2 }] } }, { ok: true, value: { e: 'line " }', f: { g: null } } }]);
    expect(scanner.line('[1, 2]')).toEqual([{ ok: false, reason: 'invalid_json' }]);
    expect(scanner.line('"text"')).toEqual([{ ok: false, reason: 'invalid_json' }]);
  });

  it('bounds one record', () => {
    const scanner = new JsonRecordScanner(100);
    expect(scanner.line('{"a":"' + 'x'.repeat(200))).toEqual([{ ok: false, reason: 'invalid_json' }]);
    expect(scanner.idle).toBe(true);
  });
});

describe('isGzip', () => {
  it('detects gzip by its magic bytes', () => {
    expect(isGzip(gzipSync('hello'))).toBe(true);
    expect(isGzip(Buffer.from('#separator \\x09'))).toBe(false);
    expect(isGzip(Buffer.alloc(1, 0x1f))).toBe(false);
  });
});
