import { RowBinaryReader } from './row-binary';

/** RowBinary String: LEB128 length, then the bytes. */
function rbString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length: number[] = [];
  let n = bytes.length;
  do {
    length.push((n & 0x7f) | (n >= 0x80 ? 0x80 : 0));
    n = Math.floor(n / 128);
  } while (n > 0);
  return Buffer.concat([Buffer.from(length), bytes]);
}

function rbInt64(value: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(value);
  return b;
}

describe('RowBinaryReader', () => {
  it('reads Int64 as exact decimal text and strings of 1-, 2- and 3-byte lengths, unicode included', () => {
    const long = 'x'.repeat(200_000);
    const rows = [
      [1795724393742732n, 'r1', '{"a":"é ☃ 😀"}'],
      [-1n, '', 'y'.repeat(300)],
      [9007199254740993n, 'id\twith\nnewline', long],
    ] as const;
    const reader = new RowBinaryReader(Buffer.concat(rows.flatMap(([t, id, body]) => [rbInt64(t), rbString(id), rbString(body)])));
    for (const [t, id, body] of rows) {
      expect(reader.int64()).toBe(t.toString());
      expect(reader.string()).toBe(id);
      expect(reader.bytes().toString('utf8')).toBe(body);
    }
    expect(reader.done).toBe(true);
  });

  it('refuses a truncated row instead of reading past the end', () => {
    const whole = Buffer.concat([rbInt64(5n), rbString('abcdef')]);
    const reader = new RowBinaryReader(whole.subarray(0, whole.length - 2));
    expect(reader.int64()).toBe('5');
    expect(() => reader.string()).toThrow(/truncated/);
    expect(() => new RowBinaryReader(Buffer.from([1, 2, 3])).int64()).toThrow(/truncated/);
  });
});
