import { lowerCase } from './lower-case';

describe('lowerCase', () => {
  it('equals toLowerCase on ASCII, upper case and non-ASCII text', () => {
    for (const s of ['', 'allow', 'ALLOW', 'Mixed.Case', 'x-Y_z09', 'İstanbul', 'ÀB', 'straße', 'ΣΑΣ', 'a\u0130b']) expect(lowerCase(s)).toBe(s.toLowerCase());
  });

  it('returns the same string when nothing changes', () => {
    const s = ['lower', 'case'].join('-');
    expect(lowerCase(s)).toBe(s);
  });
});
