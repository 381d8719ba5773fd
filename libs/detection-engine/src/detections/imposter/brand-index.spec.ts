import { BrandIndex, isTypingSlip, typingSlips } from './brand-index';

describe('BrandIndex', () => {
  const index = new BrandIndex(['paypal', 'google', 'microsoft', 'amazon', 'apple', 'example', 'ok']);

  it.each([
    ['paypa1', 'paypal', 'homoglyph'],
    ['rnicrosoft', 'microsoft', 'homoglyph'],
    ['g0ogle', 'google', 'homoglyph'],
    ['goofle', 'google', 'bitsquat'],
    ['paypall', 'paypal', 'typosquat'],
    ['amzon', 'amazon', 'typosquat'],
    ['gogole', 'google', 'typosquat'],
    ['micrsoft', 'microsoft', 'typosquat'],
    ['paypal-secure-login', 'paypal', 'combosquat'],
    ['account-microsoft', 'microsoft', 'combosquat'],
  ])('%s imitates %s (%s)', (label, brand, technique) => {
    expect(index.match(label)).toMatchObject({ brand, technique });
  });

  it.each(['paypal', 'wikipedia', 'applesauce', 'googleplex', 'amazing', 'ok1', 'appl', 'micro-soft-x', 'tunnel-example', 'google-fan-club'])('%s is not an imposter', (label) => {
    expect(index.match(label)).toBeUndefined();
  });

  it('skips brands too short to have few innocent neighbours', () => {
    expect(index.size).toBe(6);
    expect(index.match('0k')).toBeUndefined();
  });
});

describe('isTypingSlip', () => {
  it.each([
    ['goole', 'google', true], // an inner letter left out
    ['gooogle', 'google', true], // a letter doubled
    ['wlamart', 'walmart', true], // neighbours swapped
    ['offixe', 'office', true], // a neighbouring key (c/x)
    ['dfinity', 'xfinity', true], // a neighbouring key across rows (x/d)
    ['oogle', 'google', false], // the first letter left out
    ['intui', 'intuit', false], // the last letter left out
    ['tawitter', 'twitter', false], // a letter added that doubles nothing
    ['stripo', 'stripe', false], // a key far from the one replaced
    ['pcloud', 'icloud', false],
  ])('%s from %s: %s', (label, brand, slip) => {
    expect(isTypingSlip(label, brand)).toBe(slip);
  });

  it('is reported with one-edit matches', () => {
    const index = new BrandIndex(['google', 'walmart']);
    expect(index.match('goole')).toMatchObject({ brand: 'google', technique: 'typosquat', typingSlip: true });
    expect(index.match('goqgle')).toMatchObject({ brand: 'google', technique: 'typosquat', typingSlip: false });
  });
});

describe('five-character brands', () => {
  const index = new BrandIndex(['yahoo', 'slack']);

  it('are matched by one flipped bit or a slip of the fingers only: other edits of so short a label hit too many innocent names', () => {
    expect(index.match('yahgo')).toMatchObject({ brand: 'yahoo', technique: 'bitsquat' });
    expect(index.match('slack')).toBeUndefined();
    for (const label of ['yahop', 'yhaoo', 'yahooo', 'yaho', 'slavk']) {
      expect({ label, match: index.match(label) }).toEqual({ label, match: expect.objectContaining({ technique: 'typosquat', typingSlip: true }) });
    }
    // a far key, a first letter left out, a letter added that doubles nothing, letters shuffled
    for (const label of ['yahxo', 'ahoo', 'slackq', 'sklac']) expect({ label, match: index.match(label) }).toEqual({ label, match: undefined });
  });

  it('lists the slips of the fingers of a label, each one edit from it', () => {
    const slips = typingSlips('yahoo');
    expect(slips).toEqual(expect.arrayContaining(['tahoo', 'ayhoo', 'yyahoo', 'yaho', 'yahop']));
    expect(slips).not.toContain('yahoo');
    expect(slips).not.toContain('ahoo');
    for (const slip of slips) expect({ slip, isSlip: isTypingSlip(slip, 'yahoo') }).toEqual({ slip, isSlip: true });
  });
});
