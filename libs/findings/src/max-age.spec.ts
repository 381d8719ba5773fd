import { InvalidQueryError } from './errors';
import { DEFAULT_MAX_AGE_SECONDS, parseMaxAge } from './max-age';

describe('parseMaxAge', () => {
  it('defaults to 3 days when absent or empty', () => {
    expect(DEFAULT_MAX_AGE_SECONDS).toBe(259200);
    expect(parseMaxAge(undefined, 'findings')).toBe(259200);
    expect(parseMaxAge('', 'alerts')).toBe(259200);
  });

  it('reads every unit of findings up to 30d', () => {
    expect(parseMaxAge('86400s', 'findings')).toBe(86400);
    expect(parseMaxAge('15m', 'findings')).toBe(900);
    expect(parseMaxAge('2h', 'findings')).toBe(7200);
    expect(parseMaxAge('30d', 'findings')).toBe(2592000);
  });

  it('reads s, m and h for alerts up to 720h', () => {
    expect(parseMaxAge('720h', 'alerts')).toBe(2592000);
    expect(parseMaxAge('90s', 'alerts')).toBe(90);
    expect(() => parseMaxAge('1d', 'alerts')).toThrow(InvalidQueryError);
  });

  it.each(['31d', '2592001s', '721h', '0s', '0d', 's', '10', '-5s', '1.5h', ' 5s', '5S', '5 s', '9999999999999d'])(
    'rejects %p for findings or alerts',
    (value) => {
      expect(() => parseMaxAge(value, 'findings')).toThrow(InvalidQueryError);
      expect(() => parseMaxAge(value, 'alerts')).toThrow(InvalidQueryError);
    },
  );

  it('names the problem in the message', () => {
    expect(() => parseMaxAge('31d', 'findings')).toThrow('maxAge must be at most 30d, got "31d"');
    expect(() => parseMaxAge('721h', 'alerts')).toThrow('maxAge must be at most 720h');
    expect(() => parseMaxAge('0s', 'findings')).toThrow('greater than zero');
  });
});
