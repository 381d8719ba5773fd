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
