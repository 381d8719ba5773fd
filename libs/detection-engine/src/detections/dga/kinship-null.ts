import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CharLanguageModel } from './char-language-model';

export const KINSHIP_NULL_FORMAT = 'vigil-dga-kinship-null/1';
export const DEFAULT_KINSHIP_NULL_PATH = join(__dirname, '..', '..', '..', 'data', 'dga', 'kinship-null.json');

/** What tools/dga/build-kinship-null.ts writes: the kinship statistic (label-kinship.ts) of random windows of benign labels. */
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

/** The benign distribution of the kinship statistic (label-kinship.ts) per window size, as a conservative p-value. */
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
    return languageModelSha256(benign) === this.file.languageModelSha256;
  }

  /** The smallest p-value {@link pValue} can give, at any size: the last tabulated share. */
  get smallestPValue(): number {
    return this.file.tailShares[this.file.tailShares.length - 1];
  }

  /**
   * P(a benign window of `n` labels reaches `statistic`), rounded up to the next tabulated share (1 up to the
   * median). Only a statistic beyond a quantile earns its share: many benign windows tie at a quantile (most
   * windows of two unrelated labels score exactly 0), so P(reaching it) can be far larger than its share. Sizes
   * between or beyond those tabulated use the nearest smaller one (or the smallest).
   */
  pValue(n: number, statistic: number): number {
    let size = this.sizes[0];
    for (const s of this.sizes) if (s <= n) size = s;
    const q = this.file.quantiles[size];
    let p = 1;
    for (let i = 0; i < q.length; i++) if (statistic > q[i]) p = this.file.tailShares[i];
    return p;
  }
}

/** The fingerprint a null table records of the benign language model it was built with. */
export function languageModelSha256(benign: CharLanguageModel): string {
  return createHash('sha256').update(Buffer.from(benign.table).toString('base64')).digest('hex');
}

let defaultNull: KinshipNull | undefined;

export function defaultKinshipNull(): KinshipNull {
  return (defaultNull ??= KinshipNull.load());
}
