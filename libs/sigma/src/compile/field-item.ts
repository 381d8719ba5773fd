import type { TelemetryType } from '@vigil/contracts';
import { RE2JS } from 're2js';
import { keywordField, resolveField } from '../logsource/field-map';
import type { EventView } from '../match/event-view';
import { cidrContains, parseCidr, parseIp, type Cidr } from './cidr';
import { base64, base64Offsets, windashVariants } from './encodings';
import { parseFieldSpec, type ModifierSet } from './modifiers';
import { regexLiteralClauses } from './regex-literals';
import { compileTokens, literalTokens, longestLiteral, parseSigmaString, STAR, withAnchors, type PatternToken, type StringTest } from './string-pattern';

/**
 * One pre-filter requirement, on the lower-cased values of some field of `fields`: one of them
 * contains a string of `literals`, equals one of `exact`, starts with one of `prefixes` or ends
 * with one of `suffixes`. Short strings are kept out of `literals` (they would be found nearly
 * everywhere) but are still selective as whole values, prefixes or suffixes.
 */
export interface GuardClause {
  literals: string[];
  exact?: string[];
  prefixes?: string[];
  suffixes?: string[];
  fields: number[];
}

/** Requirements every matching event meets, all of them (AND); null = no such guarantee. */
export type Guard = GuardClause[] | null;

/** Guards keep at most this many clauses: more would cost more bookkeeping than they save. */
const MAX_CLAUSES = 3;
/** Score of a clause whose every literal has 5 or more characters (see clauseScore). */
const USEFUL_CLAUSE = 5000 - 999;

/** A compiled piece of a detection: its test, and what the literal pre-filter may rely on. */
export interface CompiledItem {
  test: (view: EventView) => boolean;
  /** What the literal pre-filter may rely on. */
  guard: Guard;
  /**
   * True when a false result may really be "unknown": the item depends on a field no Vigil event
   * carries. Negating such an item never yields true, so `not selection` on a missing field does not
   * turn into "matches everything" (Kleene three-valued logic, conservatively).
   */
  partial?: boolean;
}

/** An item reading a field Vigil does not carry: its truth is unknown, so it never matches. */
export const UNKNOWN: CompiledItem = Object.freeze({ test: () => false, guard: null, partial: true });

export interface ItemContext {
  type: TelemetryType;
  placeholders: Readonly<Record<string, readonly string[]>>;
  /** Sigma field names this event type does not carry (they read as absent). */
  unknownFields: Set<string>;
}

/** Literals shorter than this would let nearly every event through the pre-filter: not worth indexing. */
const MIN_LITERAL = 2;
const MAX_VARIANTS = 1024;

type Value = string | number | boolean | null;

/** Compiles one `field|modifiers: value(s)` entry of a selection map. */
export function compileFieldItem(spec: string, raw: unknown, ctx: ItemContext): CompiledItem | string {
  const mods = parseFieldSpec(spec);
  if (typeof mods === 'string') return mods;
  const values = toValues(spec, raw);
  if (typeof values === 'string') return values;
  let fieldId: number | undefined;
  if (mods.field === '') fieldId = keywordField(ctx.type);
  else {
    fieldId = resolveField(ctx.type, mods.field);
    if (fieldId === undefined) ctx.unknownFields.add(mods.field);
  }
  const compiled = compileValues(spec, mods, values, fieldId, ctx);
  // Values are still validated above, so a bad value is reported even for a field Vigil lacks.
  return typeof compiled === 'string' || fieldId !== undefined ? compiled : UNKNOWN;
}

/** Compiles a keyword list (a detection identifier that is a plain list of values). */
export function compileKeywords(raw: unknown[], ctx: ItemContext): CompiledItem | string {
  const values = toValues('keywords', raw);
  if (typeof values === 'string') return values;
  const mods = parseFieldSpec('|contains');
  if (typeof mods === 'string') return mods;
  return compileValues('keywords', mods, values, keywordField(ctx.type), ctx);
}

function toValues(spec: string, raw: unknown): Value[] | string {
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) return `'${spec}': empty list of values`;
  for (const v of list) {
    if (v !== null && !['string', 'number', 'boolean'].includes(typeof v)) {
      return `'${spec}': value ${JSON.stringify(v)} is not a string, number, boolean or null`;
    }
    if (v === null && list.length > 1) return `'${spec}': null inside a list of values (write a separate selection '${spec}: null')`;
  }
  return list as Value[];
}

function compileValues(spec: string, mods: ModifierSet, values: Value[], fieldId: number | undefined, ctx: ItemContext): CompiledItem | string {
  if (values.length === 1 && values[0] === null) {
    if (mods.list.length) return `'${spec}': null cannot be combined with modifiers`;
    return { test: fieldId === undefined ? () => true : (v) => v.value(fieldId) == null, guard: null };
  }
  if (values.includes(null)) return `'${spec}': null inside a list of values`;
  const parts: CompiledItem[] = [];
  let pending = values as Exclude<Value, null>[];
  // Plain equality lists (user agents, methods, ports) become one hash lookup instead of a test per value.
  if (fieldId !== undefined && !mods.has('all') && mods.list.every((m) => m === 'cased') && values.length > 4) {
    const cased = mods.has('cased');
    const exact = pending.filter((v) => typeof v !== 'string' || !/[*?\\]/.test(v));
    pending = pending.filter((v) => typeof v === 'string' && /[*?\\]/.test(v));
    const set = new Set(exact.map((v) => (cased ? String(v) : String(v).toLowerCase())));
    parts.push({
      test: (v) => (cased ? v.strings(fieldId) : v.lowerStrings(fieldId))?.some((s) => set.has(s)) ?? false,
      guard: [{ literals: [], exact: [...set].map((x) => x.toLowerCase()), fields: [fieldId] }],
    });
  }
  for (const value of pending) {
    const part = compileValue(spec, mods, value, fieldId, ctx);
    if (typeof part === 'string') return part;
    parts.push(part);
  }
  return mods.has('all') ? allOf(parts) : anyOf(parts);
}

export function anyOf(parts: CompiledItem[]): CompiledItem {
  if (parts.length === 1) return parts[0];
  const partial = parts.some((p) => p.partial);
  const known = parts.filter((p) => p !== UNKNOWN);
  if (known.length === 0) return UNKNOWN;
  const tests = known.map((p) => p.test);
  return { test: tests.length === 1 ? tests[0] : (v) => tests.some((t) => t(v)), guard: unionGuard(known), partial };
}

export function allOf(parts: CompiledItem[]): CompiledItem {
  if (parts.length === 1) return parts[0];
  if (parts.includes(UNKNOWN)) return UNKNOWN;
  const tests = parts.map((p) => p.test);
  return { test: (v) => tests.every((t) => t(v)), guard: conjoinGuards(parts.map((p) => p.guard)), partial: parts.some((p) => p.partial) };
}

/** The weakest atom a value's pattern guarantees: a contained literal, else a whole value, prefix or suffix. */
function patternGuard(tokenLists: PatternToken[][], fieldId: number): Guard {
  const clause: Required<GuardClause> = { literals: [], exact: [], prefixes: [], suffixes: [], fields: [fieldId] };
  for (const tokens of tokenLists) {
    const longest = longestLiteral(tokens).toLowerCase();
    if (longest.length >= MIN_LITERAL) clause.literals.push(longest);
    else if (tokens.length === 0) clause.exact.push('');
    else if (tokens.length === 1 && typeof tokens[0] === 'string') clause.exact.push(tokens[0].toLowerCase());
    else if (tokens.length === 2 && typeof tokens[0] === 'string' && tokens[1] === STAR) clause.prefixes.push(tokens[0].toLowerCase());
    else if (tokens.length === 2 && tokens[0] === STAR && typeof tokens[1] === 'string') clause.suffixes.push(tokens[1].toLowerCase());
    else return null;
  }
  return [clause];
}

/** How well a clause screens: longest shortest literal first, then fewest atoms; whole values, prefixes and suffixes count as 4 characters. */
function clauseScore(c: GuardClause): number {
  let shortest = Infinity;
  for (const l of c.literals) shortest = Math.min(shortest, l.length);
  const others = (c.exact?.length ?? 0) + (c.prefixes?.length ?? 0) + (c.suffixes?.length ?? 0);
  if (others) shortest = Math.min(shortest, 4);
  return shortest * 1000 - c.literals.length - others;
}

function ranked(guard: GuardClause[]): GuardClause[] {
  return [...guard].sort((a, b) => clauseScore(b) - clauseScore(a));
}

function sameAtoms(a: GuardClause, b: GuardClause): boolean {
  const key = (c: GuardClause) => JSON.stringify([[...c.literals].sort(), [...(c.exact ?? [])].sort(), [...(c.prefixes ?? [])].sort(), [...(c.suffixes ?? [])].sort()]);
  return key(a) === key(b);
}

function unionOf(clauses: GuardClause[]): GuardClause {
  const union = { literals: new Set<string>(), exact: new Set<string>(), prefixes: new Set<string>(), suffixes: new Set<string>(), fields: new Set<number>() };
  for (const c of clauses) {
    for (const l of c.literals) union.literals.add(l);
    for (const x of c.exact ?? []) union.exact.add(x);
    for (const x of c.prefixes ?? []) union.prefixes.add(x);
    for (const x of c.suffixes ?? []) union.suffixes.add(x);
    for (const f of c.fields) union.fields.add(f);
  }
  return { literals: [...union.literals], exact: [...union.exact], prefixes: [...union.prefixes], suffixes: [...union.suffixes], fields: [...union.fields] };
}

/**
 * Any of the parts may match (needs a guard on every part). Each part implies every one of its
 * clauses, so the union of one clause per part is implied by the whole; pairing the parts' best
 * clauses, then their second best, and so on, gives as many clauses as the most sparsely guarded
 * part has (`(a1 and a2) or (b1 and b2)` → `(a1 or b1) and (a2 or b2)`).
 */
function unionGuard(parts: CompiledItem[]): Guard {
  if (parts.some((p) => p.guard === null || p.guard.length === 0)) return null;
  const rankedParts = parts.map((p) => ranked(p.guard as GuardClause[]));
  // Parts often share clauses (`'.html' and 'dwn='` or `'.html' and 'fn='`): pair equal ones, so a union
  // clause does not mix one part's common literal with another's rare one.
  const lead = rankedParts[0];
  for (let j = 1; j < rankedParts.length; j++) {
    const rest = [...rankedParts[j]];
    const aligned: GuardClause[] = [];
    for (const clause of lead) {
      const same = rest.findIndex((c) => sameAtoms(c, clause));
      if (same !== -1) aligned.push(...rest.splice(same, 1));
      else aligned.push(undefined as unknown as GuardClause);
    }
    // Slots without an equal clause take the remaining ones by rank.
    for (let k = 0; k < aligned.length; k++) if (aligned[k] === undefined) aligned[k] = rest.shift() as GuardClause;
    rankedParts[j] = [...aligned.filter((c) => c !== undefined), ...rest];
  }
  const depth = Math.min(MAX_CLAUSES, ...rankedParts.map((r) => r.length));
  const clauses: GuardClause[] = [];
  for (let k = 0; k < depth; k++) clauses.push(unionOf(rankedParts.map((r) => r[k])));
  return clauses;
}

/** All parts match: every clause of every guarded part holds; the best few are kept. */
export function conjoinGuards(guards: Guard[]): Guard {
  const clauses = guards.flatMap((g) => g ?? []);
  if (clauses.length === 0) return null;
  const byScore = ranked(clauses);
  // Next to a selective clause, one of only short literals ('post', 'true') adds checks and saves little.
  const kept = clauseScore(byScore[0]) >= USEFUL_CLAUSE ? byScore.filter((c) => clauseScore(c) >= USEFUL_CLAUSE) : byScore;
  return kept.slice(0, MAX_CLAUSES);
}

function compileValue(spec: string, mods: ModifierSet, value: Exclude<Value, null>, fieldId: number | undefined, ctx: ItemContext): CompiledItem | string {
  const never: CompiledItem = { test: () => false, guard: null };
  if (mods.has('exists')) {
    if (typeof value !== 'boolean') return `'${spec}': modifier exists needs true or false, got ${JSON.stringify(value)}`;
    if (fieldId === undefined) return { test: () => !value, guard: null };
    return { test: (v) => (v.value(fieldId) != null) === value, guard: null };
  }
  for (const op of ['lt', 'lte', 'gt', 'gte'] as const) {
    if (!mods.has(op)) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) return `'${spec}': modifier ${op} needs a number, got ${JSON.stringify(value)}`;
    if (fieldId === undefined) return never;
    const cmp = { lt: (n: number) => n < value, lte: (n: number) => n <= value, gt: (n: number) => n > value, gte: (n: number) => n >= value }[op];
    return { test: (v) => (v.strings(fieldId) ?? []).some((s) => s.trim() !== '' && cmp(Number(s))), guard: null };
  }
  if (mods.has('cidr')) {
    if (typeof value !== 'string') return `'${spec}': modifier cidr needs a CIDR string, got ${JSON.stringify(value)}`;
    const cidr = parseCidr(value);
    if (typeof cidr === 'string') return `'${spec}': ${cidr}`;
    if (fieldId === undefined) return never;
    return { test: (v) => inCidr(cidr, v.strings(fieldId)), guard: null };
  }
  if (mods.has('re')) {
    if (typeof value !== 'string') return `'${spec}': modifier re needs a regular expression string, got ${JSON.stringify(value)}`;
    const flags = (mods.has('i') ? RE2JS.CASE_INSENSITIVE : 0) | (mods.has('m') ? RE2JS.MULTILINE : 0) | (mods.has('s') ? RE2JS.DOTALL : 0);
    let re: RE2JS;
    try {
      re = RE2JS.compile(value, flags);
    } catch (err) {
      const backreference = /invalid escape sequence: `(\\[1-9])`/.exec((err as Error).message);
      const why = backreference ? `backreferences such as ${backreference[1]} are not supported` : (err as Error).message;
      return `'${spec}': regular expression ${JSON.stringify(value)} does not compile in the linear-time (RE2) engine: ${why}`;
    }
    if (fieldId === undefined) return never;
    const clauses = regexLiteralClauses(value, mods.has('i'), MIN_LITERAL);
    return {
      test: (v) => (v.strings(fieldId) ?? []).some((s) => re.test(s)),
      guard: clauses.length ? clauses.map((literals) => ({ literals, fields: [fieldId] })) : null,
    };
  }
  if (mods.has('fieldref')) return compileFieldref(spec, mods, value, fieldId, ctx);
  return compileStringValue(spec, mods, value, fieldId, ctx);
}

function inCidr(cidr: Cidr, strings: string[] | null): boolean {
  if (!strings) return false;
  for (const s of strings) {
    const ip = parseIp(s);
    if (ip && cidrContains(cidr, ip)) return true;
  }
  return false;
}

function compileFieldref(spec: string, mods: ModifierSet, value: Exclude<Value, null>, fieldId: number | undefined, ctx: ItemContext): CompiledItem | string {
  if (typeof value !== 'string' || value === '') return `'${spec}': modifier fieldref needs a field name, got ${JSON.stringify(value)}`;
  const otherId = resolveField(ctx.type, value);
  if (otherId === undefined) ctx.unknownFields.add(value);
  if (fieldId === undefined || otherId === undefined) return UNKNOWN;
  const cased = mods.has('cased');
  const compare = mods.has('contains')
    ? (a: string, b: string) => a.includes(b)
    : mods.has('startswith')
      ? (a: string, b: string) => a.startsWith(b)
      : mods.has('endswith')
        ? (a: string, b: string) => a.endsWith(b)
        : (a: string, b: string) => a === b;
  return {
    test: (v) => {
      const mine = cased ? v.strings(fieldId) : v.lowerStrings(fieldId);
      const theirs = cased ? v.strings(otherId) : v.lowerStrings(otherId);
      if (!mine || !theirs) return false;
      return mine.some((a) => theirs.some((b) => compare(a, b)));
    },
    guard: null,
  };
}

function expandPlaceholders(spec: string, value: string, ctx: ItemContext): string[] | string {
  let variants = [value];
  const names = [...new Set([...value.matchAll(/%([A-Za-z0-9_.-]+)%/g)].map((m) => m[1]))];
  if (names.length === 0) return `'${spec}': modifier expand needs a %placeholder% in the value ${JSON.stringify(value)}`;
  for (const name of names) {
    const replacements = ctx.placeholders[name];
    if (!replacements || replacements.length === 0) {
      const known = Object.keys(ctx.placeholders);
      return `'${spec}': placeholder %${name}% is not configured for this workspace${known.length ? ` (configured: ${known.join(', ')})` : ''}`;
    }
    variants = variants.flatMap((v) => replacements.map((r) => v.split(`%${name}%`).join(r)));
    if (variants.length > MAX_VARIANTS) return `'${spec}': placeholder expansion yields more than ${MAX_VARIANTS} values`;
  }
  return variants;
}

function compileStringValue(spec: string, mods: ModifierSet, value: string | number | boolean, fieldId: number | undefined, ctx: ItemContext): CompiledItem | string {
  if (typeof value !== 'string' && (mods.has('expand') || mods.has('windash') || mods.has('base64') || mods.has('base64offset'))) {
    return `'${spec}': modifiers ${mods.list.join('|')} need a string value, got ${JSON.stringify(value)}`;
  }
  let texts: string[] = [String(value)];
  if (mods.has('expand')) {
    const expanded = expandPlaceholders(spec, texts[0], ctx);
    if (typeof expanded === 'string') return expanded;
    texts = expanded;
  }
  if (mods.has('windash')) texts = [...new Set(texts.flatMap(windashVariants))];
  const encoded = mods.has('base64') || mods.has('base64offset');
  let tokenLists: PatternToken[][];
  if (encoded) {
    // The encoded text is matched literally: wildcards would be encoded along with the value.
    const encode = mods.has('base64') ? (t: string) => [base64(t)] : base64Offsets;
    tokenLists = texts.flatMap(encode).map(literalTokens);
  } else {
    tokenLists = typeof value === 'string' ? texts.map(parseSigmaString) : texts.map(literalTokens);
  }
  const lead = mods.has('contains') || mods.has('endswith');
  const trail = mods.has('contains') || mods.has('startswith');
  tokenLists = tokenLists.map((t) => withAnchors(t, lead, trail));
  const cased = mods.has('cased') || encoded;
  const tests: StringTest[] = tokenLists.map((t) => compileTokens(t, !cased));
  if (fieldId === undefined) return { test: () => false, guard: null };
  const test =
    tests.length === 1
      ? cased
        ? (v: EventView) => (v.strings(fieldId) ?? []).some(tests[0])
        : (v: EventView) => {
            const strings = v.lowerStrings(fieldId);
            if (strings === null) return false;
            for (let i = 0; i < strings.length; i++) if (tests[0](strings[i])) return true;
            return false;
          }
      : (v: EventView) => {
          const strings = cased ? v.strings(fieldId) : v.lowerStrings(fieldId);
          return strings !== null && strings.some((s) => tests.some((t) => t(s)));
        };
  return { test, guard: patternGuard(tokenLists, fieldId) };
}
