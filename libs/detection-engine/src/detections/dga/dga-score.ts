import { defaultPopularity, type PopularitySet, type PopularityTier } from '../../popularity/popularity';
import { DgaModel } from './dga-model';
import { providerAssignedZone } from './provider-assigned';
import { registrableLabel } from './registrable-label';

/** What the DGA model says about one name: the same numbers the detector and `explain` use. */
export interface DgaAssessment {
  /** Registered domain (or the name itself when it is a public suffix). */
  domain: string;
  /** The scored label: the first label of `domain`. */
  label: string;
  /** Probability (0-1) that the label was machine-generated. */
  score: number;
  /** Per-domain threshold (0.1 % FPR on popular domains). */
  threshold: number;
  /** Threshold for counting towards a per-host burst (1 % FPR on popular domains). */
  burstThreshold: number;
  popularity: PopularityTier | undefined;
  /** The cloud/CDN zone whose provider generated the label (such labels are not judged): `cloudfront.net`. */
  providerZone?: string;
  /** The per-domain verdict: the label scores at or above `threshold` and is not provider-assigned. */
  aboveThreshold: boolean;
  /** The English words the label was cut into (evidence for or against a dictionary DGA). */
  words: string[];
}

let defaultModel: DgaModel | undefined;

/** The committed model (libs/detection-engine/data/dga/model.json), loaded on first use. */
export function defaultDgaModel(): DgaModel {
  defaultModel ??= DgaModel.load();
  return defaultModel;
}

/** DGA probability (0-1) of a name's registrable label; undefined for IPs and names that are not host names. */
export function dgaScore(name: string, model: DgaModel = defaultDgaModel()): number | undefined {
  const r = registrableLabel(name);
  return r === undefined ? undefined : model.scoreLabel(r.label);
}

export function assessDga(
  name: string,
  model: DgaModel = defaultDgaModel(),
  popularity: PopularitySet = defaultPopularity(),
): DgaAssessment | undefined {
  const r = registrableLabel(name);
  if (r === undefined) return undefined;
  const score = model.scoreLabel(r.label);
  const providerZone = providerAssignedZone(r.domain);
  return {
    domain: r.domain,
    label: r.label,
    score,
    threshold: model.threshold,
    burstThreshold: model.burstThreshold,
    popularity: popularity.tier(r.domain),
    ...(providerZone !== undefined ? { providerZone } : {}),
    aboveThreshold: providerZone === undefined && score >= model.threshold,
    words: model.words.words(r.label).filter((w) => w.length >= 3),
  };
}
