import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lnBinomialUpperTail } from './host-evidence';

export const TLD_NULL_FORMAT = 'vigil-dga-tld-null/1';
export const DEFAULT_TLD_NULL_PATH = join(__dirname, '..', '..', '..', 'data', 'dga', 'tld-null.json');

/**
 * The least p-value the TLD term gives. The benign shares are those of the whole validation slice, while one
 * network browses its own country's sites (ten never-seen `.pl` domains are ordinary in Poland): however
 * unlike the slice a host's suffixes are, they are taken as no stronger evidence than ten `.com` domains in a
 * row, about the share of benign windows whose suffixes are all one.
 */
export const TLD_P_FLOOR = 1e-3;

/** What tools/dga/build-tld-null.ts writes: the public suffixes of benign never-seen domains, and how windows of them vary. */
export interface TldNullFile {
  format: typeof TLD_NULL_FORMAT;
  /** Benign domains counted. */
  domains: number;
  /** Domains per suffix (`com`, `co.uk`, `duckdns.org`: what follows the label, registrable-label.ts). */
  counts: Record<string, number>;
  /**
   * Per window size n (as a string key), over random windows of n distinct benign domains: `atMost[d - 1]` is
   * P(at most d distinct suffixes), `atLeast[d - 1]` P(at least d), both rounded up.
   */
  distinct: Record<string, { atMost: number[]; atLeast: number[] }>;
  windowsPerSize: number;
  source: string;
}

/** Which TLD test was the most surprising. */
export type TldTest = 'few_suffixes' | 'many_suffixes' | 'rare_suffix' | 'none';

export interface TldEvidence {
  /** The term's p-value: the most surprising of three tests, times three for having picked it, at least {@link TLD_P_FLOOR}. */
  p: number;
  test: TldTest;
  distinct: number;
  /** The suffix of the rare-suffix test, when that test was picked. */
  suffix?: string;
}

/**
 * How unlike benign browsing the public suffixes of a host's never-seen domains are. A generator picks its
 * TLDs from a short list of its own: often one (all `.com`), sometimes one per name from a long list of
 * country codes, often cheap or old gTLDs that few sites use (`.biz`, `.name`, `.info`). So three tests, against
 * the benign validation slice: as few distinct suffixes as these, as many, and the most over-represented suffix
 * (its count against its benign share, a union bound over every suffix).
 */
export class TldNull {
  /** Domains per suffix (a Map: suffixes come from traffic, and must not meet the prototype of a plain object). */
  private readonly counts: ReadonlyMap<string, number>;
  /** Suffixes counted, plus one for those never seen (each given half a domain's share). */
  private readonly categories: number;

  constructor(readonly file: TldNullFile) {
    if (file.format !== TLD_NULL_FORMAT) throw new Error(`TLD null: unknown format ${String(file.format)}`);
    if (!(file.domains > 0)) throw new Error('TLD null: no domains');
    for (const [n, d] of Object.entries(file.distinct)) {
      if (d.atMost.length !== Number(n) || d.atLeast.length !== Number(n)) throw new Error(`TLD null: size ${n} has the wrong number of shares`);
    }
    this.counts = new Map(Object.entries(file.counts));
    this.categories = this.counts.size + 1;
  }

  static load(path: string = DEFAULT_TLD_NULL_PATH): TldNull {
    return new TldNull(JSON.parse(readFileSync(path, 'utf8')) as TldNullFile);
  }

  /** The benign share of a suffix; a suffix never seen gets half a domain's. */
  share(suffix: string): number {
    return (this.counts.get(suffix) ?? 0.5) / this.file.domains;
  }

  /** The evidence of the suffixes of n distinct domains (one entry per domain); test `none` below 2 or past the table's sizes. */
  evidence(suffixes: readonly string[]): TldEvidence {
    const n = suffixes.length;
    const counts = new Map<string, number>();
    for (const s of suffixes) counts.set(s, (counts.get(s) ?? 0) + 1);
    const distinct = counts.size;
    const table = this.file.distinct[String(n)];
    if (n < 2 || table === undefined) return { p: 1, test: 'none', distinct };
    let best: TldEvidence = { p: table.atMost[distinct - 1], test: 'few_suffixes', distinct };
    if (table.atLeast[distinct - 1] < best.p) best = { p: table.atLeast[distinct - 1], test: 'many_suffixes', distinct };
    let rareP = 1;
    let rare = '';
    for (const [suffix, count] of counts) {
      const p = Math.exp(lnBinomialUpperTail(n, count, this.share(suffix)));
      if (p < rareP) [rareP, rare] = [p, suffix];
    }
    rareP = Math.min(1, this.categories * rareP);
    if (rareP < best.p) best = { p: rareP, test: 'rare_suffix', distinct, suffix: rare };
    return { ...best, p: Math.max(TLD_P_FLOOR, Math.min(1, 3 * best.p)) };
  }
}

let defaultNull: TldNull | undefined;

export function defaultTldNull(): TldNull {
  return (defaultNull ??= TldNull.load());
}
