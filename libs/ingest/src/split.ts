/**
 * Splits a telemetry request body into JSON values.
 *
 * The body is JSON texts written one after another. Two paths:
 * - fast path, per line: a line that parses on its own (`indexOf('\n')` + `JSON.parse`) is one item, which
 *   is how almost every client writes (NDJSON);
 * - scanner, from a line that does not parse: a JSON grammar checker that finds where each value ends, so
 *   `{..}{..}`, objects spanning lines and any whitespace between them also work. Only text it has checked
 *   goes to `JSON.parse`. It hands back to the fast path at the next line end reached between two values.
 *
 * A failed `JSON.parse` costs ~20 µs in V8 (it builds a detailed message), so a body of short broken lines
 * could burn a minute of CPU: after {@link MAX_FAST_PATH_FAILURES} failed lines, or for a line longer than
 * {@link MAX_FAST_PATH_LINE} characters, the scanner is used directly. Every byte is checked a bounded number
 * of times, so the cost stays linear even for hostile bodies.
 *
 * Leniency: a UTF-8 BOM (at the start or before any value) is skipped, commas between top-level values are
 * ignored, and a top-level array is a batch: each element is one item. Top-level scalars (`123`, `"x"`) are
 * items like any value; the normaliser rejects them as `not_an_object`.
 *
 * Per-event bounds (./event-bounds): the scanner checks any depth (its stack grows with the text), but does
 * not parse a value nested deeper than {@link MAX_EVENT_DEPTH}, nor an object with more than
 * {@link MAX_EVENT_FIELDS} fields: that would be work out of proportion for an event the normaliser rejects
 * anyway (parsing an object of 600,000 fields takes seconds). Such an object is a `too_deep` or
 * `too_many_fields` item, a too-deep value of another kind a `not_an_object` one — what the normaliser says of
 * the same value when the fast path parsed it. An element of a top-level array is measured on its own.
 *
 * Recovery from malformed text. The malformed part is one `invalid_json` item, and reading resumes at:
 * - the next line, when the value breaks at a line end: a raw newline inside a string (JSON forbids it), or
 *   a line end where a value must follow inside an object that began with content on its first line
 *   (NDJSON style) while the next line is a complete object — so a truncated NDJSON line costs one item;
 * - a `{` where the grammar does not allow one (`{"a":1{"b":2}`): the next object starts there;
 * - otherwise the next `{` that follows a `}` or `]` (blanks and commas between), or the next line. Any
 *   other `{` may be a nested value of the broken object and must not become an item of its own.
 */

import { MAX_EVENT_DEPTH, MAX_EVENT_FIELDS } from './event-bounds';

/**
 * `text`, when set, is the JSON text the value was parsed from (one NDJSON line, blanks around it included):
 * a consumer that would serialize an unchanged value again may use it instead.
 */
export type SplitItem = { ok: true; value: unknown; text?: string } | { ok: false; reason: SplitRejectionReason };
/** `too_deep`, `too_many_fields`: a complete JSON object over a per-event bound, not parsed. */
export type SplitRejectionReason = 'invalid_json' | 'too_deep' | 'too_many_fields' | 'not_an_object';

const INVALID_JSON: SplitItem = Object.freeze({ ok: false, reason: 'invalid_json' }) as SplitItem;
const TOO_DEEP: SplitItem = Object.freeze({ ok: false, reason: 'too_deep' }) as SplitItem;
const TOO_MANY_FIELDS: SplitItem = Object.freeze({ ok: false, reason: 'too_many_fields' }) as SplitItem;
const NOT_AN_OBJECT: SplitItem = Object.freeze({ ok: false, reason: 'not_an_object' }) as SplitItem;

/** Initial size of the scanner's stack of open containers; it grows for deeper text. */
const INITIAL_STACK_DEPTH = 64;
/** After this many lines failed `JSON.parse`, the rest of the body goes through the scanner only. */
export const MAX_FAST_PATH_FAILURES = 32;
/** Longer lines (typically a whole body of concatenated objects) go straight to the scanner. */
export const MAX_FAST_PATH_LINE = 256 * 1024;

const TAB = 9;
const LF = 10;
const CR = 13;
const SPACE = 32;
const QUOTE = 34;
const PLUS = 43;
const COMMA = 44;
const MINUS = 45;
const DOT = 46;
const SLASH = 47;
const ZERO = 48;
const NINE = 57;
const COLON = 58;
const UPPER_A = 65;
const UPPER_E = 69;
const UPPER_F = 70;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;
const CLOSE_BRACKET = 93;
const LOWER_A = 97;
const LOWER_B = 98;
const LOWER_E = 101;
const LOWER_F = 102;
const LOWER_N = 110;
const LOWER_R = 114;
const LOWER_T = 116;
const LOWER_U = 117;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const BOM = 0xfeff;

const PARSE_FAILED = Symbol('parse failed');

/**
 * A Buffer body is decoded a block of whole lines at a time, about this many bytes: small strings die young in
 * the ingest thread, where one string of a whole body (megabytes, in V8's large-object space) grew its old
 * generation by a body's size each time and brought on a full collection every few bodies. A line end never falls
 * inside a UTF-8 sequence, so the blocks decode to the same text. Once a line needs the scanner, which may read on
 * past any line end, the rest of the body is decoded as one string.
 */
const DECODE_BLOCK_BYTES = 32 * 1024;

export function* splitJsonObjects(body: Buffer | string): Generator<SplitItem, void, undefined> {
  const progress: FastPathProgress = { failures: 0 };
  if (typeof body === 'string') {
    yield* splitText(body, progress, false);
    return;
  }
  for (let start = 0; start < body.length; ) {
    const end = blockEnd(body, start);
    const block = body.toString('utf8', start, end);
    const stoppedAt = yield* splitText(block, progress, true);
    if (stoppedAt < block.length) {
      yield* splitText(body.toString('utf8', start + Buffer.byteLength(block.slice(0, stoppedAt))), progress, false);
      return;
    }
    start = end;
  }
}

/** Where the block of a Buffer body that begins at `start` ends: just after a line end, or at the body's end. */
function blockEnd(body: Buffer, start: number): number {
  if (body.length - start <= DECODE_BLOCK_BYTES) return body.length;
  const lastLineEnd = body.lastIndexOf(LF, start + DECODE_BLOCK_BYTES - 1);
  if (lastLineEnd >= start) return lastLineEnd + 1;
  const nextLineEnd = body.indexOf(LF, start + DECODE_BLOCK_BYTES);
  return nextLineEnd === -1 ? body.length : nextLineEnd + 1;
}

interface FastPathProgress {
  /** Lines that failed `JSON.parse` so far. */
  failures: number;
}

/**
 * The items of `text`, line by line (see the top of this file). With `stopForScanner`, it returns the start of
 * the first line the fast path cannot take instead of scanning it (that line's failure not counted: whoever goes
 * on from there tries it again); otherwise it returns `text.length`.
 */
function* splitText(text: string, progress: FastPathProgress, stopForScanner: boolean): Generator<SplitItem, number, undefined> {
  const length = text.length;
  let pos = 0;
  while (pos < length) {
    let lineEnd = text.indexOf('\n', pos);
    if (lineEnd === -1) lineEnd = length;
    const first = skipBlanks(text, pos, lineEnd);
    if (first === lineEnd) {
      pos = lineEnd + 1;
      continue;
    }
    if (progress.failures < MAX_FAST_PATH_FAILURES && lineEnd - first <= MAX_FAST_PATH_LINE) {
      const line = text.slice(first, lineEnd);
      const value = tryParse(line);
      if (value !== PARSE_FAILED) {
        if (Array.isArray(value)) yield* itemsOfArray(value);
        else yield { ok: true, value, text: line };
        pos = lineEnd + 1;
        continue;
      }
      if (stopForScanner) return pos;
      progress.failures++;
    }
    if (stopForScanner) return pos;
    pos = yield* scanUntilLineBoundary(text, first);
  }
  return length;
}

/** True when the body has content and not one JSON object in it (the request deserves a 400). */
export function isCompletelyInvalid(body: Buffer | string): boolean {
  let sawItem = false;
  for (const item of splitJsonObjects(body)) {
    if (isObjectItem(item)) return false;
    sawItem = true;
  }
  return sawItem;
}

/** True for an item that is a JSON object, parsed or not (one over a per-event bound). */
export function isObjectItem(item: SplitItem): boolean {
  return item.ok ? isJsonObject(item.value) : item.reason === 'too_deep' || item.reason === 'too_many_fields';
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function tryParse(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return PARSE_FAILED;
  }
}

/** True when `text` is exactly one JSON value (blanks around allowed), by the scanner's grammar check. */
export function isOneJsonValue(text: string): boolean {
  const first = skipJsonWhitespace(text, 0);
  if (first === text.length) return false;
  const scan = scanValue(text, first, text.length, lookaheadStack, true);
  return scan.kind === 'complete' && skipJsonWhitespace(text, scan.end) === text.length;
}

function skipJsonWhitespace(text: string, from: number): number {
  let i = from;
  for (let code = text.charCodeAt(i); code === SPACE || code === TAB || code === CR || code === LF; code = text.charCodeAt(++i));
  return i;
}

function* itemsOfArray(values: unknown[]): Generator<SplitItem, void, undefined> {
  for (const value of values) yield { ok: true, value, text: undefined };
}

function isBlank(code: number): boolean {
  return code === SPACE || code === TAB || code === CR || code === BOM;
}

function skipBlanks(text: string, from: number, to: number): number {
  let i = from;
  while (i < to && isBlank(text.charCodeAt(i))) i++;
  return i;
}

/**
 * Scanner mode: yields the items found from `pos` on, and returns the start of the next line once it is
 * between values at a line end (or the end of the text).
 */
function* scanUntilLineBoundary(text: string, pos: number): Generator<SplitItem, number, undefined> {
  const length = text.length;
  let p = pos;
  while (p < length) {
    const code = text.charCodeAt(p);
    if (code === LF) return p + 1;
    if (isBlank(code) || code === COMMA) {
      p++;
      continue;
    }
    const scan = scanValue(text, p, length, mainStack, true);
    if (scan.kind === 'complete') {
      if (text.charCodeAt(p) !== OPEN_BRACKET) yield boundedItemOf(text, p, scan);
      else if (scan.depth - 1 <= MAX_EVENT_DEPTH) yield* itemsOfChecked(text, p, scan.end);
      else yield* itemsOfDeepArray(text, p, scan.end);
      p = scan.end;
    } else {
      yield INVALID_JSON;
      p = scan.kind === 'broken-resume-here' ? scan.end : findResyncPoint(text, scan.end);
    }
  }
  return length;
}

/** The items of text[start, end), checked by the scanner and within the depth bound: a top-level array gives one per element. */
function* itemsOfChecked(text: string, start: number, end: number): Generator<SplitItem, void, undefined> {
  const item = parsedItemOf(text, start, end);
  if (item.ok && Array.isArray(item.value)) yield* itemsOfArray(item.value);
  else yield item;
}

/** The item of a checked value that is not a batch: parsed when within the bounds the scanner can judge. */
function boundedItemOf(text: string, start: number, scan: CompleteScan): SplitItem {
  const isObject = text.charCodeAt(start) === OPEN_BRACE;
  if (scan.depth > MAX_EVENT_DEPTH) return isObject ? TOO_DEEP : NOT_AN_OBJECT;
  if (isObject && scan.fields > MAX_EVENT_FIELDS) return TOO_MANY_FIELDS;
  return parsedItemOf(text, start, scan.end);
}

/** The one item of text[start, end), checked by the scanner. */
function parsedItemOf(text: string, start: number, end: number): SplitItem {
  // The grammar was checked, so this parse does not fail; tryParse only guards against a scanner bug.
  const value = tryParse(text.slice(start, end));
  if (value === PARSE_FAILED) return INVALID_JSON;
  return { ok: true, value, text: undefined };
}

/**
 * The elements of a checked top-level array that nests too deep as a whole, each measured on its own: a too
 * deep element is rejected, the others are parsed.
 */
function* itemsOfDeepArray(text: string, open: number, end: number): Generator<SplitItem, void, undefined> {
  let i = skipJsonWhitespace(text, open + 1);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return;
  for (;;) {
    const element = scanValue(text, i, end, mainStack, false);
    if (element.kind !== 'complete') {
      yield INVALID_JSON; // unreachable for checked text
      return;
    }
    yield boundedItemOf(text, i, element);
    i = skipJsonWhitespace(text, element.end);
    if (text.charCodeAt(i) !== COMMA) return; // the closing bracket
    i = skipJsonWhitespace(text, i + 1);
  }
}

/**
 * `complete`: text[start, end) is one valid JSON value, whose containers nest `depth` deep (0 for a scalar)
 * and hold `fields` values in all (object members and array elements, at every level).
 * `broken-resume-here`: malformed; `end` is where the next value or line starts.
 * `broken`: malformed; resynchronise from `end` with {@link findResyncPoint}.
 */
type CompleteScan = { kind: 'complete'; end: number; depth: number; fields: number };
type ValueScan = CompleteScan | { kind: 'broken-resume-here' | 'broken'; end: number };

/** What the grammar allows next. */
const enum Expect {
  Value,
  ValueOrClose, // just after `[`
  KeyOrClose, // just after `{`
  Key, // after `,` in an object
  Colon,
  CommaOrClose,
}

// Open containers (OPEN_BRACE / OPEN_BRACKET). The scanner is synchronous: one buffer per role suffices. Deeper
// text gets a larger buffer of its own for the one scan (its size is bounded by the text's length).
const mainStack = new Uint8Array(INITIAL_STACK_DEPTH);
const lookaheadStack = new Uint8Array(INITIAL_STACK_DEPTH);

function deeper(stack: Uint8Array): Uint8Array {
  const grown = new Uint8Array(stack.length * 2);
  grown.set(stack);
  return grown;
}

/**
 * Checks the JSON value starting at `start` against the grammar, up to `limit` (exclusive). `lineRecovery`:
 * whether a line end may end a broken NDJSON line (see the module comment); off for text already checked.
 */
function scanValue(text: string, start: number, limit: number, initialStack: Uint8Array, lineRecovery: boolean): ValueScan {
  let stack = initialStack;
  let depth = 0;
  let maxDepth = 0;
  let fields = 0;
  let expect = Expect.Value;
  let sawLineEnd = false;
  let startedInline = false;
  for (let i = start; i < limit; i++) {
    const code = text.charCodeAt(i);
    if (code === SPACE || code === TAB || code === CR) continue;
    if (code === LF) {
      if (!sawLineEnd) {
        sawLineEnd = true;
        startedInline = skipBlanks(text, start + 1, i) < i;
      }
      if (
        lineRecovery &&
        startedInline &&
        stack[0] === OPEN_BRACE &&
        (expect === Expect.Value || expect === Expect.ValueOrClose) &&
        nextLineIsObject(text, i + 1)
      ) {
        return { kind: 'broken-resume-here', end: i };
      }
      continue;
    }
    if (code === OPEN_BRACE && expect !== Expect.Value && expect !== Expect.ValueOrClose) {
      return { kind: 'broken-resume-here', end: i };
    }
    let valueEnded = false;
    switch (expect) {
      case Expect.ValueOrClose:
        if (code === CLOSE_BRACKET) {
          depth--;
          valueEnded = true;
          break;
        }
        fields++; // the first element of an array (the others are counted at their commas)
      // falls through: any value may follow `[`
      case Expect.Value:
        if (code === OPEN_BRACE || code === OPEN_BRACKET) {
          if (depth === stack.length) stack = deeper(stack);
          stack[depth++] = code;
          if (depth > maxDepth) maxDepth = depth;
          expect = code === OPEN_BRACE ? Expect.KeyOrClose : Expect.ValueOrClose;
          break;
        }
        if (code === QUOTE) {
          const close = scanString(text, i, limit);
          if (close < 0) return brokenString(text, -close - 1);
          i = close;
        } else if (code === MINUS || (code >= ZERO && code <= NINE)) {
          const last = scanNumber(text, i, limit);
          if (last < 0) return { kind: 'broken', end: -last - 1 };
          i = last;
        } else {
          const literal = code === LOWER_T ? 'true' : code === LOWER_F ? 'false' : code === LOWER_N ? 'null' : '';
          if (literal === '' || !text.startsWith(literal, i) || i + literal.length > limit) {
            return { kind: 'broken', end: i };
          }
          i += literal.length - 1;
        }
        valueEnded = true;
        break;
      case Expect.KeyOrClose:
        if (code === CLOSE_BRACE) {
          depth--;
          valueEnded = true;
          break;
        }
      // falls through: a key may follow `{`
      case Expect.Key: {
        if (code !== QUOTE) return { kind: 'broken', end: i };
        const close = scanString(text, i, limit);
        if (close < 0) return brokenString(text, -close - 1);
        i = close;
        fields++; // an object member
        expect = Expect.Colon;
        break;
      }
      case Expect.Colon:
        if (code !== COLON) return { kind: 'broken', end: i };
        expect = Expect.Value;
        break;
      case Expect.CommaOrClose:
        if (code === COMMA) {
          if (stack[depth - 1] === OPEN_BRACE) {
            expect = Expect.Key;
          } else {
            expect = Expect.Value;
            fields++; // an array element
          }
        } else if (code === (stack[depth - 1] === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET)) {
          depth--;
          valueEnded = true;
        } else {
          return { kind: 'broken', end: i };
        }
        break;
    }
    if (valueEnded) {
      if (depth === 0) return { kind: 'complete', end: i + 1, depth: maxDepth, fields };
      expect = Expect.CommaOrClose;
    }
  }
  return { kind: 'broken', end: limit };
}

/** A raw newline inside a string is where the broken line ends: resume at it. */
function brokenString(text: string, at: number): ValueScan {
  return { kind: text.charCodeAt(at) === LF ? 'broken-resume-here' : 'broken', end: at };
}

/**
 * `text[open]` is `"`. Returns the index of the closing quote, or `-1 - i` for the first offending index
 * (a raw control character, a bad escape, or `limit` when unterminated).
 */
function scanString(text: string, open: number, limit: number): number {
  for (let i = open + 1; i < limit; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) return i;
    if (code < SPACE) return -1 - i;
    if (code !== BACKSLASH) continue;
    const escaped = i + 1 < limit ? text.charCodeAt(i + 1) : -1;
    if (escaped === LOWER_U) {
      for (let k = i + 2; k < i + 6; k++) {
        if (k >= limit || !isHexDigit(text.charCodeAt(k))) return -1 - Math.min(k, limit);
      }
      i += 5;
    } else if (
      escaped === QUOTE ||
      escaped === BACKSLASH ||
      escaped === SLASH ||
      escaped === LOWER_B ||
      escaped === LOWER_F ||
      escaped === LOWER_N ||
      escaped === LOWER_R ||
      escaped === LOWER_T
    ) {
      i++;
    } else {
      return -1 - Math.min(i + 1, limit);
    }
  }
  return -1 - limit;
}

function isHexDigit(code: number): boolean {
  return (code >= ZERO && code <= NINE) || (code >= LOWER_A && code <= LOWER_F) || (code >= UPPER_A && code <= UPPER_F);
}

/** `-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?` from `start`: index of its last character, or `-1 - offending index`. */
function scanNumber(text: string, start: number, limit: number): number {
  let i = start;
  if (text.charCodeAt(i) === MINUS) i++;
  if (i >= limit) return -1 - limit;
  const lead = text.charCodeAt(i);
  if (lead === ZERO) i++;
  else if (lead > ZERO && lead <= NINE) i = skipDigits(text, i, limit);
  else return -1 - i;
  if (i < limit && text.charCodeAt(i) === DOT) {
    const afterDot = skipDigits(text, i + 1, limit);
    if (afterDot === i + 1) return -1 - Math.min(i + 1, limit);
    i = afterDot;
  }
  if (i < limit) {
    const e = text.charCodeAt(i);
    if (e === LOWER_E || e === UPPER_E) {
      i++;
      const sign = i < limit ? text.charCodeAt(i) : -1;
      if (sign === PLUS || sign === MINUS) i++;
      const afterExponent = skipDigits(text, i, limit);
      if (afterExponent === i) return -1 - Math.min(i, limit);
      i = afterExponent;
    }
  }
  return i - 1;
}

function skipDigits(text: string, from: number, limit: number): number {
  let i = from;
  while (i < limit) {
    const code = text.charCodeAt(i);
    if (code < ZERO || code > NINE) break;
    i++;
  }
  return i;
}

/** True when the line starting at `from` is, on its own, one complete JSON object. */
function nextLineIsObject(text: string, from: number): boolean {
  let lineEnd = text.indexOf('\n', from);
  if (lineEnd === -1) lineEnd = text.length;
  const first = skipBlanks(text, from, lineEnd);
  if (text.charCodeAt(first) !== OPEN_BRACE) return false;
  const scan = scanValue(text, first, lineEnd, lookaheadStack, true);
  return scan.kind === 'complete' && skipBlanks(text, scan.end, lineEnd) === lineEnd;
}

/**
 * From inside malformed text, the next safe place to start again: a line end, or a `{` that follows a `}`
 * or `]` (blanks and commas between). Any other `{` may be a nested value of the broken object.
 */
function findResyncPoint(text: string, from: number): number {
  const length = text.length;
  let previous = -1;
  for (let i = from; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code === LF) return i;
    if (code === OPEN_BRACE && i > from && (previous === CLOSE_BRACE || previous === CLOSE_BRACKET)) return i;
    if (!isBlank(code) && code !== COMMA) previous = code;
  }
  return length;
}
