/** Values longer than this are scanned each time (long values rarely repeat exactly). */
const MEMO_MAX_LENGTH = 512;
const MEMO_ENTRIES = 4096;
/** Lookups per hit-rate check of the memo. */
const MEMO_WINDOW = 4096;

/**
 * What a value satisfies depends only on its text (the fields holding it just mask the result), and
 * user agents, methods, hosts and referrers repeat from event to event: this remembers the clause
 * lists a short value satisfies (bounded; dropped wholesale when full, and bypassed while most
 * values turn out new), so a repeated value costs a hash lookup.
 */
export class ValueMemo {
  private readonly entries = new Map<string, number[][]>();
  private lookups = 0;
  private misses = 0;
  /** Values still to be scanned directly before the memo is tried again. */
  private paused = 0;

  /** Whether to look `text` up (false: scan it directly; counts down a pause). */
  admits(text: string): boolean {
    if (this.paused > 0) {
      this.paused--;
      return false;
    }
    return text.length <= MEMO_MAX_LENGTH;
  }

  /** The clause lists remembered for `text`, or undefined (a miss: scan it and store() them). */
  lookup(text: string): number[][] | undefined {
    const lists = this.entries.get(text);
    if (lists === undefined) this.misses++;
    if (++this.lookups === MEMO_WINDOW) {
      // Mostly new values (unique referrers, say): remembering them costs more than it saves for a while.
      if (this.misses > MEMO_WINDOW / 2) this.paused = MEMO_WINDOW * 8;
      this.lookups = this.misses = 0;
    }
    return lists;
  }

  store(text: string, lists: number[][]): void {
    if (this.entries.size >= MEMO_ENTRIES) this.entries.clear();
    this.entries.set(text, lists);
  }
}
