import type { Guard, GuardClause } from '../compile/field-item';
import { AhoCorasick } from './aho-corasick';
import type { EventView } from './event-view';
import { ALWAYS, NO_VALUE, partsOf, SLICE, sliceOf, type FieldSlice, type FieldValue } from './field-registry';
import { screenedGuard } from './screened-guard';

/** The clauses one atom (a lower-cased string) satisfies, by where it must occur in a field value. */
interface AtomUses {
  contains: number[];
  exact: number[];
  prefixes: number[];
  suffixes: number[];
}

const NONE: number[] = [];
/** Every field bit: a value scanned for the memo counts for whichever fields hold it later. */
const ALL_FIELDS = -1;
/** Values longer than this are scanned each time (long values rarely repeat exactly). */
const MEMO_MAX_LENGTH = 512;
const MEMO_ENTRIES = 4096;
/** Lookups per hit-rate check of the memo. */
const MEMO_WINDOW = 4096;

function hasAtom(c: GuardClause): boolean {
  return c.literals.length + (c.exact?.length ?? 0) + (c.prefixes?.length ?? 0) + (c.suffixes?.length ?? 0) > 0;
}

/** Whether the pre-filter can screen a rule with this guard (otherwise the rule is always evaluated). */
export function isScreenable(guard: Guard): guard is GuardClause[] {
  return guard !== null && guard.length > 0 && guard.every((c) => hasAtom(c) && c.fields.length > 0);
}

function addClause(list: number[], clause: number): void {
  if (list[list.length - 1] !== clause) list.push(clause);
}

/**
 * Selects, per event, the rules whose every guard clause holds. Every atom of every clause —
 * contained literals, whole values, prefixes and suffixes — is one literal of a single
 * Aho-Corasick automaton that folds ASCII case, so each distinct value of the screened fields is
 * scanned once, as sent (no lower-cased copy, no hashing): a hit counts as a prefix when it starts
 * the value, a suffix when it ends it, a whole value when it does both. A hit counts for a clause
 * only when it lies in a value of one of the clause's fields: a value shared by several fields (the
 * URL in the keyword field) is scanned once, and fields that are slices of another field's string
 * (URL path, query, host, extension) are not extracted at all: the parent is scanned once and each
 * hit is placed by position. Values with non-ASCII characters are scanned lower-cased, and then
 * slices are read and scanned on their own (lower-casing may move positions).
 */
export class Prefilter {
  /** Field ids screened; field i has bit min(i, 31): past 31 fields the rest share a bit, which may wake a clause needlessly but never misses one. */
  private readonly fields: number[] = [];
  /**
   * What screen() reads: a field, the bit its values count for, and how it lies in its parent when
   * it is a slice. A field made of other fields (keyword search) is read as those fields, with its
   * own bit, so its list of values is never built.
   */
  private readonly readField: number[] = [];
  private readonly readBit: number[] = [];
  private readonly readSlice: Array<FieldSlice | undefined> = [];
  private readonly automaton?: AhoCorasick;
  /** Atom texts by id (lower-cased). */
  private readonly atoms: string[];
  private readonly atomLength: Int32Array;
  private readonly uses: AtomUses[];
  /** Whether an atom is used as a whole value, prefix or suffix (its position matters). */
  private readonly anchored: Uint8Array;
  /** Clauses an empty value satisfies (the empty whole value, which no automaton can find). */
  private readonly emptyExact: number[] = [];
  /** Clauses any value of their fields satisfies (an empty literal, prefix or suffix). */
  private readonly anywhere: number[];
  /** Per clause: the rule it belongs to and the fields (bit mask) it accepts its atoms in. */
  private readonly clauseRule: Int32Array;
  private readonly clauseFields: Int32Array;
  private readonly clausesNeeded: Uint8Array;
  /** Per clause and per rule: the last screen() that touched it; per rule the clauses satisfied in that call. */
  private readonly clauseStamp: Uint32Array;
  private readonly ruleStamp: Uint32Array;
  private readonly ruleSatisfied: Uint8Array;
  private generation = 0;
  /** Rules whose every clause a constant field decides in their favour: candidates on every event. */
  private readonly alwaysRules: number[] = [];

  // State of the screen() in progress (kept on the instance so no closure or array is built per event).
  private candidates: number[] = NONE;
  /** Distinct values of the event and the fields (bits) whose whole value each is. */
  private readonly distinct: string[] = [];
  private readonly holders: number[] = [];
  /** Slices found: the distinct value they lie in, their field's bit and id, [start, end). */
  private sliceCount = 0;
  private readonly sliceOwner: number[] = [];
  private readonly sliceBit: number[] = [];
  private readonly sliceField: number[] = [];
  private readonly sliceStart: number[] = [];
  private readonly sliceEnd: number[] = [];
  private readonly range = new Int32Array(2);
  /** The value being scanned: its whole-value fields, last index, and its slices (from..to in the slice arrays). */
  private wholeFields = 0;
  private valueEnd = 0;
  private slicesFrom = 0;
  private slicesTo = 0;
  private readonly onHit = (atom: number, end: number): void => {
    const uses = this.uses[atom];
    const start = end + 1 - this.atomLength[atom];
    const whole = this.wholeFields;
    let inside = whole;
    let atStart = start === 0 ? whole : 0;
    let atEnd = end === this.valueEnd ? whole : 0;
    for (let k = this.slicesFrom; k < this.slicesTo; k++) {
      if (this.sliceOwner[k] !== this.scanning || start < this.sliceStart[k] || end >= this.sliceEnd[k]) continue;
      const bit = this.sliceBit[k];
      inside |= bit;
      if (start === this.sliceStart[k]) atStart |= bit;
      if (end === this.sliceEnd[k] - 1) atEnd |= bit;
    }
    if (inside === 0) return;
    if (uses.contains.length) this.satisfy(uses.contains, inside);
    if (this.anchored[atom] === 0) return;
    if (atStart && uses.prefixes.length) this.satisfy(uses.prefixes, atStart);
    if (atEnd && uses.suffixes.length) this.satisfy(uses.suffixes, atEnd);
    if (atStart & atEnd && uses.exact.length) this.satisfy(uses.exact, atStart & atEnd);
  };
  /** Index of the distinct value being scanned. */
  private scanning = 0;
  /** Value text → the clause lists it satisfies (for any field); see scanWhole. */
  private readonly memo = new Map<string, number[][]>();
  /** While a value is scanned for the memo, satisfy() records the clause lists here instead. */
  private recording: number[][] | null = null;
  private memoLookups = 0;
  private memoMisses = 0;
  private memoPaused = 0;

  /** @param guards per rule position, a screenable guard, or undefined for rules screened elsewhere. */
  constructor(guards: ReadonlyArray<GuardClause[] | undefined>) {
    const positions = new Map<number, number>();
    const bitOf = (field: number): number => {
      let position = positions.get(field);
      if (position === undefined) {
        positions.set(field, (position = this.fields.length));
        this.fields.push(field);
      }
      return 1 << Math.min(position, 31);
    };
    const atoms = new Map<string, AtomUses>();
    const usesOf = (atom: string): AtomUses => {
      const key = atom.toLowerCase();
      let uses = atoms.get(key);
      if (!uses) atoms.set(key, (uses = { contains: [], exact: [], prefixes: [], suffixes: [] }));
      return uses;
    };
    const clauseRule: number[] = [];
    const clauseFields: number[] = [];
    this.clausesNeeded = new Uint8Array(guards.length);
    guards.forEach((given, rule) => {
      if (!given) return;
      const guard = screenedGuard(given);
      if (guard === ALWAYS) {
        this.alwaysRules.push(rule);
        return;
      }
      this.clausesNeeded[rule] = guard.length;
      for (const clause of guard) {
        const id = clauseRule.length;
        clauseRule.push(rule);
        clauseFields.push(clause.fields.reduce((mask, field) => mask | bitOf(field), 0));
        for (const literal of clause.literals) addClause(usesOf(literal).contains, id);
        for (const value of clause.exact ?? []) addClause(value === '' ? this.emptyExact : usesOf(value).exact, id);
        for (const p of clause.prefixes ?? []) addClause(p === '' ? usesOf('').contains : usesOf(p).prefixes, id);
        for (const s of clause.suffixes ?? []) addClause(s === '' ? usesOf('').contains : usesOf(s).suffixes, id);
      }
    });
    this.fields.forEach((field, position) => {
      const bit = 1 << Math.min(position, 31);
      for (const read of partsOf(field) ?? [field]) {
        this.readField.push(read);
        this.readBit.push(bit);
        this.readSlice.push(sliceOf(read));
      }
    });
    // An empty literal, prefix or suffix holds on any value, empty ones included.
    this.anywhere = atoms.get('')?.contains ?? NONE;
    atoms.delete('');
    const texts = (this.atoms = [...atoms.keys()]);
    this.uses = [...atoms.values()].map((u) => ({
      contains: u.contains.length ? u.contains : NONE,
      exact: u.exact.length ? u.exact : NONE,
      prefixes: u.prefixes.length ? u.prefixes : NONE,
      suffixes: u.suffixes.length ? u.suffixes : NONE,
    }));
    this.atomLength = Int32Array.from(texts, (t) => t.length);
    this.anchored = Uint8Array.from(this.uses, (u) => (u.exact.length + u.prefixes.length + u.suffixes.length > 0 ? 1 : 0));
    this.clauseRule = Int32Array.from(clauseRule);
    this.clauseFields = Int32Array.from(clauseFields);
    this.clauseStamp = new Uint32Array(clauseRule.length);
    this.ruleStamp = new Uint32Array(guards.length);
    this.ruleSatisfied = new Uint8Array(guards.length);
    // Atoms no clause needs contained anywhere are quiet: found only at the ends of values.
    const quiet = new Set<number>();
    let prefixFields = 0;
    let suffixFields = 0;
    this.uses.forEach((u, atom) => {
      if (u.contains.length) return;
      quiet.add(atom);
      for (const clause of u.prefixes) prefixFields |= this.clauseFields[clause];
      for (const clause of u.exact) suffixFields |= this.clauseFields[clause];
      for (const clause of u.suffixes) suffixFields |= this.clauseFields[clause];
    });
    this.prefixFields = prefixFields;
    this.suffixFields = suffixFields;
    if (texts.length) this.automaton = new AhoCorasick(texts, { foldAsciiCase: true, quiet });
  }

  /** Appends to `candidates` every rule all of whose clauses hold on the event. */
  screen(view: EventView, candidates: number[]): void {
    const { fields, distinct, holders, range } = this;
    for (let k = 0; k < this.alwaysRules.length; k++) candidates.push(this.alwaysRules[k]);
    if (fields.length === 0) return;
    this.generation = (this.generation + 1) >>> 0 || 1;
    this.candidates = candidates;
    distinct.length = 0;
    holders.length = 0;
    this.sliceCount = 0;
    const { readField, readBit, readSlice } = this;
    let parentValue: string | undefined;
    let parentIndex = 0;
    for (let r = 0; r < readField.length; r++) {
      const bit = readBit[r];
      const slice = readSlice[r];
      if (slice !== undefined) {
        const parent = view.value(slice.parent);
        if (typeof parent === 'string') {
          const found = slice.slice(view, range);
          if (found === NO_VALUE) continue;
          if (found === SLICE) {
            if (parent !== parentValue) parentIndex = this.collect((parentValue = parent), 0);
            this.addSlice(parentIndex, bit, readField[r], range[0], range[1]);
            continue;
          }
        }
      }
      this.collectValue(view.value(readField[r]), bit);
    }
    for (let d = 0; d < distinct.length; d++) this.scan(view, d);
    this.candidates = NONE;
  }

  private scan(view: EventView, d: number): void {
    const text = this.distinct[d];
    const whole = this.holders[d];
    const { sliceOwner, sliceBit, sliceStart, sliceEnd, sliceCount } = this;
    let sliced = 0;
    let emptySlices = 0;
    for (let k = 0; k < sliceCount; k++) {
      if (sliceOwner[k] !== d) continue;
      sliced |= sliceBit[k];
      if (sliceStart[k] === sliceEnd[k]) emptySlices |= sliceBit[k];
    }
    if (this.anywhere.length) this.satisfy(this.anywhere, whole | sliced);
    const empty = (text.length === 0 ? whole : 0) | emptySlices;
    if (empty && this.emptyExact.length) this.satisfy(this.emptyExact, empty);
    if (this.automaton === undefined || text.length === 0) return;
    this.scanning = d;
    if (!sliced) {
      this.scanWhole(text, whole);
      return;
    }
    if (this.scanSliced(text, d, whole)) return;
    // Non-ASCII: hits so far lie in the ASCII start and stand; scan the lower-cased value, then each slice on its own
    // (lower-casing may move positions).
    this.scanWhole(text.toLowerCase(), whole);
    for (let k = 0; k < sliceCount; k++) {
      if (sliceOwner[k] !== d) continue;
      const own = view.lowerStrings(this.sliceField[k]);
      if (own !== null) for (const value of own) if (value.length) this.scanWhole(value, sliceBit[k]);
    }
  }

  /**
   * Screens a value no slice lies in. What a value satisfies depends only on its text (the fields
   * holding it just mask the result), and user agents, methods, hosts and referrers repeat from event
   * to event: the clause lists a short value satisfies are remembered (bounded; dropped wholesale when
   * full, and bypassed while most values turn out new), so a repeated value costs a hash lookup.
   */
  private scanWhole(text: string, whole: number): void {
    if (text.length > MEMO_MAX_LENGTH || this.memoPaused > 0) {
      if (this.memoPaused > 0) this.memoPaused--;
      this.scanValue(text, whole);
      return;
    }
    let lists = this.memo.get(text);
    if (lists === undefined) {
      this.memoMisses++;
      const recorded: number[][] = (this.recording = []);
      this.scanValue(text, ALL_FIELDS);
      this.recording = null;
      lists = recorded;
      if (this.memo.size >= MEMO_ENTRIES) this.memo.clear();
      this.memo.set(text, lists);
    }
    if (++this.memoLookups === MEMO_WINDOW) {
      // Mostly new values (unique referrers, say): remembering them costs more than it saves for a while.
      if (this.memoMisses > MEMO_WINDOW / 2) this.memoPaused = MEMO_WINDOW * 8;
      this.memoLookups = this.memoMisses = 0;
    }
    for (let k = 0; k < lists.length; k++) this.satisfy(lists[k], whole);
  }

  /** Scans one value: loud literals anywhere, quiet ones at its ends. */
  private scanValue(text: string, whole: number): void {
    const automaton = this.automaton as AhoCorasick;
    this.wholeFields = whole;
    this.valueEnd = text.length - 1;
    this.slicesTo = 0;
    let entry = automaton.scanAsciiFrom(text, 0, text.length, 0, this.onHit);
    if (entry < 0) {
      text = text.toLowerCase();
      this.valueEnd = text.length - 1;
      entry = automaton.scanFrom(text, 0, text.length, 0, this.onHit);
    }
    if (whole & this.suffixFields) {
      this.quietMask = whole;
      this.quietValue = -1;
      this.quietEndsAt = text.length;
      automaton.suffixesAt(entry, this.valueEnd, this.onQuietSuffix);
    }
    if (whole & this.prefixFields) this.walk(text, 0, text.length, whole);
  }

  /**
   * Scans a value slices lie in, in segments cut at the slices' ends so the quiet suffixes of each
   * slice can be read there; false when the value is not ASCII (nothing of the quiet checks done).
   */
  private scanSliced(text: string, d: number, whole: number): boolean {
    const automaton = this.automaton as AhoCorasick;
    const { sliceOwner, sliceBit, sliceStart, sliceEnd, sliceCount } = this;
    this.wholeFields = whole;
    this.valueEnd = text.length - 1;
    this.slicesFrom = 0;
    this.slicesTo = sliceCount;
    let entry = 0;
    let at = 0;
    while (at < text.length) {
      // Next segment end: the nearest slice end past `at`, else the end of the value.
      let to = text.length;
      for (let k = 0; k < sliceCount; k++) if (sliceOwner[k] === d && sliceEnd[k] > at && sliceEnd[k] < to) to = sliceEnd[k];
      entry = automaton.scanAsciiFrom(text, at, to, entry, this.onHit);
      if (entry < 0) return false;
      let mask = to === text.length ? whole & this.suffixFields : 0;
      for (let k = 0; k < sliceCount; k++) if (sliceOwner[k] === d && sliceEnd[k] === to && sliceStart[k] < to) mask |= sliceBit[k] & this.suffixFields;
      if (mask) {
        this.quietMask = mask;
        this.quietValue = d;
        this.quietEndsAt = to;
        automaton.suffixesAt(entry, to - 1, this.onQuietSuffix);
      }
      at = to;
    }
    if (whole & this.prefixFields) this.walk(text, 0, text.length, whole);
    for (let k = 0; k < sliceCount; k++) {
      if (sliceOwner[k] === d && sliceBit[k] & this.prefixFields && sliceStart[k] < sliceEnd[k]) this.walk(text, sliceStart[k], sliceEnd[k], sliceBit[k]);
    }
    return true;
  }

  /** Quiet literals starting text[from, to): prefixes, and whole values when they reach its end. */
  private walk(text: string, from: number, to: number, mask: number): void {
    this.quietMask = mask;
    (this.automaton as AhoCorasick).walkPrefixes(text, from, to, this.onQuietPrefix);
  }

  /** Fields (bits) some clause checks with a quiet prefix / a quiet suffix or whole value: only those are walked / read at their ends. */
  private readonly prefixFields: number;
  private readonly suffixFields: number;
  /** Context of the quiet check in progress: the fields it counts for. */
  private quietMask = 0;
  /** For quiet literals read at a segment end: the value's index (or -1: a value scanned on its own) and the segment end. */
  private quietValue = -1;
  private quietEndsAt = 0;
  private readonly onQuietPrefix = (atom: number): void => {
    const uses = this.uses[atom];
    if (uses.prefixes.length) this.satisfy(uses.prefixes, this.quietMask);
  };
  /** A quiet literal ends the value (or slices) at a segment end: a suffix of each long enough to hold it, the whole of each exactly as long. */
  private readonly onQuietSuffix = (atom: number): void => {
    const uses = this.uses[atom];
    const length = this.atomLength[atom];
    let suffix = 0;
    let exact = 0;
    const d = this.quietValue;
    if (d === -1) {
      suffix = this.quietMask;
      if (length === this.quietEndsAt) exact = suffix;
    } else if (this.quietEndsAt === this.distinct[d].length) {
      suffix = this.holders[d];
      if (length === this.quietEndsAt) exact = suffix;
    }
    for (let k = 0; k < this.sliceCount; k++) {
      if (this.sliceOwner[k] !== d || this.sliceEnd[k] !== this.quietEndsAt) continue;
      const sliceLength = this.sliceEnd[k] - this.sliceStart[k];
      if (length <= sliceLength) suffix |= this.sliceBit[k];
      if (length === sliceLength) exact |= this.sliceBit[k];
    }
    suffix &= this.quietMask;
    exact &= this.quietMask;
    if (suffix && uses.suffixes.length) this.satisfy(uses.suffixes, suffix);
    if (exact && uses.exact.length) this.satisfy(uses.exact, exact);
  };

  private collectValue(value: FieldValue, bit: number): void {
    if (value === undefined || value === null) return;
    if (typeof value === 'string') this.collect(value, bit);
    else if (Array.isArray(value)) for (let v = 0; v < value.length; v++) this.collect(String(value[v]), bit);
    else this.collect(String(value), bit);
  }

  /** Adds a value to the distinct values of this event (one string read by several fields is scanned once); returns its index. */
  private collect(value: string, bit: number): number {
    const { distinct, holders } = this;
    let d = 0;
    while (d < distinct.length && distinct[d] !== value) d++;
    if (d === distinct.length) {
      distinct.push(value);
      holders.push(bit);
    } else holders[d] |= bit;
    return d;
  }

  private addSlice(owner: number, bit: number, field: number, start: number, end: number): void {
    const k = this.sliceCount++;
    this.sliceOwner[k] = owner;
    this.sliceBit[k] = bit;
    this.sliceField[k] = field;
    this.sliceStart[k] = start;
    this.sliceEnd[k] = end;
  }

  private satisfy(clauses: number[], mask: number): void {
    if (this.recording !== null) {
      this.recording.push(clauses);
      return;
    }
    const { clauseRule, clauseFields, clausesNeeded, clauseStamp, ruleStamp, ruleSatisfied, generation } = this;
    for (let k = 0; k < clauses.length; k++) {
      const clause = clauses[k];
      if (clauseStamp[clause] === generation || (clauseFields[clause] & mask) === 0) continue;
      clauseStamp[clause] = generation;
      const rule = clauseRule[clause];
      if (ruleStamp[rule] !== generation) {
        ruleStamp[rule] = generation;
        ruleSatisfied[rule] = 0;
      }
      if (++ruleSatisfied[rule] === clausesNeeded[rule]) this.candidates.push(rule);
    }
  }
}
