/** A Sigma string value split into literal runs and wildcards (`*` any run, `?` one character). */
export type PatternToken = string | typeof STAR | typeof ONE;
export const STAR = 0 as const;
export const ONE = 1 as const;

/** Parses wildcards and escapes: `\*`, `\?` and `\\` are literal; any other backslash is itself. */
export function parseSigmaString(value: string): PatternToken[] {
  const tokens: PatternToken[] = [];
  let literal = '';
  const flush = () => {
    if (literal) tokens.push(literal);
    literal = '';
  };
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && i + 1 < value.length && '*?\\'.includes(value[i + 1])) {
      literal += value[++i];
    } else if (c === '*') {
      flush();
      if (tokens[tokens.length - 1] !== STAR) tokens.push(STAR);
    } else if (c === '?') {
      flush();
      tokens.push(ONE);
    } else {
      literal += c;
    }
  }
  flush();
  return tokens;
}

/** A plain literal (no wildcards) as tokens. */
export function literalTokens(value: string): PatternToken[] {
  return value ? [value] : [];
}

export function withAnchors(tokens: PatternToken[], leadingStar: boolean, trailingStar: boolean): PatternToken[] {
  const out = [...tokens];
  if (leadingStar && out[0] !== STAR) out.unshift(STAR);
  if (trailingStar && out[out.length - 1] !== STAR) out.push(STAR);
  return out;
}

/** The longest literal run: a string any match must contain (for the literal pre-filter). */
export function longestLiteral(tokens: PatternToken[]): string {
  let best = '';
  for (const t of tokens) if (typeof t === 'string' && t.length > best.length) best = t;
  return best;
}

export type StringTest = (s: string) => boolean;

/** Compiles tokens to a test; literals are lower-cased when the match is case-insensitive (the caller lowers the input). */
export function compileTokens(tokens: PatternToken[], caseInsensitive: boolean): StringTest {
  const t = tokens.map((x) => (typeof x === 'string' && caseInsensitive ? x.toLowerCase() : x));
  const hasOne = t.includes(ONE);
  if (!hasOne) {
    const lits = t.filter((x): x is string => typeof x === 'string');
    const starts = t[0] === STAR;
    const ends = t[t.length - 1] === STAR;
    if (t.length === 0) return (s) => s === '';
    if (t.length === 1 && starts) return () => true;
    if (lits.length === 1) {
      const lit = lits[0];
      if (starts && ends) return (s) => s.includes(lit);
      if (starts) return (s) => s.endsWith(lit);
      if (ends) return (s) => s.startsWith(lit);
      return (s) => s === lit;
    }
  }
  return compileGlob(t);
}

/**
 * General glob: the pattern is split at `*` into segments (literal characters and `?`); the first
 * is anchored at the start, the last at the end, the middle ones are found left-most in turn,
 * which is optimal for `*`-only separators and keeps the cost O(n·m) with no backtracking blow-up.
 */
function compileGlob(tokens: PatternToken[]): StringTest {
  const segments: Array<Array<string | null>> = [[]];
  for (const t of tokens) {
    if (t === STAR) segments.push([]);
    else if (t === ONE) segments[segments.length - 1].push(null);
    else segments[segments.length - 1].push(...t.split(''));
  }
  const anchoredStart = tokens[0] !== STAR;
  const anchoredEnd = tokens[tokens.length - 1] !== STAR;
  const segmentAt = (s: string, seg: Array<string | null>, at: number): boolean => {
    if (at + seg.length > s.length) return false;
    for (let k = 0; k < seg.length; k++) if (seg[k] !== null && seg[k] !== s[at + k]) return false;
    return true;
  };
  const find = (s: string, seg: Array<string | null>, from: number): number => {
    for (let at = from; at + seg.length <= s.length; at++) if (segmentAt(s, seg, at)) return at;
    return -1;
  };
  return (s) => {
    if (segments.length === 1) return s.length === segments[0].length && segmentAt(s, segments[0], 0);
    const first = segments[0];
    const last = segments[segments.length - 1];
    if (first.length + last.length > s.length) return false;
    if (anchoredStart && !segmentAt(s, first, 0)) return false;
    const end = s.length - last.length;
    if (anchoredEnd && !segmentAt(s, last, end)) return false;
    let pos = anchoredStart ? first.length : 0;
    const middleFrom = anchoredStart ? 1 : 0;
    const middleTo = anchoredEnd ? segments.length - 1 : segments.length;
    for (let i = middleFrom; i < middleTo; i++) {
      const at = find(s, segments[i], pos);
      if (at === -1) return false;
      pos = at + segments[i].length;
    }
    return pos <= (anchoredEnd ? end : s.length);
  };
}
