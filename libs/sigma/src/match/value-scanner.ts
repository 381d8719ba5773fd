import type { AhoCorasick } from './aho-corasick';
import type { ClauseTally } from './clause-tally';
import type { EventView } from './event-view';
import type { EventValues } from './event-values';
import type { AtomUses, ScreeningPlan } from './screening-plan';
import { ValueMemo } from './value-memo';

/** Every field bit: a value scanned for the memo counts for whichever fields hold it later. */
const ALL_FIELDS = -1;

/**
 * Scans an event's distinct values with the plan's automaton, as sent (no lower-cased copy, no
 * hashing), and places each hit: a hit counts as a prefix when it starts the value, a suffix when
 * it ends it, a whole value when it does both, and counts for a clause only when it lies in a value
 * (or a slice of one, placed by position) of one of the clause's fields. Values with non-ASCII
 * characters are scanned lower-cased, and then slices are read and scanned on their own
 * (lower-casing may move positions). The state of the scan in progress lives on the instance, and
 * the automaton's callbacks are built once, so nothing is allocated per event.
 */
export class ValueScanner {
  private readonly automaton?: AhoCorasick;
  private readonly uses: AtomUses[];
  private readonly atomLength: Int32Array;
  private readonly anchored: Uint8Array;
  private readonly anywhere: number[];
  private readonly emptyExact: number[];
  private readonly prefixFields: number;
  private readonly suffixFields: number;
  private readonly memo = new ValueMemo();
  private readonly tally: ClauseTally;
  private readonly values: EventValues;
  // The event's values (arrays refilled in place by EventValues, so held directly).
  private readonly distinct: string[];
  private readonly holders: number[];
  private readonly sliceOwner: number[];
  private readonly sliceBit: number[];
  private readonly sliceField: number[];
  private readonly sliceStart: number[];
  private readonly sliceEnd: number[];

  /** Index of the distinct value being scanned. */
  private scanning = 0;
  /** The value being scanned: its whole-value fields, last index, and its slices (from..to in the slice arrays). */
  private wholeFields = 0;
  private valueEnd = 0;
  private slicesFrom = 0;
  private slicesTo = 0;
  /** Context of the quiet check in progress: the fields it counts for. */
  private quietMask = 0;
  /** For quiet literals read at a segment end: the value's index (or -1: a value scanned on its own) and the segment end. */
  private quietValue = -1;
  private quietEndsAt = 0;

  constructor(plan: ScreeningPlan, values: EventValues, tally: ClauseTally) {
    this.values = values;
    this.tally = tally;
    this.automaton = plan.automaton;
    this.uses = plan.uses;
    this.atomLength = plan.atomLength;
    this.anchored = plan.anchored;
    this.anywhere = plan.anywhere;
    this.emptyExact = plan.emptyExact;
    this.prefixFields = plan.prefixFields;
    this.suffixFields = plan.suffixFields;
    this.distinct = values.distinct;
    this.holders = values.holders;
    this.sliceOwner = values.sliceOwner;
    this.sliceBit = values.sliceBit;
    this.sliceField = values.sliceField;
    this.sliceStart = values.sliceStart;
    this.sliceEnd = values.sliceEnd;
  }

  /** Screens distinct value `d` of the event: what it and the slices lying in it satisfy. */
  scan(view: EventView, d: number): void {
    const text = this.distinct[d];
    const whole = this.holders[d];
    const { sliceOwner, sliceBit, sliceStart, sliceEnd } = this;
    const sliceCount = this.values.sliceCount;
    let sliced = 0;
    let emptySlices = 0;
    for (let k = 0; k < sliceCount; k++) {
      if (sliceOwner[k] !== d) continue;
      sliced |= sliceBit[k];
      if (sliceStart[k] === sliceEnd[k]) emptySlices |= sliceBit[k];
    }
    if (this.anywhere.length) this.tally.satisfy(this.anywhere, whole | sliced);
    const empty = (text.length === 0 ? whole : 0) | emptySlices;
    if (empty && this.emptyExact.length) this.tally.satisfy(this.emptyExact, empty);
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

  /** Screens a value no slice lies in, through the memo when it admits the value. */
  private scanWhole(text: string, whole: number): void {
    const memo = this.memo;
    if (!memo.admits(text)) {
      this.scanValue(text, whole);
      return;
    }
    let lists = memo.lookup(text);
    if (lists === undefined) {
      lists = this.tally.startRecording();
      this.scanValue(text, ALL_FIELDS);
      this.tally.stopRecording();
      memo.store(text, lists);
    }
    for (let k = 0; k < lists.length; k++) this.tally.satisfy(lists[k], whole);
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
    const { sliceOwner, sliceBit, sliceStart, sliceEnd } = this;
    const sliceCount = this.values.sliceCount;
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

  /** A loud literal ends at `end`: it counts for the value's whole-value fields and for each slice of it the hit lies in. */
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
    if (uses.contains.length) this.tally.satisfy(uses.contains, inside);
    if (this.anchored[atom] === 0) return;
    if (atStart && uses.prefixes.length) this.tally.satisfy(uses.prefixes, atStart);
    if (atEnd && uses.suffixes.length) this.tally.satisfy(uses.suffixes, atEnd);
    if (atStart & atEnd && uses.exact.length) this.tally.satisfy(uses.exact, atStart & atEnd);
  };

  private readonly onQuietPrefix = (atom: number): void => {
    const uses = this.uses[atom];
    if (uses.prefixes.length) this.tally.satisfy(uses.prefixes, this.quietMask);
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
    const sliceCount = this.values.sliceCount;
    for (let k = 0; k < sliceCount; k++) {
      if (this.sliceOwner[k] !== d || this.sliceEnd[k] !== this.quietEndsAt) continue;
      const sliceLength = this.sliceEnd[k] - this.sliceStart[k];
      if (length <= sliceLength) suffix |= this.sliceBit[k];
      if (length === sliceLength) exact |= this.sliceBit[k];
    }
    suffix &= this.quietMask;
    exact &= this.quietMask;
    if (suffix && uses.suffixes.length) this.tally.satisfy(uses.suffixes, suffix);
    if (exact && uses.exact.length) this.tally.satisfy(uses.exact, exact);
  };
}
