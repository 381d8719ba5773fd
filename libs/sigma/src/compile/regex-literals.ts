/**
 * Literals a regular expression requires, for the pre-filter: a list of clauses (all required),
 * each a set of lower-case ASCII strings one of which every match contains. The parser is
 * deliberately conservative: whatever it does not fully understand (classes with nested brackets,
 * `\Q…\E`, octal escapes) yields no clause rather than a wrong one.
 */
export type LiteralClauses = string[][];

const META = new Set(['.', '^', '$', '|', '(', ')', '[', ']', '*', '+', '?', '{', '}', '\\']);

class GiveUp extends Error {}

interface Piece {
  /** Clauses every match of this piece satisfies. */
  clauses: LiteralClauses;
}

/**
 * @param caseInsensitive RE2 case folding also maps `ſ` to `s` and the Kelvin sign to `k`, which
 * `toLowerCase` does not, so under `i` those letters are not used as literal characters.
 */
export function regexLiteralClauses(source: string, caseInsensitive: boolean, minLength: number): LiteralClauses {
  const insensitive = caseInsensitive || /\(\?[a-zA-Z]*i/.test(source);
  let pos = 0;

  const parseAlternation = (): Piece => {
    const branches: Piece[] = [parseSequence()];
    while (source[pos] === '|') {
      pos++;
      branches.push(parseSequence());
    }
    if (branches.length === 1) return branches[0];
    // Any branch may match: one clause, the union of each branch's best clause, if every branch has one.
    const union = new Set<string>();
    for (const b of branches) {
      const best = bestClause(b.clauses);
      if (!best) return { clauses: [] };
      for (const l of best) union.add(l);
    }
    return { clauses: [[...union]] };
  };

  const parseSequence = (): Piece => {
    const clauses: LiteralClauses = [];
    let run = '';
    const flush = () => {
      if (run.length >= minLength) clauses.push([run.toLowerCase()]);
      run = '';
    };
    while (pos < source.length && source[pos] !== '|' && source[pos] !== ')') {
      const c = source[pos];
      let literal: string | null = null;
      let group: Piece | null = null;
      if (c === '(') {
        pos++;
        if (source[pos] === '?') {
          // (?flags) alone, or (?flags:…), (?P<name>…), (?<name>…)
          const flags = /^\?[a-zA-Z-]*\)/.exec(source.slice(pos));
          if (flags) {
            pos += flags[0].length;
            flush();
            continue;
          }
          const named = /^\?P?<[^>]*>|^\?[a-zA-Z-]*:/.exec(source.slice(pos));
          if (!named) throw new GiveUp();
          pos += named[0].length;
        }
        group = parseAlternation();
        if (source[pos] !== ')') throw new GiveUp();
        pos++;
      } else if (c === '[') {
        skipClass();
      } else if (c === '\\') {
        literal = parseEscape();
      } else if (c === '.' || c === '^' || c === '$') {
        pos++;
      } else if (c === '*' || c === '+' || c === '?' || c === '{') {
        // A quantifier without an atom (or a literal brace RE2 accepts): nothing to rely on.
        throw new GiveUp();
      } else {
        pos++;
        literal = c;
      }
      const minRepeat = parseQuantifier();
      if (literal !== null && usable(literal)) {
        if (minRepeat === 0) flush();
        else {
          run += literal;
          if (minRepeat !== 1) flush();
        }
      } else {
        flush();
        if (group && minRepeat !== 0) clauses.push(...group.clauses);
      }
      if (minRepeat !== 1) flush();
    }
    flush();
    return { clauses };
  };

  const usable = (ch: string): boolean => {
    const code = ch.charCodeAt(0);
    if (code < 0x20 || code > 0x7e) return false;
    return !(insensitive && /[sk]/i.test(ch));
  };

  /** Reads an optional quantifier after an atom; returns its minimum count (1 when there is none). */
  const parseQuantifier = (): number => {
    const c = source[pos];
    let min = 1;
    if (c === '*' || c === '?') {
      min = 0;
      pos++;
    } else if (c === '+') {
      min = 2; // "at least once": the atom is required but the run cannot continue through it
      pos++;
    } else if (c === '{') {
      const m = /^\{(\d+)(,\d*)?\}/.exec(source.slice(pos));
      if (!m) throw new GiveUp();
      const n = Number(m[1]);
      min = n === 0 ? 0 : n === 1 && m[2] === undefined ? 1 : 2;
      pos += m[0].length;
    } else return 1;
    if (source[pos] === '?') pos++; // non-greedy
    return min;
  };

  const skipClass = (): void => {
    pos++;
    if (source[pos] === '^') pos++;
    if (source[pos] === ']') pos++;
    while (pos < source.length && source[pos] !== ']') {
      if (source[pos] === '[') throw new GiveUp();
      if (source[pos] === '\\') pos++;
      pos++;
    }
    if (source[pos] !== ']') throw new GiveUp();
    pos++;
  };

  /** An escape: the literal character it stands for, or null for a class, assertion or code. */
  const parseEscape = (): string | null => {
    const e = source[pos + 1];
    if (e === undefined) throw new GiveUp();
    pos += 2;
    if (/[0-9Q]/.test(e)) throw new GiveUp();
    if (/[a-zA-Z]/.test(e)) {
      if ((e === 'p' || e === 'P' || e === 'x') && source[pos] === '{') {
        const close = source.indexOf('}', pos);
        if (close === -1) throw new GiveUp();
        pos = close + 1;
      } else if (e === 'p' || e === 'P') pos++;
      else if (e === 'x') pos += 2;
      return null;
    }
    return META.has(e) || /[^\w]/.test(e) ? e : null;
  };

  try {
    const piece = parseAlternation();
    if (pos !== source.length) return [];
    return piece.clauses;
  } catch (err) {
    if (err instanceof GiveUp) return [];
    throw err;
  }
}

/** The clause that screens best: longest shortest literal, then fewest literals. */
export function bestClause(clauses: LiteralClauses): string[] | undefined {
  let best: string[] | undefined;
  let bestScore = -Infinity;
  for (const c of clauses) {
    if (c.length === 0) continue;
    const score = Math.min(...c.map((l) => l.length)) * 1000 - c.length;
    if (score > bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best;
}
