import { ALERTS_MAX_AGE_PATTERN, FINDINGS_MAX_AGE_PATTERN, MAX_AGE_GRAMMARS, MAX_AGE_LIMIT_SECONDS, MAX_AGE_UNIT_SECONDS, maxAgeLimits } from './max-age';

/** The grammar written out by hand: digits without a leading zero, a unit of the kind, at most 30 days. */
function allowedByHand(value: string, units: string): boolean {
  const match = /^([1-9][0-9]*)([a-z])$/.exec(value);
  if (!match || !units.includes(match[2])) return false;
  return Number(match[1]) * MAX_AGE_UNIT_SECONDS[match[2] as 's'] <= MAX_AGE_LIMIT_SECONDS;
}

describe('maxAge grammar', () => {
  const kinds = [
    { kind: 'findings', pattern: new RegExp(FINDINGS_MAX_AGE_PATTERN), units: 'smhd' },
    { kind: 'alerts', pattern: new RegExp(ALERTS_MAX_AGE_PATTERN), units: 'smh' },
  ] as const;

  it('states the limit of each unit', () => {
    expect(MAX_AGE_GRAMMARS.findings.maxima).toEqual({ s: 2_592_000, m: 43_200, h: 720, d: 30 });
    expect(MAX_AGE_GRAMMARS.alerts.maxima).toEqual({ s: 2_592_000, m: 43_200, h: 720 });
    expect(maxAgeLimits('findings')).toBe('2592000s, 43200m, 720h or 30d');
    expect(maxAgeLimits('alerts')).toBe('2592000s, 43200m or 720h');
  });

  it.each(kinds)('$kind: the pattern allows exactly the numbers 1..limit of each unit (every number up to 3,000,000)', ({ pattern, units }) => {
    const disagreements: string[] = [];
    for (const unit of 'smhdwy') {
      for (let n = 0; n <= 3_000_000; n += n < 100_000 ? 1 : 7) {
        const value = `${n}${unit}`;
        if (pattern.test(value) !== allowedByHand(value, units)) disagreements.push(value);
      }
      for (const n of [2_591_999, 2_592_000, 2_592_001, 43_199, 43_200, 43_201, 719, 720, 721, 29, 30, 31]) {
        const value = `${n}${unit}`;
        if (pattern.test(value) !== allowedByHand(value, units)) disagreements.push(value);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it.each(kinds)('$kind: refuses every other shape', ({ pattern }) => {
    for (const value of ['', 's', '1', '01s', '00s', '-1s', '+1s', '1.5h', '1e3s', ' 1s', '1s ', '1S', '1 s', '1ss', 's1', '1s1s', '１s', '1s\n']) {
      expect({ value, allowed: pattern.test(value) }).toEqual({ value, allowed: false });
    }
  });
});
