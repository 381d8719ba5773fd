import { seededRandom } from '../../testing/fixtures';
import { dataSizeScore, durationScore, histogramShape, madScore, quartiles, skewScore, timestampScore } from './beacon-score';

describe('beacon sub-scores', () => {
  it('computes quartiles as medians of the halves', () => {
    expect(quartiles([1, 2, 3, 4, 5, 6, 7])).toEqual([2, 4, 6]);
    expect(quartiles([1, 2, 3, 4, 5, 6, 7, 8])).toEqual([2.5, 4.5, 6.5]);
  });

  it('scores symmetric data 1 and skewed data lower (Bowley)', () => {
    expect(skewScore([10, 20, 30, 40, 50, 60, 70]).score).toBe(1);
    const skewed = skewScore([10, 11, 12, 13, 14, 60, 200, 400, 900]);
    expect(skewed.skew).toBeGreaterThan(0.5);
    expect(skewed.score).toBeLessThan(0.5);
    // quartiles closer than 10 units: treated as no skew
    expect(skewScore([60, 60, 61, 62, 66, 66, 67]).skew).toBe(0);
  });

  it('scores the MAD relative to the median', () => {
    expect(madScore([60, 60, 60, 60], 1)).toEqual({ mad: 0, score: 1 });
    expect(madScore([30, 45, 60, 75, 90], 1).score).toBeCloseTo(0.75, 5);
    expect(madScore([0, 0, 0], 0).score).toBe(0);
  });

  it('gives a jittered timer a high timestamp score and Poisson arrivals a low one', () => {
    const random = seededRandom(1);
    let t = 0;
    const timer = Array.from({ length: 200 }, () => (t += Math.round(60 * (0.7 + 0.6 * random()))));
    t = 0;
    const poisson = Array.from({ length: 200 }, () => (t += Math.max(1, Math.round(-60 * Math.log(1 - random())))));
    expect(timestampScore(timer)!.score).toBeGreaterThan(0.85);
    expect(timestampScore(poisson)!.score).toBeLessThan(0.65);
    expect(timestampScore([0, 0, 10, 10])).toBeUndefined();
  });

  it('scores constant sizes 1', () => {
    expect(dataSizeScore([300, 300, 300, 300])!.score).toBe(1);
    expect(dataSizeScore([1, 2])).toBeUndefined();
  });

  it('scores flat and two-level histograms high, bursty ones low', () => {
    expect(histogramShape(Array(24).fill(60)).score).toBe(1);
    const twoLevels = Array.from({ length: 24 }, (_, i) => (i < 12 ? 60 : 20));
    expect(histogramShape(twoLevels).score).toBe(1);
    const bursty = Array.from({ length: 24 }, (_, i) => (i === 3 ? 200 : i === 9 ? 40 : 0));
    expect(histogramShape(bursty).score).toBe(0);
    expect(histogramShape([0, 0, 3, 3, 0, 3]).longestRun).toBe(2);
  });

  it('scores duration by coverage or by the longest run, once enough bins are filled', () => {
    const flat = histogramShape(Array(24).fill(5));
    expect(durationScore(3_600, 3_600, flat)).toBe(1);
    const few = histogramShape([5, 5, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(durationScore(3_600, 86_400, few)).toBe(0);
  });
});
