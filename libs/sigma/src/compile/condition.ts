/** The condition grammar of Sigma v2: and, or, not, parentheses, `1 of`/`all of` a pattern or `them`. */
export type ConditionNode =
  | { kind: 'id'; name: string }
  | { kind: 'and' | 'or'; children: ConditionNode[] }
  | { kind: 'not'; child: ConditionNode }
  | { kind: 'of'; quantifier: 'one' | 'all'; pattern: string };

type Token = { text: string; at: number };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const re = /\s*([()]|[^\s()]+)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[1] === undefined) break;
    tokens.push({ text: m[1], at: m.index + m[0].length - m[1].length });
  }
  return tokens;
}

const KEYWORDS = new Set(['and', 'or', 'not', 'of', 'them', 'all', '1', 'any']);

/** Parses a condition; errors name the position and what was expected. */
export function parseCondition(text: string): ConditionNode | string {
  const tokens = tokenize(text);
  if (tokens.length === 0) return 'condition is empty';
  let pos = 0;
  const peek = () => tokens[pos]?.text.toLowerCase();
  const here = () => (pos < tokens.length ? `'${tokens[pos].text}' at column ${tokens[pos].at + 1}` : 'the end');
  const fail = (what: string) => {
    throw new Error(`condition ${JSON.stringify(text)}: expected ${what}, found ${here()}`);
  };
  const parseOr = (): ConditionNode => {
    const children = [parseAnd()];
    while (peek() === 'or') {
      pos++;
      children.push(parseAnd());
    }
    return children.length === 1 ? children[0] : { kind: 'or', children };
  };
  const parseAnd = (): ConditionNode => {
    const children = [parseNot()];
    while (peek() === 'and') {
      pos++;
      children.push(parseNot());
    }
    return children.length === 1 ? children[0] : { kind: 'and', children };
  };
  const parseNot = (): ConditionNode => {
    if (peek() === 'not') {
      pos++;
      return { kind: 'not', child: parseNot() };
    }
    return parsePrimary();
  };
  const parsePrimary = (): ConditionNode => {
    const t = peek();
    if (t === undefined) return fail('an identifier, "not", "(" or "1 of"/"all of"');
    if (t === '(') {
      pos++;
      const inner = parseOr();
      if (peek() !== ')') fail('")"');
      pos++;
      return inner;
    }
    if (tokens[pos + 1]?.text.toLowerCase() === 'of') {
      if (t !== '1' && t !== 'all' && t !== 'any') {
        throw new Error(`condition ${JSON.stringify(text)}: '${tokens[pos].text} of' is not Sigma; use '1 of' or 'all of'`);
      }
      pos += 2;
      const target = tokens[pos];
      if (!target || target.text === '(' || target.text === ')') fail('an identifier pattern or "them" after "of"');
      pos++;
      return { kind: 'of', quantifier: t === 'all' ? 'all' : 'one', pattern: target.text.toLowerCase() === 'them' ? 'them' : target.text };
    }
    if (t === ')' || KEYWORDS.has(t)) fail('an identifier');
    return { kind: 'id', name: tokens[pos++].text };
  };
  try {
    const node = parseOr();
    if (pos < tokens.length) fail('"and", "or" or the end');
    return node;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Identifiers a `x of pattern` refers to; `them` is every identifier except those starting with '_'. */
export function expandPattern(pattern: string, identifiers: string[]): string[] {
  if (pattern === 'them') return identifiers.filter((id) => !id.startsWith('_'));
  if (!pattern.includes('*')) return identifiers.filter((id) => id === pattern);
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return identifiers.filter((id) => re.test(id));
}
