/**
 * DGA per domain, on families the model never saw: leave-one-family-out over every family of the shared
 * training data (tools/dga/lofo.ts), each family scored by the model trained without it at that model's own
 * threshold (set on the benign validation slice); false positives of the product model on the held-out benign
 * slice and on generated cloud/CDN names; the cost of scoring one name.
 */
import { defaultPopularity } from '@vigil/detection-engine';
import { createRng } from '@vigil/testing';
import { committedModelOfLofoKind } from '../dga/lofo';
import { STYLE_TITLES, styleOf, type DgaStyle } from '../dga/family-styles';
import { scoringCost } from '../dga/bench-inference';
import { dgaEvalData, flaggedPerDomain, STYLE_ORDER, STYLE_TARGETS } from './dga-data';
import { pct, type EvalSection, type EvalTable } from './table';

interface FamilyResult {
  family: string;
  style: DgaStyle;
  domains: number;
  caught: number;
  burst: number;
  foldSize: number;
}

/** Labels like the issue's: 7-10 lower-case letters with one digit. */
export function shortDigitLabels(count: number, seed: string): string[] {
  const rng = createRng(seed);
  return Array.from({ length: count }, () => {
    const letters = rng.string('abcdefghijklmnopqrstuvwxyz', rng.int(7, 10)).split('');
    letters.splice(rng.int(0, letters.length), 0, String(rng.int(0, 9)));
    return letters.join('');
  });
}

export const dgaPerDomain: EvalSection = {
  name: 'DGA per domain',
  async run(context) {
    const data = dgaEvalData(context.dataDir);
    const folds = await context.dgaFolds();
    const popularity = defaultPopularity();
    const results: FamilyResult[] = [];
    const foldFpr: number[] = [];
    for (const { fold, model } of folds) {
      for (const family of fold.leftOut) {
        const names = data.dga.filter((d) => d.family === family);
        let caught = 0;
        let burst = 0;
        for (const d of names) {
          if (flaggedPerDomain(d.name, model, popularity)) caught++;
          if (model.scoreLabel(d.label) >= model.burstThreshold) burst++;
        }
        results.push({ family, style: styleOf(family), domains: names.length, caught, burst, foldSize: fold.leftOut.length });
      }
      foldFpr.push(data.heldOut.filter((b) => model.scoreLabel(b.label) >= model.threshold).length / data.heldOut.length);
    }
    results.sort((a, b) => STYLE_ORDER.indexOf(a.style) - STYLE_ORDER.indexOf(b.style) || a.family.localeCompare(b.family));

    const product = committedModelOfLofoKind();
    const productName = product.cnn !== undefined ? 'CNN model, model-cnn.json' : 'product model';
    const heldOutFp = data.heldOut.filter((b) => flaggedPerDomain(b.domains[0], product, popularity));
    const cdnFp = data.cdn.filter((n) => flaggedPerDomain(n, product, popularity)).length;
    const cdnRaw = data.cdn.filter((n) => {
      const label = n.split('.')[0];
      return product.scoreLabel(label) >= product.threshold;
    }).length;
    const issueLabels = shortDigitLabels(5000, 'eval-short-digit');
    const issueCaught = issueLabels.filter((l) => product.scoreLabel(l) >= product.threshold).length;

    const mode = context.quick ? `--quick: ${folds.length} folds, each leaving out about ${Math.round(data.families.length / folds.length)} families` : `one fold per family (${folds.length})`;
    const summary: EvalTable = {
      title: `DGA per domain on families left out of training (${mode})`,
      columns: ['style', 'families', 'domains', 'TPR per domain (pooled)', 'TPR, mean of families', 'lowest family', 'goal (at ≤ 0.1 % FPR)'],
      rows: STYLE_ORDER.map((style) => {
        const rs = results.filter((r) => r.style === style);
        const n = rs.reduce((a, r) => a + r.domains, 0);
        const k = rs.reduce((a, r) => a + r.caught, 0);
        const mean = rs.reduce((a, r) => a + r.caught / r.domains, 0) / Math.max(1, rs.length);
        const lowest = [...rs].sort((a, b) => a.caught / a.domains - b.caught / b.domains)[0];
        return [STYLE_TITLES[style], rs.length, n, pct(k, n, 1), `${(100 * mean).toFixed(1)} %`, lowest ? `${lowest.family} ${pct(lowest.caught, lowest.domains, 1)}` : '-', STYLE_TARGETS[style].perDomain];
      }),
      notes: [
        `All families: ${pct(results.reduce((a, r) => a + r.caught, 0), results.reduce((a, r) => a + r.domains, 0), 1)} of ${results.reduce((a, r) => a + r.domains, 0).toLocaleString('en-US')} domains. ` +
          'Each fold\'s threshold is set at 0.1 % FPR on the deep-tail labels of the benign validation slice; the left-out family and the held-out benign slice are never used to train or set anything.',
      ],
    };
    const perFamily: EvalTable = {
      title: 'DGA per domain, each family scored by the model trained without it',
      columns: ['family', 'style', 'domains', 'TPR at threshold', 'TPR at burst threshold (1 % FPR)'],
      rows: results.map((r) => [r.family, r.style, r.domains, pct(r.caught, r.domains, 1), pct(r.burst, r.domains, 1)]),
    };
    const cost = scoringCost(product, data.heldOut.map((b) => b.label));
    const benign: EvalTable = {
      title: 'DGA per domain: false positives on names never trained on, and cost',
      columns: ['benign set', 'names', 'flagged', 'FPR', 'goal'],
      rows: [
        [`held-out deep-tail labels (${productName}, threshold ${product.threshold.toFixed(4)})`, data.heldOut.length, heldOutFp.length, pct(heldOutFp.length, data.heldOut.length, 3), '≤ 0.1 %'],
        [`held-out deep-tail labels, each fold's model at its threshold (mean / max of ${foldFpr.length})`, data.heldOut.length, '-', `${(100 * foldFpr.reduce((a, b) => a + b, 0) / foldFpr.length).toFixed(3)} % / ${(100 * Math.max(...foldFpr)).toFixed(3)} %`, '≤ 0.1 %'],
        ['generated cloud/CDN names (cloudfront, EC2, ELB, googleusercontent, akamai, azureedge/azurefd, fastly, Lambda URLs, Global Accelerator)', data.cdn.length, cdnFp, pct(cdnFp, data.cdn.length, 3), '≤ 0.1 %'],
        ['  the same, model score alone (without the provider-zone rule)', data.cdn.length, cdnRaw, pct(cdnRaw, data.cdn.length, 3), 'informational'],
        [`issue-shaped labels: 7-10 letters with one digit (${productName})`, issueLabels.length, issueCaught, pct(issueCaught, issueLabels.length, 1), 'TPR; per host below'],
      ],
      notes: [
        `Scoring one name: ${cost.perName.toFixed(2)} µs CPU per label (${cost.labels.toLocaleString('en-US')} held-out labels, median of ${cost.passes} passes; ` +
          `registrable-label extraction alone ${cost.baseline.toFixed(2)} µs in the same run, ratio ${(cost.perName / cost.baseline).toFixed(1)}x). Goal ≤ 10 µs.`,
        `Highest-scoring held-out names flagged: ${heldOutFp.slice(0, 12).map((b) => b.domains[0]).join(' ') || 'none'}`,
      ],
    };
    return [summary, perFamily, benign];
  },
};
