import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BOUNDARY, SYMBOLS, symbolOf, SURPRISAL_STEP_BITS, type CharLanguageModel } from './char-language-model';

/**
 * How much the labels of one host's window resemble each other beyond what names in general share: the sum, over
 * the characters of every label, of log2(P_mix / P_benign), where P_benign is the benign character trigram model
 * and P_mix = ½ P_others + ½ P_benign, P_others a trigram estimate from the window's other labels. A generator
 * reuses its own syllables and letter habits (vawtrak's `wum`, `gufl`, `ocn`), so each label is better predicted
 * by its siblings; the unrelated sites a person visits are not (each term is at least log2(½) per character).
 *
 * Sites that share a name (a page and its `-cdn`/`static` companions) would look alike too: of labels that
 * share a run of {@link SHARED_NAME_LENGTH} characters, only the first counts. Callers pass only labels without
 * digits ({@link kinshipLabels}): digits are what the character-class test weighs, and a window of digit-laden
 * names would otherwise count twice for one trait.
 */
export const SHARED_NAME_LENGTH = 6;
/** Weight (in trigrams) of the benign model as the prior of the siblings' estimate. */
const PRIOR_WEIGHT = 1;

/** The labels the kinship test looks at: those of letters and hyphens only. */
export function kinshipLabels(labels: readonly string[]): string[] {
  return labels.filter((label) => !/[0-9]/.test(label));
}

export function labelKinship(labels: readonly string[], benign: CharLanguageModel): number {
  const kept = unrelatedLabels(labels);
  if (kept.length < 2) return 0;
  const trigrams = kept.map(trigramsOf);
  const counts = new Map<number, number>();
  const contexts = new Map<number, number>();
  for (const label of trigrams) {
    for (const t of label) {
      counts.set(t, (counts.get(t) ?? 0) + 1);
      const ctx = Math.floor(t / SYMBOLS);
      contexts.set(ctx, (contexts.get(ctx) ?? 0) + 1);
    }
  }
  let total = 0;
  for (const label of trigrams) {
    const own = new Map<number, number>();
    const ownContexts = new Map<number, number>();
    for (const t of label) {
      own.set(t, (own.get(t) ?? 0) + 1);
      const ctx = Math.floor(t / SYMBOLS);
      ownContexts.set(ctx, (ownContexts.get(ctx) ?? 0) + 1);
    }
    for (const t of label) {
      const ctx = Math.floor(t / SYMBOLS);
      const seen = (counts.get(t) ?? 0) - (own.get(t) ?? 0);
      const seenContext = (contexts.get(ctx) ?? 0) - (ownContexts.get(ctx) ?? 0);
      const pBenign = Math.pow(2, -benign.table[t] * SURPRISAL_STEP_BITS);
      // The siblings' estimate, drawn towards the benign one where they have seen little of this context.
      const others = (seen + PRIOR_WEIGHT * pBenign) / (seenContext + PRIOR_WEIGHT);
      total += Math.log2((0.5 * others + 0.5 * pBenign) / pBenign);
    }
  }
  return total;
}

/**
 * Trigram indices `(a * SYMBOLS + b) * SYMBOLS + c` of `^^label$`, as the language model's table is laid out,
 * without the first two characters' (names that merely start alike, as in an alphabetical list, are not kin).
 */
function trigramsOf(label: string): number[] {
  const out: number[] = [];
  let a = BOUNDARY;
  let b = BOUNDARY;
  for (let i = 0; i <= label.length; i++) {
    const c = i < label.length ? symbolOf(label.charCodeAt(i)) : BOUNDARY;
    if (i >= 2) out.push((a * SYMBOLS + b) * SYMBOLS + c);
    a = b;
    b = c;
  }
  return out;
}

/** The labels in order, without those sharing a {@link SHARED_NAME_LENGTH}-character run with an earlier kept one. */
function unrelatedLabels(labels: readonly string[]): string[] {
  const runs = new Set<string>();
  const kept: string[] = [];
  for (const label of labels) {
    const own: string[] = [];
    for (let i = 0; i + SHARED_NAME_LENGTH <= label.length; i++) own.push(label.slice(i, i + SHARED_NAME_LENGTH));
    if (own.some((run) => runs.has(run))) continue;
    for (const run of own) runs.add(run);
    kept.push(label);
  }
  return kept;
}

export const KINSHIP_NULL_FORMAT = 'vigil-dga-kinship-null/1';
export const DEFAULT_KINSHIP_NULL_PATH = join(__dirname, '..', '..', '..', 'data', 'dga', 'kinship-null.json');

/** What tools/dga/build-kinship-null.ts writes: {@link labelKinship} of random windows of benign labels. */
export interface KinshipNullFile {
  format: typeof KINSHIP_NULL_FORMAT;
  /** sha256 of the benign language model (model.json `languageModel`) the statistic was computed with. */
  languageModelSha256: string;
  /** Upper-tail probabilities, descending. */
  tailShares: number[];
  /** Per window size (as a string key): the statistic's value at each of `tailShares`. */
  quantiles: Record<string, number[]>;
  windowsPerSize: number;
  source: string;
}

/** The benign distribution of {@link labelKinship} per window size, as a conservative p-value. */
export class KinshipNull {
  private readonly sizes: number[];

  constructor(readonly file: KinshipNullFile) {
    if (file.format !== KINSHIP_NULL_FORMAT) throw new Error(`kinship null: unknown format ${String(file.format)}`);
    this.sizes = Object.keys(file.quantiles).map(Number).sort((a, b) => a - b);
    if (this.sizes.length === 0 || file.tailShares.length === 0) throw new Error('kinship null: no quantiles');
    for (const n of this.sizes) if (file.quantiles[n].length !== file.tailShares.length) throw new Error(`kinship null: size ${n} has the wrong number of quantiles`);
  }

  static load(path: string = DEFAULT_KINSHIP_NULL_PATH): KinshipNull {
    return new KinshipNull(JSON.parse(readFileSync(path, 'utf8')) as KinshipNullFile);
  }

  /** Whether the statistic was computed with this benign model. */
  fits(benign: CharLanguageModel): boolean {
    return createHash('sha256').update(Buffer.from(benign.table).toString('base64')).digest('hex') === this.file.languageModelSha256;
  }

  /**
   * P(a benign window of `n` labels reaches `statistic`), rounded up to the next tabulated share (1 below the
   * median). Sizes between or beyond those tabulated use the nearest smaller one (or the smallest).
   */
  pValue(n: number, statistic: number): number {
    let size = this.sizes[0];
    for (const s of this.sizes) if (s <= n) size = s;
    const q = this.file.quantiles[size];
    let p = 1;
    for (let i = 0; i < q.length; i++) if (statistic >= q[i]) p = this.file.tailShares[i];
    return p;
  }
}

let defaultNull: KinshipNull | undefined;

export function defaultKinshipNull(): KinshipNull {
  return (defaultNull ??= KinshipNull.load());
}
