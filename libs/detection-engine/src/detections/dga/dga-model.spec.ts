import { readFileSync } from 'node:fs';
import { DATA_DIR, benignNames } from '../../testing/fixtures';
import { DEFAULT_DGA_MODEL_PATH, DgaModel, type DgaModelFile } from './dga-model';
import { CharLanguageModel } from './char-language-model';
import { assessDga, defaultDgaModel, dgaScore } from './dga-score';
import { DENSE_FEATURE_COUNT, denseFeatures, labelTokens } from './label-features';
import { registrableLabel } from './registrable-label';

const model = defaultDgaModel();

/** The token network's forward pass as written down, straight from the model file (no pairwise terms). */
function referenceScore(file: DgaModelFile, label: string): number {
  const lm = (base64: string) => new CharLanguageModel(new Uint8Array(Buffer.from(base64, 'base64')));
  const dense = denseFeatures(label, lm(file.languageModel), lm(file.dgaLanguageModel), model.words);
  const tokenWeights = new Int16Array(new Uint8Array(Buffer.from(file.tokenWeights, 'base64')).buffer);
  const embeddings = new Int8Array(new Uint8Array(Buffer.from(file.embeddings, 'base64')).buffer);
  const x: number[] = [];
  let z = file.bias;
  for (let i = 0; i < DENSE_FEATURE_COUNT; i++) {
    x.push((dense[i] - file.denseMean[i]) / file.denseScale[i]);
    z += file.denseWeights[i] * x[i];
  }
  const { buckets, count } = labelTokens(label, file.tokens);
  const embedding = new Array<number>(file.embeddingDim).fill(0);
  let linear = 0;
  for (let t = 0; t < count; t++) {
    linear += tokenWeights[buckets[t]];
    for (let k = 0; k < file.embeddingDim; k++) embedding[k] += embeddings[buckets[t] * file.embeddingDim + k];
  }
  const norm = 1 / Math.sqrt(count);
  z += linear * file.tokenWeightScale * norm;
  for (const value of embedding) x.push(value * (file.embeddingScale * norm));
  file.hiddenIn.forEach((row, h) => {
    const a = row.reduce((sum, w, i) => sum + w * x[i], file.hiddenBias[h]);
    if (a > 0) z += file.hiddenOut[h] * a;
  });
  return 1 / (1 + Math.exp(-z));
}

function dgaList(family: string): string[] {
  return readFileSync(`${DATA_DIR}/dga/train/${family}.txt`, 'utf8').split('\n').filter(Boolean);
}

describe('registrableLabel', () => {
  it('takes the first label of the registered domain (private suffixes included)', () => {
    expect(registrableLabel('www.Example.co.uk.')).toEqual({ domain: 'example.co.uk', label: 'example' });
    expect(registrableLabel('abc123.duckdns.org')).toEqual({ domain: 'abc123.duckdns.org', label: 'abc123' });
    expect(registrableLabel('a.b.c.tufomgucxbxqvut.net')?.label).toBe('tufomgucxbxqvut');
    expect(registrableLabel('ac.jp')).toEqual({ domain: 'ac.jp', label: 'ac' });
  });

  it('gives nothing for IPs, single labels and junk', () => {
    for (const name of ['10.0.0.1', '::1', 'localhost', '', 'a b.com', 'ex!ample.com']) expect(registrableLabel(name)).toBeUndefined();
    expect(dgaScore('10.0.0.1')).toBeUndefined();
  });
});

describe('DGA model', () => {
  it('loads the committed model with thresholds from its validation split', () => {
    expect(model.threshold).toBeGreaterThan(0.5);
    expect(model.burstThreshold).toBeLessThan(model.threshold);
    expect(model.file.thresholdFpr).toBe(0.001);
  });

  // The thresholds are set on the deep-tail validation labels (no top-10k domain among them), where random-looking
  // names are common: shorter generated labels clear the burst threshold (1 % FPR) rather than the 0.1 % one.
  it('scores known DGA names high', () => {
    const names = [
      'tufomgucxbxqvut.com', // cryptolocker
      'lvwhmvsglhaydwaqhmbgqzdaq.ru', // goz
      'm6ygbj19iv5ki5fmz1lwm6njw.biz', // newgoz
      'abqwsgyfeypkfovgqcnrgwjbd.com', // murofet
    ];
    for (const name of names) expect([name, dgaScore(name)! >= model.threshold]).toEqual([name, true]);
    for (const name of ['7f2a37fc6c4f0.tickets', 'xodvtjug3oa3qxx.com']) expect([name, dgaScore(name)! >= model.burstThreshold]).toEqual([name, true]);
  });

  it('scores popular names low', () => {
    const names = ['google.com', 'facebook.com', 'wikipedia.org', 'microsoft.com', 'stackoverflow.com', 'bbc.co.uk', 'netflix.com', 'github.io'];
    for (const name of names) expect([name, dgaScore(name)! < model.burstThreshold]).toEqual([name, true]);
  });

  it('catches most of random-string families and flags under 0.5 % of the Tranco top 10k', () => {
    for (const family of ['goz', 'newgoz', 'murofet']) {
      const names = dgaList(family).slice(0, 2000);
      const caught = names.filter((n) => dgaScore(n)! >= model.threshold).length;
      expect([family, caught / names.length > 0.8]).toEqual([family, true]);
    }
    const cryptolocker = dgaList('cryptolocker').slice(0, 2000);
    expect(cryptolocker.filter((n) => dgaScore(n)! >= model.burstThreshold).length / cryptolocker.length).toBeGreaterThan(0.9);
    const tranco = benignNames('tranco10k.txt');
    const flagged = tranco.filter((n) => (dgaScore(n) ?? 0) >= model.threshold);
    expect(flagged.length / tranco.length).toBeLessThan(0.005);
  });

  it('does not let the TLD decide: the label scores the same under any suffix', () => {
    const scores = ['.com', '.biz', '.top', '.ru', '.co.uk', '.duckdns.org'].map((tld) => dgaScore(`kdpejqcwzb${tld}`));
    expect(new Set(scores).size).toBe(1);
    expect(dgaScore('google.biz')).toBe(dgaScore('google.com'));
  });

  it('explains a name with its thresholds and popularity', () => {
    expect(assessDga('mail.google.com')).toMatchObject({
      domain: 'google.com',
      label: 'google',
      score: dgaScore('google.com'),
      threshold: model.threshold,
      burstThreshold: model.burstThreshold,
      popularity: 'top1k',
      aboveThreshold: false,
    });
    expect(assessDga('d1a2b3c4d5e6f7.cloudfront.net')).toMatchObject({ providerZone: 'cloudfront.net', aboveThreshold: false });
    // AWS assigns these ids; scored alone they look generated (at least a burst-level score).
    for (const [name, zone] of [
      ['q7xk2lzv9pw3mfh0tnb8ycr4ude6sj1a.lambda-url.eu-west-1.on.aws', 'on.aws'],
      ['a3f9c27d1e8b04a65.awsglobalaccelerator.com', 'awsglobalaccelerator.com'],
    ]) {
      const assessment = assessDga(name)!;
      expect(assessment.score).toBeGreaterThanOrEqual(model.burstThreshold);
      expect(assessment).toMatchObject({ providerZone: zone, aboveThreshold: false });
    }
    expect(assessDga('www.headmarch.net')!.words).toEqual(['head', 'march']);
  });

  it('tells how unusual a score is for a benign name', () => {
    expect(model.benignTail(0)).toBe(1);
    expect(model.benignTail(model.threshold)).toBeLessThanOrEqual(0.0015);
    expect(model.benignTail(model.burstThreshold)).toBeLessThanOrEqual(0.012);
    expect(model.benignTail(1)).toBeGreaterThan(0);
    expect(model.benignTail(0.5)).toBeGreaterThan(model.benignTail(0.9));
  });

  it('scores a label exactly as the forward pass written down from the model file', () => {
    const file = model.file as DgaModelFile;
    expect(file.pairWeights.every((w) => w === 0)).toBe(true);
    const labels = [...dgaList('cryptolocker').slice(0, 150), ...dgaList('rovnix').slice(0, 150), ...benignNames('tranco10k.txt').slice(0, 200)]
      .map((name) => registrableLabel(name)?.label)
      .filter((label): label is string => label !== undefined);
    expect(labels.length).toBeGreaterThan(400);
    for (const label of labels) expect([label, model.scoreLabel(label)]).toEqual([label, referenceScore(file, label)]);
  });

  it('rejects a damaged model file with a clear error', () => {
    const file = JSON.parse(readFileSync(DEFAULT_DGA_MODEL_PATH, 'utf8')) as DgaModelFile;
    expect(() => new DgaModel({ ...file, format: 'other' } as unknown as DgaModelFile)).toThrow(/unknown format/);
    expect(() => new DgaModel({ ...file, denseWeights: [1, 2] })).toThrow(/denseWeights/);
    expect(() => new DgaModel({ ...file, tokens: { ...file.tokens, buckets: 7 } })).toThrow(/power of two/);
    expect(() => new DgaModel({ ...file, tokens: { ...file.tokens, buckets: file.tokens.buckets * 2 } })).toThrow(/tokenWeights size/);
    expect(() => new DgaModel({ ...file, embeddingDim: file.embeddingDim + 1 })).toThrow(/embeddings size/);
    expect(() => new DgaModel({ ...file, hiddenIn: file.hiddenIn.slice(1) })).toThrow(/hiddenIn/);
    expect(() => new DgaModel({ ...file, threshold: 2 })).toThrow(/threshold/);
    expect(() => new DgaModel({ ...file, benignProfile: { ...file.benignProfile, lengths: [1] } })).toThrow(/lengths/);
    expect(() => new DgaModel({ ...file, wordListSha256: 'other' })).toThrow(/another word list/);
    expect(() => DgaModel.load('/nonexistent/model.json')).toThrow(/cannot read/);
  });
});
