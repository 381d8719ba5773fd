import { createHash } from 'node:crypto';
import { DigestFilter } from './digest-filter';
import { normaliseHash } from './normalise';

const digest = (algorithm: string, i: number) => createHash(algorithm).update(`certificate ${i}`).digest('hex');

describe('DigestFilter', () => {
  const held = [...Array.from({ length: 300 }, (_, i) => digest('md5', i)), ...Array.from({ length: 300 }, (_, i) => digest('sha256', i))];
  const filter = new DigestFilter(held, held.length);

  it('never rules out a held digest in any form that normalises to it', () => {
    const forms = (hex: string) => [hex, hex.toUpperCase(), hex.match(/../g)!.join(':'), ` ${hex} `, hex.match(/.{8}/g)!.join(' ').toUpperCase()];
    for (const hex of held) {
      for (const form of forms(hex)) {
        expect(normaliseHash(form)).toBe(hex);
        expect(filter.mayHoldNormalFormOf(form)).toBe(true);
      }
    }
  });

  it('rules out most digests it does not hold, as sent', () => {
    const absent = Array.from({ length: 20_000 }, (_, i) => digest('sha1', i));
    const passed = absent.filter((value) => filter.mayHoldNormalFormOf(value) || filter.mayHoldNormalFormOf(value.toUpperCase())).length;
    expect(passed / absent.length).toBeLessThan(0.15);
  });

  it('cannot rule out a value that does not start with eight hex digits', () => {
    const empty = new DigestFilter([], 0);
    expect(['AB:CD:EF:01', ' abcdef0123', 'abc', 'xyz01234567'].every((value) => empty.mayHoldNormalFormOf(value))).toBe(true);
    expect(empty.mayHoldNormalFormOf('abcdef0123456789abcdef0123456789')).toBe(false);
  });
});
