import { ALERTS_MAX_AGE_PATTERN, FINDINGS_MAX_AGE_PATTERN } from '@vigil/contracts';
import { InvalidQueryError } from './errors';
import { DEFAULT_MAX_AGE_SECONDS, parseMaxAge, type ResultKind } from './max-age';

function accepts(value: string, kind: ResultKind): boolean {
  try {
    parseMaxAge(value, kind);
    return true;
  } catch (error) {
    if (error instanceof InvalidQueryError) return false;
    throw error;
  }
}

describe('parseMaxAge', () => {
  it('defaults to 3 days when absent', () => {
    expect(DEFAULT_MAX_AGE_SECONDS).toBe(259200);
    expect(parseMaxAge(undefined, 'findings')).toBe(259200);
    expect(parseMaxAge(undefined, 'alerts')).toBe(259200);
  });

  it('refuses an empty value (`maxAge=`) with a message saying so', () => {
    expect(() => parseMaxAge('', 'findings')).toThrow(InvalidQueryError);
    expect(() => parseMaxAge('', 'alerts')).toThrow('maxAge must not be empty');
  });

  it('reads every unit of findings up to 30d', () => {
    expect(parseMaxAge('86400s', 'findings')).toBe(86400);
    expect(parseMaxAge('15m', 'findings')).toBe(900);
    expect(parseMaxAge('2h', 'findings')).toBe(7200);
    expect(parseMaxAge('30d', 'findings')).toBe(2592000);
    expect(parseMaxAge('2592000s', 'findings')).toBe(2592000);
    expect(parseMaxAge('43200m', 'findings')).toBe(2592000);
  });

  it('reads s, m and h for alerts up to 720h', () => {
    expect(parseMaxAge('720h', 'alerts')).toBe(2592000);
    expect(parseMaxAge('90s', 'alerts')).toBe(90);
    expect(() => parseMaxAge('1d', 'alerts')).toThrow(InvalidQueryError);
  });

  it.each(['31d', '2592001s', '43201m', '721h', '0s', '0d', '00h', '086400s', 's', '10', '-5s', '1.5h', ' 5s', '5S', '5 s', '9999999999999d', '1w'])(
    'rejects %p for findings or alerts',
    (value) => {
      expect(() => parseMaxAge(value, 'findings')).toThrow(InvalidQueryError);
      expect(() => parseMaxAge(value, 'alerts')).toThrow(InvalidQueryError);
    },
  );

  it('names the problem in the message', () => {
    expect(() => parseMaxAge('31d', 'findings')).toThrow('maxAge must be at most 30d (2592000s, 43200m, 720h or 30d), got "31d"');
    expect(() => parseMaxAge('721h', 'alerts')).toThrow('maxAge must be at most 720h (2592000s, 43200m or 720h)');
    expect(() => parseMaxAge('0s', 'findings')).toThrow('greater than zero');
    expect(() => parseMaxAge('0086400s', 'findings')).toThrow('without leading zeros');
    expect(() => parseMaxAge('1d', 'alerts')).toThrow('maxAge must be a whole number followed by s, m, h (e.g. 86400s), got "1d"');
  });

  it('serves exactly the values the published OpenAPI pattern allows', () => {
    const patterns: Record<ResultKind, RegExp> = { findings: new RegExp(FINDINGS_MAX_AGE_PATTERN), alerts: new RegExp(ALERTS_MAX_AGE_PATTERN) };
    const disagreements: string[] = [];
    for (const kind of ['findings', 'alerts'] as const) {
      for (const unit of ['s', 'm', 'h', 'd', 'w', '']) {
        const boundaries = [29, 30, 31, 719, 720, 721, 43_199, 43_200, 43_201, 2_591_999, 2_592_000, 2_592_001];
        for (const n of [...Array.from({ length: 2000 }, (_, i) => i), ...Array.from({ length: 520 }, (_, i) => 2000 + i * 4999), ...boundaries]) {
          for (const value of [`${n}${unit}`, `0${n}${unit}`]) {
            if (accepts(value, kind) !== patterns[kind].test(value)) disagreements.push(`${kind} ${value}`);
          }
        }
      }
    }
    expect(disagreements).toEqual([]);
  });
});
