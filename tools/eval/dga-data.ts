/** The DGA evaluation's data, read once per run and shared by the per-domain and per-host sections. */
import { assessDga, type DgaModel, type PopularitySet } from '@vigil/detection-engine';
import { createRng, cdnHostname } from '@vigil/testing';
import { benignLabels, dgaDomains, type BenignLabel, type DgaSample } from '../dga/dataset';
import { FAMILY_STYLES, styleOf, type DgaStyle } from '../dga/family-styles';

export interface DgaEvalData {
  dga: DgaSample[];
  /** The held-out deep-tail benign labels: never trained on, not in the shipped popularity data. */
  heldOut: BenignLabel[];
  /** Generated cloud/CDN host names with provider-generated labels. */
  cdn: string[];
  families: string[];
}

const cache = new Map<string, DgaEvalData>();

export function dgaEvalData(dataDir: string): DgaEvalData {
  let data = cache.get(dataDir);
  if (data === undefined) {
    const dga = dgaDomains(dataDir);
    const families = [...new Set(dga.map((d) => d.family))].sort();
    families.forEach(styleOf); // every family must have a style
    const rng = createRng('eval-cdn-names');
    data = { dga, heldOut: benignLabels(dataDir).filter((b) => b.slice === 'heldout'), cdn: Array.from({ length: 5000 }, () => cdnHostname(rng)), families };
    cache.set(dataDir, data);
  }
  return data;
}

/** The product's per-domain verdict on a name: provider-assigned labels are never flagged. */
export function flaggedPerDomain(name: string, model: DgaModel, popularity: PopularitySet): boolean {
  return assessDga(name, model, popularity)?.aboveThreshold ?? false;
}

export const STYLE_ORDER: DgaStyle[] = ['random', 'pronounceable', 'dictionary', 'encoded'];
export const STYLE_TARGETS: Record<DgaStyle, { perDomain: string; min: number | undefined }> = {
  random: { perDomain: '≥ 95 %', min: 0.95 },
  pronounceable: { perDomain: '≥ 80 %', min: 0.8 },
  dictionary: { perDomain: '≥ 50 %', min: 0.5 },
  encoded: { perDomain: '(none set)', min: undefined },
};
export { FAMILY_STYLES };
