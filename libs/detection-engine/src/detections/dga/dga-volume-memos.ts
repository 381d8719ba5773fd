import { BoundedMemo } from '../../bounded-memo';
import type { DgaModel } from './dga-model';

/**
 * A label's DGA score depends on the label alone (given the model). Every partition's detector in a thread sees
 * the same names, so one memo per thread serves them all: a better hit rate for less memory than one each.
 */
const SCORE_MEMO_SIZE = 32_768;

const scoreMemos = new WeakMap<DgaModel, BoundedMemo<number>>();

/** The thread's memo of label scores under `model`. */
export function sharedScoreMemo(model: DgaModel): BoundedMemo<number> {
  let memo = scoreMemos.get(model);
  if (memo === undefined) scoreMemos.set(model, (memo = new BoundedMemo(SCORE_MEMO_SIZE, (label) => model.scoreLabel(label), 63)));
  return memo;
}
