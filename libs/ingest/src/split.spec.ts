import { MAX_EVENT_DEPTH, MAX_EVENT_FIELDS } from './event-bounds';
import { isCompletelyInvalid, isOneJsonValue, MAX_FAST_PATH_FAILURES, splitJsonObjects, type SplitItem } from './split';

/** Items as plain values, with `!` standing for an `invalid_json` rejection and `!<reason>` for another. */
const split = (body: string | Buffer) =>
  [...splitJsonObjects(body)].map((item: SplitItem) => (item.ok ? item.value : item.reason === 'invalid_json' ? '!' : `!${item.reason}`));

const pretty = (...objects: object[]) => objects.map((o) => JSON.stringify(o, null, 2)).join('\n');

describe('splitJsonObjects', () => {
  it.each<[string, string, unknown[]]>([
    ['NDJSON', '{"a":1}\n{"a":2}\n', [{ a: 1 }, { a: 2 }]],
    ['NDJSON without a final newline', '{"a":1}\n{"a":2}', [{ a: 1 }, { a: 2 }]],
    ['CRLF line ends and blank lines', '{"a":1}\r\n\r\n  \n\t{"a":2}\r\n', [{ a: 1 }, { a: 2 }]],
    ['a UTF-8 BOM at the start', '\uFEFF{"a":1}\n{"a":2}', [{ a: 1 }, { a: 2 }]],
    ['a BOM before a later object (concatenated files)', '{"a":1}\n\uFEFF{"a":2}\n{"a":3}{"a":4}\uFEFF{"a":5}', [{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }, { a: 5 }]],
    ['concatenated objects', '{"a":1}{"a":2}{"a":3}', [{ a: 1 }, { a: 2 }, { a: 3 }]],
    ['concatenated objects with whitespace between', '{"a":1} \t {"a":2}\r\n {"a":3}', [{ a: 1 }, { a: 2 }, { a: 3 }]],
    ['pretty-printed objects', pretty({ a: 1, b: { c: [1, { d: 2 }] } }, { a: 2 }), [{ a: 1, b: { c: [1, { d: 2 }] } }, { a: 2 }]],
    ['pretty-printed objects written back to back', pretty({ a: 1 }) + pretty({ a: 2 }), [{ a: 1 }, { a: 2 }]],
    ['a compact object wrapped over two lines', '{"a":1,\n"b":2}\n{"a":3}', [{ a: 1, b: 2 }, { a: 3 }]],
    ['braces, quotes and backslashes inside strings', '{"a":"}{\\"x"}{"b":"\\\\"}{"c":"[\\n]"}', [{ a: '}{"x' }, { b: '\\' }, { c: '[\n]' }]],
    ['multi-byte characters', '{"q":"ü日本"}{"q":"😀"}', [{ q: 'ü日本' }, { q: '😀' }]],
    ['commas between top-level objects', '{"a":1},{"a":2} , {"a":3},\n{"a":4},\n', [{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }]],
    ['a top-level array (a batch)', '[{"a":1},{"a":2}]\n{"a":3}', [{ a: 1 }, { a: 2 }, { a: 3 }]],
    ['a pretty-printed top-level array', JSON.stringify([{ a: 1 }, { a: 2 }], null, 2), [{ a: 1 }, { a: 2 }]],
    ['an array with elements on their own lines', '[{"a":1},\n{"a":2},\n{"a":3}]', [{ a: 1 }, { a: 2 }, { a: 3 }]],
    ['a top-level scalar alone on its line', '123\n"x"\nnull\n{"a":1}', [123, 'x', null, { a: 1 }]],
    ['top-level scalars between objects', '{"a":1} -1.5e3 "x" true{"b":2}', [{ a: 1 }, -1500, 'x', true, { b: 2 }]],
    ['an empty array', '[]', []],
    ['an empty body', '', []],
    ['a blank body', ' \r\n\t\n', []],
  ])('reads %s', (_name, body, expected) => {
    expect(split(body)).toEqual(expected);
  });

  it.each<[string, string, unknown[]]>([
    ['a malformed NDJSON line (one rejection, the next lines survive)', '{"a":1}\n{"a":2,,}\n{"a":3}', [{ a: 1 }, '!', { a: 3 }]],
    ['a truncated NDJSON line (unterminated string)', '{"a":"trunc\n{"a":3}\n', ['!', { a: 3 }]],
    ['a truncated NDJSON line ending inside an array', '{"a":[1,\n{"b":2}\n{"c":3}', ['!', { b: 2 }, { c: 3 }]],
    ['a truncated NDJSON line ending inside an object', '{"a":{"x":\n{"b":2}', ['!', { b: 2 }]],
    ['a line of text', 'hello\n{"a":1}', ['!', { a: 1 }]],
    ['a truncated object followed by another (concatenated)', '{"a":1{"b":2}{"c":3}', ['!', { b: 2 }, { c: 3 }]],
    ['a stray closing brace', '{"a":1}}{"b":2}', [{ a: 1 }, '!', { b: 2 }]],
    ['a mismatched closer', '{"a":[1}{"b":2}', ['!', { b: 2 }]],
    ['a raw tab inside a string', '{"a":"x\ty"}{"b":1}', ['!', { b: 1 }]],
    ['an invalid token', '{"a":NaN}{"b":1}\n{"c":1}', ['!', { b: 1 }, { c: 1 }]],
    ['a trailing comma', '{"a":1,}{"b":1}', ['!', { b: 1 }]],
    ['a bad escape', '{"a":"\\x"}{"b":1}', ['!', { b: 1 }]],
    ['a bad unicode escape', '{"a":"\\u12G4"}{"b":1}', ['!', { b: 1 }]],
    ['a bad number', '{"a":01}{"b":1}{"c":1.}{"d":-}{"e":1e}', ['!', { b: 1 }, '!', '!', '!']],
    ['a missing colon', '{"a" 1}{"b":1}', ['!', { b: 1 }]],
    ['an unquoted key', '{a:1}{"b":1}', ['!', { b: 1 }]],
    ['a truncated last object', '{"a":1}\n{"b":', [{ a: 1 }, '!']],
    ['a truncated pretty-printed object', '{\n  "a": 1,\n  "b": \n', ['!']],
    ['garbage after an object on the same line', '{"a":1} trailing words\n{"b":2}', [{ a: 1 }, '!', { b: 2 }]],
    ['a broken object whose nested objects must not become events', '{"a":"x\ty", "n": {"x":1}}\n{"b":2}', ['!', { b: 2 }]],
    ['a truncated value nested deeper than the event bound', '{"a":' + '['.repeat(5000) + '\n{"b":1}', ['!', { b: 1 }]],
  ])('recovers from %s', (_name, body, expected) => {
    expect(split(body)).toEqual(expected);
  });

  describe(`values nested deeper than ${MAX_EVENT_DEPTH} (the event bound)`, () => {
    const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const objects = (depth: number) => '{"a":'.repeat(depth) + 'null' + '}'.repeat(depth);
    const atBound = JSON.parse(objects(MAX_EVENT_DEPTH));

    it.each<[string, string, unknown[]]>([
      ['an object at the bound, concatenated', objects(MAX_EVENT_DEPTH) + '{"b":1}', [atBound, { b: 1 }]],
      ['an object one level over, concatenated', objects(MAX_EVENT_DEPTH + 1) + '{"b":1}', ['!too_deep', { b: 1 }]],
      ['an object 100k deep, concatenated', objects(100_000) + '{"b":1}', ['!too_deep', { b: 1 }]],
      ['an event holding arrays 100k deep, concatenated', `{"a":${arrays(100_000)}}{"b":1}`, ['!too_deep', { b: 1 }]],
      ['an event holding arrays 200k deep on its own line (scanner)', `{"a":${arrays(200_000)}}\n{"b":1}`, ['!too_deep', { b: 1 }]],
      ['a pretty-printed deep event', `{\n"a":\n${arrays(1000)}\n}\n{"b":1}`, ['!too_deep', { b: 1 }]],
      ['arrays 100k deep, concatenated (not an object)', arrays(100_000) + '{"b":1}', ['!not_an_object', { b: 1 }]],
      ['a top-level array: each element measured on its own', `[{"a":1},{"a":${arrays(500)}},[${arrays(500)}],7]{"b":1}`, [{ a: 1 }, '!too_deep', '!not_an_object', 7, { b: 1 }]],
      ['a top-level array at the bound, concatenated', `[${objects(MAX_EVENT_DEPTH)}]{"b":1}`, [atBound, { b: 1 }]],
    ])('%s', (_name, body, expected) => {
      expect(split(body)).toEqual(expected);
    });

    it.each<[string, number, unknown]>([
      ['an object of MAX_EVENT_FIELDS members', MAX_EVENT_FIELDS, 'parsed'],
      ['an object of MAX_EVENT_FIELDS + 1 members', MAX_EVENT_FIELDS + 1, '!too_many_fields'],
    ])('counts fields in the scanner: %s', (_name, count, expected) => {
      const object = Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, i]));
      const [first, second] = split(JSON.stringify(object) + '{"b":1}');
      expect(first).toEqual(expected === 'parsed' ? object : expected);
      expect(second).toEqual({ b: 1 });
    });

    it('counts nested members and array elements as fields, as the normaliser does', () => {
      const list = Array.from({ length: MAX_EVENT_FIELDS - 2 }, (_, i) => i);
      expect(split(JSON.stringify({ a: { b: list } }) + '{"c":1}')).toEqual([{ a: { b: list } }, { c: 1 }]);
      expect(split(JSON.stringify({ a: { b: [...list, 0] } }) + '{"c":1}')).toEqual(['!too_many_fields', { c: 1 }]);
      expect(split(JSON.stringify({ a: [[], {}] }) + '{"c":1}')).toEqual([{ a: [[], {}] }, { c: 1 }]);
    });

    it('refuses a 600k-field object without parsing it, in well under a second', () => {
      const wide = '{' + Array.from({ length: 600_000 }, (_, i) => `"k${i}":1`).join(',') + '}';
      const started = Date.now();
      expect(split(`{"a":1}\n${wide}\n{"b":2}`)).toEqual([{ a: 1 }, '!too_many_fields', { b: 2 }]);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('hands shallower values over to the normaliser on the fast path (it applies the same bound)', () => {
      expect(split(`{"a":${arrays(1000)}}\n{"b":1}`)).toEqual([{ a: JSON.parse(arrays(1000)) }, { b: 1 }]);
    });

    it('reads 5 M levels of nesting (a whole 10 MB body) in linear time and bounded memory', () => {
      const started = Date.now();
      expect(split('{"a":' + arrays(5_000_000) + '}')).toEqual(['!too_deep']);
      expect(Date.now() - started).toBeLessThan(5000);
    });
  });

  it('decodes a Buffer as UTF-8 and skips its BOM', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"q":"ü"}\n{"q":"b"}', 'utf8')]);
    expect(split(body)).toEqual([{ q: 'ü' }, { q: 'b' }]);
  });

  describe('a Buffer body, decoded a block of lines at a time, gives what its whole text gives', () => {
    const WORDS = ['a', 'ü', '日本', '😀', 'x'.repeat(40), 'é'.repeat(7)];
    /** NDJSON of `count` objects with multi-byte characters, so that block ends fall beside them. */
    const ndjson = (count: number, seed: number) =>
      Array.from({ length: count }, (_, i) => JSON.stringify({ i, q: WORDS[(i * 7 + seed) % WORDS.length].repeat(1 + ((i * 13 + seed) % 9)) })).join('\n');
    const bothWays = (body: Buffer) => expect([...splitJsonObjects(body)]).toEqual([...splitJsonObjects(body.toString('utf8'))]);

    it.each<[string, () => Buffer]>([
      ['NDJSON of many blocks', () => Buffer.from(ndjson(6_000, 1) + '\n')],
      ['with a BOM and CRLF line ends', () => Buffer.from('\uFEFF' + ndjson(4_000, 2).split('\n').join('\r\n'))],
      ['a broken line in a later block, then pretty-printed and concatenated objects', () =>
        Buffer.from([ndjson(3_000, 3), '{"broken":', pretty({ a: 1 }, { b: [2] }), '{"c":3}{"d":4}', ndjson(3_000, 4)].join('\n'))],
      ['a line longer than a block', () => Buffer.from([ndjson(500, 5), JSON.stringify({ long: 'y'.repeat(100_000) }), ndjson(500, 6)].join('\n'))],
      ['a line longer than the fast path takes', () => Buffer.from([ndjson(500, 7), JSON.stringify({ long: 'z'.repeat(300_000) }), ndjson(500, 8)].join('\n'))],
      ['an object spanning a block end', () => Buffer.from([ndjson(1_000, 9), pretty(...Array.from({ length: 2_000 }, (_, i) => ({ i }))), ndjson(1_000, 10)].join('\n'))],
      ['invalid UTF-8 before line ends', () =>
        Buffer.concat(Array.from({ length: 5_000 }, (_, i) => Buffer.concat([Buffer.from(`{"i":${i},"q":"`), Buffer.from([0xc3, 0xe6, 0x97]).subarray(0, 1 + (i % 3)), Buffer.from(i % 5 === 0 ? '\n' : '"}\n')])))],
    ])('%s', (_name, build) => {
      const body = build();
      expect(body.length).toBeGreaterThan(64 * 1024);
      bothWays(body);
    });
  });

  it('splits 10,000 concatenated objects without a newline the same as NDJSON', () => {
    const objects = Array.from({ length: 10_000 }, (_, i) => ({ query: `host${i}.example.com`, n: i, s: '{"}' }));
    const concatenated = objects.map((o) => JSON.stringify(o)).join('');
    const ndjson = objects.map((o) => JSON.stringify(o)).join('\n');
    expect(split(concatenated)).toEqual(objects);
    expect(split(ndjson)).toEqual(objects);
  });

  it.each<[string, () => string, number]>([
    ['one 10 MB line of unclosed objects', () => '{"a":'.repeat(2_000_000), 0],
    ['2 M lines each opening an object', () => '{\n'.repeat(2_000_000), 0],
    ['1 M truncated NDJSON lines', () => '{"a":1\n'.repeat(1_000_000), 0],
    ['1 M lines opening arrays', () => '{"a":[\n'.repeat(1_000_000), 0],
    ['10 MB of unterminated strings', () => '{"a":"'.repeat(1_700_000), 0],
    ['500 k broken lines between 500 k good ones', () => '{}\n{,}\n'.repeat(500_000), 500_000],
  ])('stays linear on hostile input: %s', (_name, build, expectedObjects) => {
    // As a Buffer: decoded in blocks until the first line the fast path cannot take.
    const body = Buffer.from(build());
    const started = Date.now();
    let rejected = 0;
    let objects = 0;
    for (const item of splitJsonObjects(body)) {
      if (item.ok) objects++;
      else rejected++;
    }
    expect(Date.now() - started).toBeLessThan(5000);
    expect(rejected).toBeGreaterThan(0);
    expect(objects).toBe(expectedObjects);
  });
});

describe('isCompletelyInvalid', () => {
  it.each<[string, boolean]>([
    ['hello', true],
    ['[1,2]', true],
    ['123', true],
    ['"just a string"', true],
    ['{"a":', true],
    ['', false],
    [' \n ', false],
    ['[]', false],
    ['{}', false],
    ['{"a":1}', false],
    ['garbage\n{"query":"x"}', false],
    ['[1,{"a":1}]', false],
  ])('%j -> %s', (body, expected) => {
    expect(isCompletelyInvalid(body)).toBe(expected);
  });
});

/** Small deterministic PRNG (mulberry32) so that a failing fuzz case can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * (depth > 3 ? 5 : 7));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return rand() < 0.5;
    case 2:
      return [0, -1, 1.5, -0.25e-7, 1e21, 123456789, Math.floor(rand() * 1e6)][Math.floor(rand() * 7)];
    case 3:
    case 4:
      return ['', 'a"b', 'back\\slash', 'tab\tnew\nline', 'ü日本😀', '\u0001', '{[]}', '/'][Math.floor(rand() * 8)];
    case 5:
      return Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(rand, depth + 1));
    default: {
      const obj: Record<string, unknown> = {};
      for (let i = Math.floor(rand() * 4); i > 0; i--) obj[`k${Math.floor(rand() * 10)}`] = randomValue(rand, depth + 1);
      return obj;
    }
  }
}

const MUTATION_ALPHABET = '{}[]",:\\ 0123456789-+.eEtruefalsnu\n\tA/';

function mutate(text: string, rand: () => number): string {
  let out = text;
  for (let edits = 1 + Math.floor(rand() * 3); edits > 0; edits--) {
    const at = Math.floor(rand() * (out.length + 1));
    const ch = MUTATION_ALPHABET[Math.floor(rand() * MUTATION_ALPHABET.length)];
    const op = rand();
    if (op < 0.34) out = out.slice(0, at) + ch + out.slice(at);
    else if (op < 0.67) out = out.slice(0, at) + out.slice(at + 1);
    else out = out.slice(0, at) + ch + out.slice(at + 1);
  }
  return out;
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe('the scanner grammar check (fuzzed against JSON.parse)', () => {
  it('agrees with JSON.parse on 20,000 valid and mutated values', () => {
    const rand = prng(20240917);
    const disagreements: string[] = [];
    for (let n = 0; n < 20_000; n++) {
      const valid = JSON.stringify(randomValue(rand));
      const text = rand() < 0.3 ? valid : mutate(valid, rand);
      if (isOneJsonValue(text) !== parses(text)) disagreements.push(text);
    }
    expect(disagreements).toEqual([]);
  });

  it('yields the same items from the scanner as from JSON.parse for concatenated random objects', () => {
    const rand = prng(7);
    const objects = Array.from({ length: 2000 }, () => ({ v: randomValue(rand) }));
    const separators = ['', ' ', '\n', '\r\n', '\t', '\n\n '];
    const body = objects.map((o) => JSON.stringify(o) + separators[Math.floor(rand() * separators.length)]).join('');
    expect(split(body)).toEqual(objects);
  });

  it('reads good lines the same once the fast path has given up', () => {
    const broken = Array.from({ length: MAX_FAST_PATH_FAILURES + 1 }, () => '{"broken":}').join('\n');
    const good = Array.from({ length: 100 }, (_, i) => ({ i, s: 'x{y}"z' }));
    const items = split(broken + '\n' + good.map((o) => JSON.stringify(o)).join('\n'));
    expect(items.slice(0, MAX_FAST_PATH_FAILURES + 1).every((item) => item === '!')).toBe(true);
    expect(items.slice(MAX_FAST_PATH_FAILURES + 1)).toEqual(good);
  });
});
