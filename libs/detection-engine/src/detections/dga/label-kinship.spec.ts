import { DgaModel } from './dga-model';
import { defaultKinshipNull, KINSHIP_NULL_FORMAT, KinshipNull } from './kinship-null';
import { kinshipLabels, labelKinship } from './label-kinship';

const lm = DgaModel.load().benignLanguageModel;
// Names a pronounceable generator made (vawtrak's: its own syllables, reused).
const generated = ['usahwutle', 'folocnam', 'awumsah', 'edorwufli', 'misocgutlah', 'tosacgufl', 'hogutlurwum', 'ugemlurwimd', 'tesicgufl', 'masucwemso'];

describe('labelKinship', () => {
  const unrelated = ['weatherstation', 'kitchenideas', 'photobooth', 'lubimyczytac', 'gardenpros', 'sailingclub', 'uludagsozluk', 'bikeparts', 'notino', 'papierwerk'];

  it('is high when the labels reuse each other\'s character sequences and low for unrelated names', () => {
    expect(labelKinship(generated, lm)).toBeGreaterThan(20);
    expect(labelKinship(unrelated, lm)).toBeLessThan(0);
  });

  it('counts a site and its companions (labels sharing a 6-character run) once', () => {
    const companions = ['acmewidgets', 'acmewidgetscdn', 'acmewidgets-static', 'static-acmewidgets', 'acmewidgetsimg', 'acmewidgetsmedia'];
    expect(labelKinship(companions, lm)).toBe(0);
    expect(labelKinship([...unrelated.slice(0, 5), ...companions], lm)).toBeCloseTo(labelKinship([...unrelated.slice(0, 5), companions[0]], lm), 10);
  });

  it('does not count names that merely start alike, as neighbours in an alphabetical list do', () => {
    const alphabetical = ['abacusgroup', 'abalonebay', 'abandonedplaces', 'abbeyroad', 'abcmouse', 'abdominal', 'abercrombie', 'abingdon', 'ablehome', 'aboutface'];
    expect(labelKinship(alphabetical, lm)).toBeLessThan(5);
  });

  it('looks only at labels without digits: digits are the character-class test\'s', () => {
    expect(kinshipLabels(['0511dsw', 'gbads', '0x7c0', 'pixtastock', 'my-site'])).toEqual(['gbads', 'pixtastock', 'my-site']);
  });

  it('is 0 for fewer than two labels', () => {
    expect(labelKinship([], lm)).toBe(0);
    expect(labelKinship(['usahwutle'], lm)).toBe(0);
  });
});

describe('KinshipNull', () => {
  const file = { format: KINSHIP_NULL_FORMAT, languageModelSha256: 'x', tailShares: [0.5, 0.1, 0.01], quantiles: { '2': [0, 5, 10], '6': [-3, 8, 20] }, windowsPerSize: 1000, source: 'test' } as const;
  const table = new KinshipNull({ ...file, tailShares: [...file.tailShares], quantiles: { '2': [...file.quantiles['2']], '6': [...file.quantiles['6']] } });

  it('gives the tabulated share of the largest quantile passed, 1 up to the median', () => {
    expect(table.pValue(6, -5)).toBe(1);
    expect(table.pValue(6, 8.01)).toBe(0.1);
    expect(table.pValue(6, 19.9)).toBe(0.1);
    expect(table.pValue(6, 25)).toBe(0.01);
  });

  it('does not count a statistic equal to a quantile as beyond it: many benign windows tie there', () => {
    // Two unrelated labels seldom share a context, so most benign windows of 2 score exactly 0.
    const ties = new KinshipNull({ ...file, tailShares: [0.5, 0.1, 0.05], quantiles: { '2': [0, 0, 0] } });
    expect(ties.pValue(2, 0)).toBe(1);
    expect(ties.pValue(2, 0.01)).toBe(0.05);
    expect(table.pValue(6, 8)).toBe(0.5);
  });

  it('uses the nearest smaller tabulated size, or the smallest', () => {
    expect(table.pValue(9, 8.5)).toBe(0.1);
    expect(table.pValue(3, 8.5)).toBe(0.1);
    expect(table.pValue(1, 12)).toBe(0.01);
  });

  it('rejects a file of another format or with ragged quantiles', () => {
    expect(() => new KinshipNull({ ...file, format: 'other' } as never)).toThrow(/format/);
    expect(() => new KinshipNull({ ...file, tailShares: [0.5], quantiles: { '2': [1, 2] } } as never)).toThrow(/quantiles/);
  });

  it('ships a table for every window size the detector holds, built with the committed model', () => {
    const committed = defaultKinshipNull();
    expect(committed.fits(lm)).toBe(true);
    for (let n = 2; n <= 32; n++) {
      const q = committed.file.quantiles[n];
      expect(q).toHaveLength(committed.file.tailShares.length);
      expect([...q].sort((a, b) => a - b)).toEqual(q);
    }
    // The generated names sit far in the benign tail.
    expect(committed.pValue(10, labelKinship(generated, lm))).toBeLessThanOrEqual(0.001);
  });
});
