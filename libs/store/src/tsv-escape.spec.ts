import { escapedForTsv } from './tsv-escape';

/** What TSV needs, said the obvious way (a string of the whole input). */
const reference = (lines: Buffer) => Buffer.from(lines.toString('latin1').replaceAll('\\', '\\\\'), 'latin1');

describe('escapedForTsv', () => {
  it('passes lines without a backslash on uncopied', () => {
    const plain = Buffer.from('{"a":1}\n{"b":"é"}\n');
    expect(escapedForTsv(plain)).toBe(plain);
  });

  it('doubles every backslash, sparse or dense, and leaves multi-byte UTF-8 alone', () => {
    const line = '{"ua":"Mozilla \\"x\\"","subject":"CN=a\\\\, O=Ünïcødé","n":1}\n';
    const cases = [
      Buffer.from('x\\y\n'),
      Buffer.from('\\'),
      Buffer.from('\\\\\\'),
      Buffer.from(line.repeat(2000)),
      Buffer.from('\\"'.repeat(50_000)),
      Buffer.from('a'.repeat(100_000) + '\\' + 'b'.repeat(100_000) + '\\'),
    ];
    for (const lines of cases) expect(escapedForTsv(lines).equals(reference(lines))).toBe(true);
  });

  it('agrees with the reference on random bytes of every backslash density, and on slices of a larger buffer', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (const share of [0, 0.001, 0.01, 0.05, 0.3, 0.9]) {
      const bytes = Buffer.alloc(30_000, 0);
      for (let i = 0; i < bytes.length; i++) bytes[i] = random() < share ? 0x5c : 0x20 + Math.floor(random() * 200);
      // A slice with an offset into its memory block, as the pieces of a coalesced insert are.
      const slice = bytes.subarray(1234, 28_000);
      expect(escapedForTsv(slice).equals(reference(slice))).toBe(true);
    }
  });
});
