import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CharCnn, type CharCnnWeights } from './char-cnn';
import { DEFAULT_DGA_MODEL_PATH, DGA_CNN_MODEL_FORMAT, DgaModel, type DgaCnnModelFile } from './dga-model';

function f32(values: number[]): string {
  const b = Buffer.alloc(values.length * 4);
  values.forEach((v, i) => b.writeFloatLE(v, i * 4));
  return b.toString('base64');
}

/**
 * Alphabet `ab`, one width-2 filter: table[k][c] is 1 for `a` at offset 0, 10 for `b` at offset 1, 100 for the
 * end mark at offset 1, 0 otherwise (rows: pad, start, end, unknown, a, b); bias -0.5; one hidden unit that passes
 * the pooled filter and the single dense input through.
 */
function tinyCnn(bias = -0.5, scale = 1): CharCnn {
  const rows = (values: Record<number, number>): number[] => Array.from({ length: 6 }, (_, c) => values[c] ?? 0);
  const weights: CharCnnWeights = {
    alphabet: 'ab',
    maxLabel: 4,
    widths: [2],
    filters: 1,
    tables: f32([...rows({ 4: 1 }), ...rows({ 5: 10, 2: 100 })].map((v) => v * scale)),
    convBias: f32([bias]),
    denseInputs: 1,
    hidden: f32([1, 1]),
    hiddenBias: f32([0]),
    out: f32([1]),
    outBias: 0,
  };
  return new CharCnn(weights);
}

describe('CharCnn', () => {
  it('sums table rows over each window and takes the maximum after ReLU', () => {
    const cnn = tinyCnn();
    // ^ab$: windows ^a (0), ab (1 + 10), b$ (100) -> max 100 - 0.5; plus the dense input 2.
    expect(cnn.logit('ab', Float64Array.of(2))).toBeCloseTo(101.5, 5);
    // ^ba$: windows ^b (10), ba (0), a$ (1 + 100) -> 100.5.
    expect(cnn.logit('ba', Float64Array.of(0))).toBeCloseTo(100.5, 5);
  });

  it('cuts labels at maxLabel characters, without the end mark', () => {
    // ^aaaa (cut from aaaaab, no end mark): windows starting with a give 1 -> 0.5; uncut, a$ gives 101 -> 100.5.
    expect(tinyCnn().logit('aaaaab', Float64Array.of(0))).toBeCloseTo(0.5, 6);
    expect(tinyCnn().logit('aaaa', Float64Array.of(0))).toBeCloseTo(100.5, 5);
    // Windows wholly in the padding output the bias: with every table row zero, the bias alone.
    expect(tinyCnn(0.25, 0).logit('a', Float64Array.of(0))).toBeCloseTo(0.25, 6);
  });

  it('maps characters outside the alphabet to the unknown row', () => {
    expect(tinyCnn().logit('\u00e9\u00e9', Float64Array.of(0))).toBeCloseTo(99.5, 5);
  });

  it('rejects weights of the wrong size', () => {
    const good = (tinyCnn() as unknown as { weights: CharCnnWeights }).weights;
    expect(() => new CharCnn({ ...good, tables: f32([1, 2, 3]) })).toThrow(/cnn.tables/);
    expect(() => new CharCnn({ ...good, widths: [] })).toThrow(/widths/);
  });
});

/** The character-CNN model (tools/dga/train.ts --set kind='"cnn"'), committed beside the product's model.json. */
const CNN_MODEL_PATH = join(dirname(DEFAULT_DGA_MODEL_PATH), 'model-cnn.json');

describe('the committed CNN model against its Python trainer', () => {
  const file = JSON.parse(readFileSync(CNN_MODEL_PATH, 'utf8')) as DgaCnnModelFile;

  it('is a CNN model with reference scores and thresholds from its validation slice', () => {
    expect(file.format).toBe(DGA_CNN_MODEL_FORMAT);
    expect(file.cnn.reference?.length).toBeGreaterThan(10);
    const model = new DgaModel(file);
    expect(model.cnn).toBeDefined();
    expect(model.threshold).toBeGreaterThan(model.burstThreshold);
    expect(model.benignTail(model.threshold)).toBeLessThanOrEqual(0.0015);
  });

  it('scores the reference names as train_cnn.py did', () => {
    const model = new DgaModel(file);
    for (const { label, logit } of file.cnn.reference ?? []) {
      const p = model.scoreLabel(label);
      expect([label, Math.abs(p - 1 / (1 + Math.exp(-logit))) < 1e-5]).toEqual([label, true]);
    }
  });

  it('scores generated names above popular ones', () => {
    const model = new DgaModel(file);
    for (const label of ['tufomgucxbxqvut', 'lvwhmvsglhaydwaqhmbgqzdaq']) expect([label, model.scoreLabel(label) >= model.threshold]).toEqual([label, true]);
    for (const label of ['google', 'facebook', 'wikipedia', 'netflix']) expect([label, model.scoreLabel(label) < model.burstThreshold]).toEqual([label, true]);
  });

  it('rejects a damaged CNN model file with a clear error', () => {
    expect(() => new DgaModel({ ...file, denseMean: [1, 2] })).toThrow(/denseMean/);
    expect(() => new DgaModel({ ...file, cnn: { ...file.cnn, tables: file.cnn.convBias } })).toThrow(/cnn.tables/);
    expect(() => new DgaModel({ ...file, cnn: { ...file.cnn, widths: [3, 2] } })).toThrow(/widths/);
    expect(() => new DgaModel({ ...file, cnn: { ...file.cnn, denseInputs: 3 } })).toThrow(/cnn.hidden/);
    expect(() => new DgaModel({ ...file, threshold: 2 })).toThrow(/threshold/);
  });
});
