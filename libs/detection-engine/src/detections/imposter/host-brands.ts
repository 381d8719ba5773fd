/**
 * The brands one host looked up recently, with the time of each one's latest look-up, least recently looked up
 * first and at most `maxBrands`. Parallel arrays rather than a Map: a host keeps a handful of brands and looks
 * one up on most DNS queries, and moving a Map entry to the recent end (delete, then set) leaves a deleted slot
 * each time, so the small table keeps rebuilding itself; the arrays made the detection about 8 % cheaper.
 */
export class HostBrands {
  /** Oldest first; `times[i]` is the latest look-up of `brands[i]`. */
  readonly brands: string[] = [];
  readonly times: number[] = [];

  get size(): number {
    return this.brands.length;
  }

  /** The latest look-up of `brand`, if it is remembered. */
  timeOf(brand: string): number | undefined {
    const at = this.brands.indexOf(brand);
    return at < 0 ? undefined : this.times[at];
  }

  /** Records a look-up of `brand` at `timeMs` (its time never goes back), making it the most recent. */
  remember(brand: string, timeMs: number, maxBrands: number): void {
    const { brands, times } = this;
    const last = brands.length - 1;
    const at = brands.indexOf(brand);
    if (at === last && at >= 0) {
      if (timeMs > times[at]) times[at] = timeMs;
      return;
    }
    if (at < 0 && brands.length < maxBrands) {
      brands.push(brand);
      times.push(timeMs);
      return;
    }
    // Moved to the recent end in place (the brand looked up again, or the oldest one dropped for a new brand):
    // splice and shift would allocate on most DNS queries of a busy host.
    const latestMs = at >= 0 ? Math.max(times[at], timeMs) : timeMs;
    for (let i = at >= 0 ? at : 0; i < last; i++) {
      brands[i] = brands[i + 1];
      times[i] = times[i + 1];
    }
    brands[last] = brand;
    times[last] = latestMs;
  }
}
