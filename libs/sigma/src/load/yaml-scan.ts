/** What a linear scan of raw YAML text finds, before any parser runs. */
export interface YamlTextShape {
  /** Deepest nesting of flow collections (`[[[…` / `{{{…`). */
  flowDepth: number;
  /**
   * Structural tokens: flow openers and separators, `- ` sequence entries, `key:` indicators and aliases. Each
   * becomes at least one node of the parser's tree, so this bounds the tree's size from above (text inside block
   * scalars may be counted too: the count errs on the high side, never the low one).
   */
  tokens: number;
}

const enum Char {
  Tab = 9,
  LineFeed = 10,
  Return = 13,
  Space = 32,
  DoubleQuote = 34,
  Hash = 35,
  SingleQuote = 39,
  Star = 42,
  Comma = 44,
  Dash = 45,
  Colon = 58,
  Question = 63,
  OpenBracket = 91,
  Backslash = 92,
  CloseBracket = 93,
  OpenBrace = 123,
  CloseBrace = 125,
}

const isSpace = (c: number) => c === Char.Space || c === Char.LineFeed || c === Char.Tab || c === Char.Return || Number.isNaN(c);
/** A quote or an alias starts a token only after whitespace or an indicator. */
const isTokenStart = (c: number) => isSpace(c) || c === Char.Colon || c === Char.Comma || c === Char.OpenBracket || c === Char.OpenBrace || c === Char.Dash;

/**
 * One pass over the text, skipping quoted strings and comments. Stops once `stopAfterTokens` is passed (the
 * caller then only needs to know that the limit is exceeded), so its cost is linear in the text whatever it holds.
 */
export function scanYamlText(text: string, stopAfterTokens = Infinity): YamlTextShape {
  let depth = 0;
  let flowDepth = 0;
  let tokens = 0;
  let quote = 0;
  let comment = false;
  let previous = Char.LineFeed as number;
  for (let i = 0; i < text.length && tokens <= stopAfterTokens; i++) {
    const c = text.charCodeAt(i);
    if (comment) {
      if (c === Char.LineFeed) comment = false;
    } else if (quote !== 0) {
      if (c === quote) quote = 0;
      else if (c === Char.Backslash && quote === Char.DoubleQuote) i++;
    } else if ((c === Char.DoubleQuote || c === Char.SingleQuote) && isTokenStart(previous)) quote = c;
    else if (c === Char.Hash && isSpace(previous)) comment = true;
    else if (c === Char.OpenBracket || c === Char.OpenBrace) {
      tokens++;
      flowDepth = Math.max(flowDepth, ++depth);
    } else if ((c === Char.CloseBracket || c === Char.CloseBrace) && depth > 0) depth--;
    else if (c === Char.Comma && depth > 0) tokens++;
    else if (c === Char.Colon) {
      const next = text.charCodeAt(i + 1);
      if (isSpace(next) || (depth > 0 && (next === Char.Comma || next === Char.CloseBracket || next === Char.CloseBrace))) tokens++;
    } else if ((c === Char.Dash || c === Char.Question) && isSpace(previous) && isSpace(text.charCodeAt(i + 1))) tokens++;
    else if (c === Char.Star && isTokenStart(previous)) tokens++;
    previous = c;
  }
  return { flowDepth, tokens };
}
