import type { TelemetryType } from '@vigil/contracts';
import { parseTelemetryBatch } from './parse-batch';

const NOW = new Date('2024-05-01T12:00:00.000Z');
const lines = (...objects: unknown[]) => objects.map((o) => JSON.stringify(o)).join('\n') + '\n';

describe('parseTelemetryBatch', () => {
  it.each<[string, TelemetryType, string | Buffer, { received: number; accepted: number; rejected: Record<string, number>; notJson: boolean }]>([
    [
      'NDJSON of valid events',
      'dns',
      lines({ query: 'a.example' }, { query: 'b.example', qtype: 1 }, { QUERY: 'C.example.' }),
      { received: 3, accepted: 3, rejected: {}, notJson: false },
    ],
    [
      'concatenated events with a BOM and CRLF',
      'dns',
      '\uFEFF{"query":"a.example"}{"query":"b.example"}\r\n{"query":"c.example"}\r\n',
      { received: 3, accepted: 3, rejected: {}, notJson: false },
    ],
    [
      'a mix of good, malformed and invalid events',
      'dns',
      [
        '{"query":"a.example"}',
        '{"query":"b.example",,}',
        '{"qtype":"A"}',
        '{"query":"c.example","ts":"soon"}',
        '{"query":"d.example","srcIP":"300.0.0.1"}',
        '[{"query":"e.example"}, 7]',
        '{"query":"f.example"',
        '{"query":"g.example"}',
      ].join('\n'),
      {
        received: 9,
        accepted: 3,
        rejected: { invalid_json: 2, missing_query: 1, invalid_ts: 1, invalid_srcIP: 1, not_an_object: 1 },
        notJson: false,
      },
    ],
    ['a top-level array of events', 'ip', '[{"srcIP":"10.0.0.1","proto":6},{"srcIp":"10.0.0.2"}]', { received: 2, accepted: 2, rejected: {}, notJson: false }],
    ['an empty body', 'dns', '', { received: 0, accepted: 0, rejected: {}, notJson: false }],
    ['a blank body', 'dns', '\n \r\n', { received: 0, accepted: 0, rejected: {}, notJson: false }],
    ['an empty array', 'dns', '[]', { received: 0, accepted: 0, rejected: {}, notJson: false }],
    ['plain text', 'dns', 'hello', { received: 1, accepted: 0, rejected: { invalid_json: 1 }, notJson: true }],
    ['an array of numbers', 'dns', '[1,2]', { received: 2, accepted: 0, rejected: { not_an_object: 2 }, notJson: true }],
    ['a JSON string', 'http', '"http://example.com/"', { received: 1, accepted: 0, rejected: { not_an_object: 1 }, notJson: true }],
    ['truncated JSON', 'dns', '{"query":', { received: 1, accepted: 0, rejected: { invalid_json: 1 }, notJson: true }],
    [
      'objects that all fail validation (still a 200)',
      'dns',
      lines({ qtype: 'A' }, { foo: 1 }),
      { received: 2, accepted: 0, rejected: { missing_query: 2 }, notJson: false },
    ],
  ])('%s', (_name, type, body, expected) => {
    const parsed = parseTelemetryBatch(type, Buffer.isBuffer(body) ? body : Buffer.from(body), NOW);
    expect({ received: parsed.received, accepted: parsed.events.length, rejected: parsed.rejected, notJson: parsed.notJson }).toEqual(expected);
  });

  describe('per-event bounds keep the rest of the batch', () => {
    const deepObject = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    const good = '{"query":"a.example"}';
    const inEvent = (value: string) => `{"query":"deep.example","x":${value}}`;
    const manyKeys = (count: number) => '{"query":"wide.example",' + Array.from({ length: count }, (_, i) => `"k${i}":1`).join(',') + '}';
    const summary = (body: string) => {
      const parsed = parseTelemetryBatch('dns', Buffer.from(body), NOW);
      return { received: parsed.received, accepted: parsed.events.length, rejected: parsed.rejected, notJson: parsed.notJson };
    };

    it.each<[string, string, string]>([
      ['a 100k-deep object in an event (NDJSON)', [good, inEvent(deepObject(100_000)), good].join('\n'), 'too_deep'],
      ['a 100k-deep array in an event (NDJSON)', [good, inEvent(deepArray(100_000)), good].join('\n'), 'too_deep'],
      ['a 100k-deep object in an event (concatenated)', good + inEvent(deepObject(100_000)) + good, 'too_deep'],
      ['a 100k-deep array in an event (concatenated)', good + inEvent(deepArray(100_000)) + good, 'too_deep'],
      ['a 1M-deep array in an event (one 2 MB line)', [good, inEvent(deepArray(1_000_000)), good].join('\n'), 'too_deep'],
      ['a 300-deep object in an event (fast path)', [good, inEvent(deepObject(300)), good].join('\n'), 'too_deep'],
      ['a 300-deep object in an event (scanner)', good + inEvent(deepObject(300)) + good, 'too_deep'],
      ['a 100k-deep event in a top-level array', `[${good},${inEvent(deepArray(100_000))},${good}]`, 'too_deep'],
      ['a 100k-deep event in a pretty-printed top-level array', `[\n${good},\n${inEvent(deepArray(100_000))},\n${good}\n]`, 'too_deep'],
      ['an event with 600k fields (10 MB)', [good, manyKeys(600_000), good].join('\n'), 'too_many_fields'],
      ['an event with 600k fields between concatenated events', good + manyKeys(600_000) + good, 'too_many_fields'],
      ['an event with a 5 MB string', [good, `{"query":"a.example","note":"${'x'.repeat(5_000_000)}"}`, good].join('\n'), 'string_too_long'],
    ])('%s', (_name, body, reason) => {
      expect(summary(body)).toEqual({ received: 3, accepted: 2, rejected: { [reason]: 1 }, notJson: false });
    });

    it('answers per event, not with a 400, when the only event is too deep', () => {
      expect(summary(inEvent(deepObject(100_000)))).toEqual({ received: 1, accepted: 0, rejected: { too_deep: 1 }, notJson: false });
      expect(summary(inEvent(deepArray(100_000)))).toEqual({ received: 1, accepted: 0, rejected: { too_deep: 1 }, notJson: false });
    });

    it('still answers 400 for a body with no JSON object, however deep', () => {
      expect(summary(`[${deepArray(100_000)}]`)).toEqual({ received: 1, accepted: 0, rejected: { not_an_object: 1 }, notJson: true });
      expect(summary(deepArray(100_000) + ' 1')).toEqual({ received: 2, accepted: 0, rejected: { not_an_object: 2 }, notJson: true });
    });
  });

  it('returns normalised events in body order', () => {
    const body = Buffer.from(
      lines(
        { ts: '2018-09-03T11:39:47.123456789+02:00', srcIp: '10.0.0.1', query: 'A.Example.', qtype: 16 },
        { query: 'skip..me' },
        { srcIP: '10.0.0.2', query: 'b.example' },
      ),
    );
    expect(parseTelemetryBatch('dns', body, NOW).events).toEqual([
      { ts: '2018-09-03T09:39:47.123Z', srcIP: '10.0.0.1', query: 'a.example', qtype: 'TXT' },
      { ts: NOW.toISOString(), srcIP: '10.0.0.2', query: 'b.example' },
    ]);
  });

  it('handles a 65,535-event batch (the largest clients send) in well under a second', () => {
    const events = Array.from({ length: 65_535 }, (_, i) => ({
      ts: '2024-05-01T11:59:59.123456Z',
      srcIP: `10.0.${(i >> 8) & 255}.${i & 255}`,
      srcPort: 1024 + (i % 60000),
      query: `host${i}.example.com`,
      qtype: 'A',
    }));
    const started = Date.now();
    const parsed = parseTelemetryBatch('dns', Buffer.from(lines(...events)), NOW);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(parsed.received).toBe(65_535);
    expect(parsed.events).toHaveLength(65_535);
    expect(parsed.events[65_534]).toEqual({ ...events[65_534], ts: '2024-05-01T11:59:59.123Z' });
  });
});

describe('parseTelemetryBatch: the JSON text of each event, taken from the body', () => {
  const TS = '2024-05-01T11:59:59.123Z';
  const NOW_TS = NOW.toISOString();

  /** Every text given parses to its event, members in the event's order. */
  function expectTextsMatchEvents(type: TelemetryType, body: string): (string | undefined)[] {
    const parsed = parseTelemetryBatch(type, Buffer.from(body), NOW);
    expect(parsed.texts).toHaveLength(parsed.events.length);
    parsed.texts.forEach((text, i) => {
      if (text === undefined) return;
      const fromText = JSON.parse(text) as Record<string, unknown>;
      expect(fromText).toEqual(parsed.events[i]);
      expect(Object.keys(fromText)).toEqual(Object.keys(parsed.events[i]));
    });
    return parsed.texts;
  }

  it('takes the line as sent for a canonical event, and adds the receipt time to one without ts', () => {
    const texts = expectTextsMatchEvents(
      'dns',
      [
        `{"ts":"${TS}","srcIP":"10.0.0.1","query":"a.example","qtype":"A"}`,
        '{"srcIP":"10.0.0.2","query":"b.example"}',
        ' \t{"srcIP":"10.0.0.3" , "query":"c.example"}  \r',
        '{"srcIP":"10.0.0.4","query":"d\\u002eexample","query":"e.example"}',
      ].join('\n'),
    );
    expect(texts).toEqual([
      `{"ts":"${TS}","srcIP":"10.0.0.1","query":"a.example","qtype":"A"}`,
      `{"srcIP":"10.0.0.2","query":"b.example","ts":"${NOW_TS}"}`,
      `{"srcIP":"10.0.0.3" , "query":"c.example","ts":"${NOW_TS}"}`,
      `{"srcIP":"10.0.0.4","query":"d\\u002eexample","query":"e.example","ts":"${NOW_TS}"}`,
    ]);
  });

  it.each<[string, TelemetryType, string]>([
    ['a query to lower-case', 'dns', '{"srcIP":"10.0.0.1","query":"A.Example."}'],
    ['a qtype by number', 'dns', '{"srcIP":"10.0.0.1","query":"a.example","qtype":16}'],
    ['a qtype in lower case', 'dns', '{"srcIP":"10.0.0.1","query":"a.example","qtype":"txt"}'],
    ['a field spelt otherwise', 'dns', '{"srcIp":"10.0.0.1","query":"a.example"}'],
    ['an unknown field', 'dns', '{"srcIP":"10.0.0.1","query":"a.example","note":"x"}'],
    ['a zero value', 'dns', '{"srcIP":"10.0.0.1","query":"a.example","qtype":""}'],
    ['a ts with an offset', 'dns', '{"ts":"2024-05-01T13:59:59.123+02:00","srcIP":"10.0.0.1","query":"a.example"}'],
    ['a ts in epoch seconds', 'dns', '{"ts":1714564799,"srcIP":"10.0.0.1","query":"a.example"}'],
    ["Go's zero time", 'dns', '{"ts":"0001-01-01T00:00:00Z","srcIP":"10.0.0.1","query":"a.example"}'],
    ['a protocol by number', 'ip', '{"srcIP":"10.0.0.1","destIP":"192.0.2.1","proto":6}'],
    ['a protocol in upper case', 'ip', '{"srcIP":"10.0.0.1","destIP":"192.0.2.1","proto":"TCP"}'],
    ['a method in lower case', 'http', '{"srcIP":"10.0.0.1","url":"http://a.example/","method":"get"}'],
    ['a validity date with an offset', 'tls', '{"srcIP":"10.0.0.1","sni":"a.example","validTo":"2025-01-01T02:00:00+02:00"}'],
    ['an IPv6 address in upper case', 'ip', '{"srcIP":"FD00::1","destIP":"192.0.2.1"}'],
    ['a digit string for a port', 'ip', '{"srcIP":"10.0.0.1","destIP":"192.0.2.1","destPort":"443"}'],
  ])('gives no text for an event normalising changed: %s', (_name, type, line) => {
    const texts = expectTextsMatchEvents(type, line);
    expect(texts).toEqual([undefined]);
  });

  it('gives no text for events of a top-level array or of concatenated objects, but still one for the lines after them', () => {
    const texts = expectTextsMatchEvents(
      'dns',
      ['[{"srcIP":"10.0.0.1","query":"a.example"}]', '{"srcIP":"10.0.0.2","query":"b.example"}{"srcIP":"10.0.0.3","query":"c.example"}', '{"srcIP":"10.0.0.4","query":"d.example"}'].join('\n'),
    );
    expect(texts).toEqual([undefined, undefined, undefined, `{"srcIP":"10.0.0.4","query":"d.example","ts":"${NOW_TS}"}`]);
  });
});
