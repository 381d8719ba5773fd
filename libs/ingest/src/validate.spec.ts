import type { TelemetryType } from '@vigil/contracts';
import { MAX_EVENT_DEPTH, MAX_EVENT_FIELDS, MAX_EVENT_STRING_LENGTH } from './event-bounds';
import { createEventNormalizer, normalizeEvent } from './validate';

const NOW = new Date('2024-05-01T12:00:00.000Z');
const NOW_ISO = NOW.toISOString();
const TS = '2021-04-07T09:55:37Z';
const TS_ISO = '2021-04-07T09:55:37.000Z';

const accepted = (type: TelemetryType, raw: unknown) => {
  const result = normalizeEvent(type, raw, NOW);
  if (!result.ok) throw new Error(`expected acceptance, got ${result.reason}`);
  return result.event;
};
const reasonFor = (type: TelemetryType, raw: unknown) => {
  const result = normalizeEvent(type, raw, NOW);
  return result.ok ? 'accepted' : result.reason;
};

describe('normalizeEvent: accepted events (real client quirks)', () => {
  it.each<[string, TelemetryType, unknown, object]>([
    [
      'a canonical DNS event',
      'dns',
      { ts: TS, srcIP: '10.14.1.39', srcHost: 'win-3xchk5-lp', query: 'hsxfrfokdkojcj.net', qtype: 'A' },
      { ts: TS_ISO, srcIP: '10.14.1.39', srcHost: 'win-3xchk5-lp', query: 'hsxfrfokdkojcj.net', qtype: 'A' },
    ],
    [
      'old clients spelling srcIp / destIp',
      'ip',
      { ts: TS, srcIp: '10.0.0.1', destIp: '8.8.8.8', destPort: 53, proto: 'udp' },
      { ts: TS_ISO, srcIP: '10.0.0.1', destIP: '8.8.8.8', destPort: 53, proto: 'udp' },
    ],
    [
      'field names in any case',
      'dns',
      { TS: TS, SRCIP: '10.0.0.1', SrcPort: 5353, QUERY: 'Example.COM.', QType: 'aaaa' },
      { ts: TS_ISO, srcIP: '10.0.0.1', srcPort: 5353, query: 'example.com', qtype: 'AAAA' },
    ],
    [
      'unknown fields dropped',
      'dns',
      { ts: TS, query: 'a.example', rcode: 'NOERROR', answers: ['1.2.3.4'], __proto__x: 1, constructor: 'x' },
      { ts: TS_ISO, query: 'a.example' },
    ],
    [
      'zero values treated as absent',
      'http',
      { ts: TS, url: 'http://x.test/', action: '', status: 0, srcPort: 0, srcIP: '', method: '  ', referrer: null },
      { ts: TS_ISO, url: 'http://x.test/' },
    ],
    [
      'zero traffic counters kept (an unanswered flow is a measurement)',
      'ip',
      { ts: TS, srcIP: '10.0.0.5', destIP: '192.0.2.9', destPort: 0, bytesOut: '60', bytesIn: 0, packetsIn: '0', packetsOut: null },
      { ts: TS_ISO, srcIP: '10.0.0.5', destIP: '192.0.2.9', bytesOut: 60, bytesIn: 0, packetsIn: 0 },
    ],
    [
      'Go zero time as ts (receive time used)',
      'dns',
      { ts: '0001-01-01T00:00:00Z', query: 'a.example' },
      { ts: NOW_ISO, query: 'a.example' },
    ],
    ['a missing ts (receive time used)', 'dns', { query: 'a.example' }, { ts: NOW_ISO, query: 'a.example' }],
    ['epoch seconds as ts', 'dns', { ts: 1536000000, query: 'a.example' }, { ts: '2018-09-03T18:40:00.000Z', query: 'a.example' }],
    ['epoch milliseconds as ts', 'dns', { ts: 1536000000123, query: 'a.example' }, { ts: '2018-09-03T18:40:00.123Z', query: 'a.example' }],
    [
      'a ts with an offset and nanoseconds',
      'dns',
      { ts: '2018-09-03T11:39:47.123456789+02:00', query: 'a.example' },
      { ts: '2018-09-03T09:39:47.123Z', query: 'a.example' },
    ],
    [
      'numeric qtypes',
      'dns',
      { ts: TS, query: 'a.example', qtype: 16 },
      { ts: TS_ISO, query: 'a.example', qtype: 'TXT' },
    ],
    ['numeric qtype as a string', 'dns', { ts: TS, query: 'a.example', qtype: '28' }, { ts: TS_ISO, query: 'a.example', qtype: 'AAAA' }],
    [
      'digit strings for ports and counters',
      'ip',
      { ts: TS, srcPort: '51234', destPort: ' 443 ', bytesIn: '1024', packetsOut: '7', proto: 6 },
      { ts: TS_ISO, srcPort: 51234, destPort: 443, bytesIn: 1024, packetsOut: 7, proto: 'tcp' },
    ],
    [
      'numeric protocols and fractional durations',
      'ip',
      { ts: TS, proto: '17', duration: 1.25, action: 'allowed', app: 'dns' },
      { ts: TS_ISO, proto: 'udp', duration: 1.25, action: 'allowed', app: 'dns' },
    ],
    ['ICMP by number', 'ip', { ts: TS, proto: 1, duration: '2.5' }, { ts: TS_ISO, proto: 'icmp', duration: 2.5 }],
    ['upper-case protocol', 'ip', { ts: TS, proto: 'TCP' }, { ts: TS_ISO, proto: 'tcp' }],
    [
      'IPv6 addresses (lower-cased, trimmed)',
      'ip',
      { ts: TS, srcIP: ' 2001:DB8::1 ', destIP: '::ffff:10.0.0.1' },
      { ts: TS_ISO, srcIP: '2001:db8::1', destIP: '::ffff:10.0.0.1' },
    ],
    [
      'an HTTP URL without a scheme, kept as sent',
      'http',
      { ts: TS, url: 'example.com/path?q=1', method: 'get', status: '200', referer: 'http://a.test/', userAgent: 'curl/8' },
      { ts: TS_ISO, url: 'example.com/path?q=1', method: 'GET', status: 200, referrer: 'http://a.test/', userAgent: 'curl/8' },
    ],
    [
      'TLS validity dates: Go zero time dropped, offsets normalised',
      'tls',
      {
        ts: TS,
        srcIP: '10.36.86.38',
        ja3: '724dedf93fb5a3636a0f1ee8fcec8801',
        issuer: "CN=Let's Encrypt Authority X3,O=Let's Encrypt,C=US",
        subject: 'CN=topbackupintheworld.com',
        validFrom: '0001-01-01T00:00:00Z',
        validTo: '2021-06-01T00:00:00+02:00',
      },
      {
        ts: TS_ISO,
        srcIP: '10.36.86.38',
        ja3: '724dedf93fb5a3636a0f1ee8fcec8801',
        issuer: "CN=Let's Encrypt Authority X3,O=Let's Encrypt,C=US",
        subject: 'CN=topbackupintheworld.com',
        validTo: '2021-05-31T22:00:00.000Z',
      },
    ],
    [
      'a DHCP lease with a fractional duration and a string boolean',
      'lease',
      { ts: TS, srcIP: '10.0.0.7', srcMac: 'aa:bb:cc:dd:ee:ff', srcHost: 'laptop', type: 'ack', termination: 'true', duration: 86399.5 },
      { ts: TS_ISO, srcIP: '10.0.0.7', srcMac: 'aa:bb:cc:dd:ee:ff', srcHost: 'laptop', type: 'ack', termination: true, duration: 86399.5 },
    ],
    ['termination false is absent', 'lease', { ts: TS, termination: false, type: 'release' }, { ts: TS_ISO, type: 'release' }],
    [
      'the exact spelling wins over a variant',
      'dns',
      { ts: TS, srcIp: '10.0.0.1', srcIP: '10.0.0.2', SRCIP: '10.0.0.3', query: 'a.example' },
      { ts: TS_ISO, srcIP: '10.0.0.2', query: 'a.example' },
    ],
    [
      'a variant fills in for an empty exact spelling',
      'dns',
      { ts: TS, srcIP: '', srcIp: '10.0.0.1', query: 'a.example' },
      { ts: TS_ISO, srcIP: '10.0.0.1', query: 'a.example' },
    ],
  ])('%s', (_name, type, raw, expected) => {
    expect(accepted(type, raw)).toEqual(expected);
  });

  it('ignores a "__proto__" key without polluting anything', () => {
    const raw: unknown = JSON.parse('{"__proto__":{"query":"evil.example","polluted":true},"query":"a.example"}');
    const event = accepted('dns', raw);
    expect(event).toEqual({ ts: NOW_ISO, query: 'a.example' });
    expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('does not change the input object', () => {
    const raw = { srcIp: '10.0.0.1', query: 'A.EXAMPLE.' };
    accepted('dns', raw);
    expect(raw).toEqual({ srcIp: '10.0.0.1', query: 'A.EXAMPLE.' });
  });
});

describe('normalizeEvent: rejections', () => {
  it.each<[string, TelemetryType, unknown, string]>([
    ['an array', 'dns', [{ query: 'a.example' }], 'not_an_object'],
    ['a string', 'dns', 'a.example', 'not_an_object'],
    ['a number', 'ip', 42, 'not_an_object'],
    ['null', 'ip', null, 'not_an_object'],
    ['an unparseable ts', 'dns', { ts: 'yesterday', query: 'a.example' }, 'invalid_ts'],
    ['an impossible date', 'dns', { ts: '2021-02-30T00:00:00Z', query: 'a.example' }, 'invalid_ts'],
    ['a ts of the wrong type', 'dns', { ts: { seconds: 1 }, query: 'a.example' }, 'invalid_ts'],
    ['a DNS event without query', 'dns', { ts: TS, qtype: 'A' }, 'missing_query'],
    ['a DNS event with an empty query', 'dns', { ts: TS, query: '' }, 'missing_query'],
    ['a query with an empty label', 'dns', { query: 'a..example' }, 'invalid_query'],
    ['a query longer than 253', 'dns', { query: `${'a'.repeat(60)}.`.repeat(5) + 'com' }, 'invalid_query'],
    ['a label longer than 63', 'dns', { query: `${'a'.repeat(64)}.com` }, 'invalid_query'],
    ['a query that is an object', 'dns', { query: { name: 'a' } }, 'invalid_query'],
    ['an HTTP event without url', 'http', { ts: TS, method: 'GET' }, 'missing_url'],
    ['an invalid IPv4', 'dns', { query: 'a.example', srcIP: '999.1.1.1' }, 'invalid_srcIP'],
    ['a host name as srcIP', 'dns', { query: 'a.example', srcIP: 'my-laptop' }, 'invalid_srcIP'],
    ['an IPv6 zone id', 'ip', { srcIP: 'fe80::1%eth0' }, 'invalid_srcIP'],
    ['a numeric srcIP', 'ip', { srcIP: 167772161 }, 'invalid_srcIP'],
    ['an invalid destIP', 'tls', { destIP: '10.0.0' }, 'invalid_destIP'],
    ['a port above 65535', 'ip', { destPort: 70000 }, 'invalid_destPort'],
    ['a negative port', 'ip', { srcPort: -1 }, 'invalid_srcPort'],
    ['a fractional port', 'ip', { srcPort: '80.5' }, 'invalid_srcPort'],
    ['a port that is not a number', 'tls', { destPort: 'https' }, 'invalid_destPort'],
    ['a negative counter', 'ip', { bytesIn: -5 }, 'invalid_bytesIn'],
    ['a fractional counter', 'http', { url: 'x.test', bytesOut: 1.5 }, 'invalid_bytesOut'],
    ['a counter string with a sign', 'ip', { packetsIn: '-3' }, 'invalid_packetsIn'],
    ['a status of the wrong type', 'http', { url: 'x.test', status: 'OK' }, 'invalid_status'],
    ['a negative duration', 'ip', { duration: -1 }, 'invalid_duration'],
    ['an infinite duration (1e400)', 'ip', JSON.parse('{"duration":1e400}'), 'invalid_duration'],
    ['a counter beyond 2^53', 'ip', JSON.parse('{"bytesIn":12345678901234567890}'), 'invalid_bytesIn'],
    ['a duration that is not a number', 'lease', { duration: 'long' }, 'invalid_duration'],
    ['a boolean for a text field', 'http', { url: 'x.test', method: true }, 'invalid_method'],
    ['a list for a text field', 'ip', { app: ['dns'] }, 'invalid_app'],
    ['an unreadable termination flag', 'lease', { termination: 'maybe' }, 'invalid_termination'],
    ['an unparseable validTo', 'tls', { validTo: 'next year' }, 'invalid_validTo'],
    ['a number for the DNS query', 'dns', { query: 12345 }, 'invalid_query'],
    ['a number for srcID', 'dns', { query: 'a.example', srcID: 12345 }, 'invalid_srcID'],
    ['a number for the URL', 'http', { url: 42 }, 'invalid_url'],
    ['a number for a user agent', 'http', { url: 'x.test', userAgent: 5 }, 'invalid_userAgent'],
    ['a number for the lease type', 'lease', { type: 3 }, 'invalid_type'],
    ['a fractional numeric qtype', 'dns', { query: 'a.example', qtype: 1.5 }, 'invalid_qtype'],
    ['a negative numeric proto', 'ip', { proto: -6 }, 'invalid_proto'],
    ['a ts more than ten years before receipt', 'dns', { ts: '2014-04-30T23:59:59Z', query: 'a.example' }, 'ts_out_of_range'],
    ['a ts more than ten years after receipt', 'dns', { ts: '2034-05-01T12:00:00.001Z', query: 'a.example' }, 'ts_out_of_range'],
    ['an epoch ts near 1970', 'ip', { ts: 1 }, 'ts_out_of_range'],
    ['a ts in year 9999', 'ip', { ts: '9999-12-31T00:00:00Z' }, 'ts_out_of_range'],
  ])('%s -> %s', (_name, type, raw, reason) => {
    expect(reasonFor(type, raw)).toBe(reason);
  });
});

describe('normalizeEvent: documented leniency kept', () => {
  it.each<[string, TelemetryType, unknown, object]>([
    ['a ts exactly ten years before receipt', 'dns', { ts: '2014-05-01T12:00:00Z', query: 'a.example' }, { ts: '2014-05-01T12:00:00.000Z', query: 'a.example' }],
    ['a ts exactly ten years after receipt', 'dns', { ts: '2034-05-01T14:00:00+02:00', query: 'a.example' }, { ts: '2034-05-01T12:00:00.000Z', query: 'a.example' }],
    ['numeric qtype and proto named from their number', 'dns', { query: 'a.example', qtype: 255 }, { ts: NOW_ISO, query: 'a.example', qtype: 'ANY' }],
    ['zero numbers for text fields are absent', 'http', { url: 'x.test', userAgent: 0, app: 0 }, { ts: NOW_ISO, url: 'x.test' }],
    [
      'TLS validity dates far from receipt are certificate data, kept',
      'tls',
      { validFrom: '1990-01-01T00:00:00Z', validTo: '2099-12-31T23:59:59Z' },
      { ts: NOW_ISO, validFrom: '1990-01-01T00:00:00.000Z', validTo: '2099-12-31T23:59:59.000Z' },
    ],
  ])('%s', (_name, type, raw, expected) => {
    expect(accepted(type, raw)).toEqual(expected);
  });

  it('names numeric protocols', () => {
    expect(accepted('ip', { proto: 6 })).toEqual({ ts: NOW_ISO, proto: 'tcp' });
  });
});

describe('normalizeEvent: per-event bounds', () => {
  const nested = (depth: number, open: string, close: string, leaf = '1') => JSON.parse(open.repeat(depth) + leaf + close.repeat(depth));
  const withFields = (count: number) => {
    const event: Record<string, unknown> = { query: 'a.example' };
    for (let i = 1; i < count; i++) event[`extra${i}`] = 1;
    return event;
  };

  it.each<[string, TelemetryType, unknown, string]>([
    [`an event nested ${MAX_EVENT_DEPTH} deep (objects)`, 'dns', { query: 'a.example', x: nested(MAX_EVENT_DEPTH - 1, '{"a":', '}') }, 'accepted'],
    [`an event nested ${MAX_EVENT_DEPTH + 1} deep (objects)`, 'dns', { query: 'a.example', x: nested(MAX_EVENT_DEPTH, '{"a":', '}') }, 'too_deep'],
    [`an event nested ${MAX_EVENT_DEPTH} deep (arrays)`, 'dns', { query: 'a.example', x: nested(MAX_EVENT_DEPTH - 1, '[', ']') }, 'accepted'],
    [`an event nested ${MAX_EVENT_DEPTH + 1} deep (arrays)`, 'dns', { query: 'a.example', x: nested(MAX_EVENT_DEPTH, '[', ']') }, 'too_deep'],
    ['an event nested 100,000 deep', 'dns', { query: 'a.example', x: nested(100_000, '[{"a":', '}]') }, 'too_deep'],
    [`${MAX_EVENT_FIELDS} fields`, 'dns', withFields(MAX_EVENT_FIELDS), 'accepted'],
    [`${MAX_EVENT_FIELDS + 1} fields`, 'dns', withFields(MAX_EVENT_FIELDS + 1), 'too_many_fields'],
    ['fields counted in nested objects and arrays', 'dns', { query: 'a.example', x: { list: Array(MAX_EVENT_FIELDS).fill(0) } }, 'too_many_fields'],
    [`a URL of ${MAX_EVENT_STRING_LENGTH} characters`, 'http', { url: 'x.test/' + 'a'.repeat(MAX_EVENT_STRING_LENGTH - 7) }, 'accepted'],
    [`a URL of ${MAX_EVENT_STRING_LENGTH + 1} characters`, 'http', { url: 'x.test/' + 'a'.repeat(MAX_EVENT_STRING_LENGTH - 6) }, 'string_too_long'],
    ['an over-long query (the bound before the name check)', 'dns', { query: 'a'.repeat(MAX_EVENT_STRING_LENGTH + 1) }, 'string_too_long'],
    ['an over-long ts', 'dns', { ts: ' '.repeat(MAX_EVENT_STRING_LENGTH) + '2021-01-01T00:00:00Z', query: 'a.example' }, 'string_too_long'],
    ['an over-long string in an unknown field', 'dns', { query: 'a.example', note: 'x'.repeat(MAX_EVENT_STRING_LENGTH + 1) }, 'string_too_long'],
    ['an over-long string deep in an unknown field', 'dns', { query: 'a.example', x: [{ y: ['x'.repeat(MAX_EVENT_STRING_LENGTH + 1)] }] }, 'string_too_long'],
    ['an over-long field name', 'dns', { query: 'a.example', ['k'.repeat(MAX_EVENT_STRING_LENGTH + 1)]: 1 }, 'string_too_long'],
    ['depth before fields and strings', 'dns', { s: 'x'.repeat(MAX_EVENT_STRING_LENGTH + 1), ...withFields(MAX_EVENT_FIELDS + 1), x: nested(MAX_EVENT_DEPTH, '[', ']') }, 'too_deep'],
    ['fields before strings', 'dns', { s: 'x'.repeat(MAX_EVENT_STRING_LENGTH + 1), ...withFields(MAX_EVENT_FIELDS + 1) }, 'too_many_fields'],
  ])('%s -> %s', (_name, type, raw, reason) => {
    expect(reasonFor(type, raw)).toBe(reason);
  });

  it('checks the bounds the same way when the input may be reused', () => {
    const normalize = createEventNormalizer('http', NOW, { mayReuseInput: true });
    expect(normalize({ url: 'x'.repeat(MAX_EVENT_STRING_LENGTH + 1) })).toEqual({ ok: false, reason: 'string_too_long' });
    expect(normalize({ ts: TS, url: 'x.test', userAgent: 'y'.repeat(MAX_EVENT_STRING_LENGTH + 1) })).toEqual({ ok: false, reason: 'string_too_long' });
    expect(normalize({ ts: TS, url: 'x.test', srcIP: '1'.repeat(MAX_EVENT_STRING_LENGTH + 1) })).toEqual({ ok: false, reason: 'string_too_long' });
  });
});

describe('createEventNormalizer', () => {
  it('normalises like normalizeEvent with the batch receive time', () => {
    const normalize = createEventNormalizer('dns', NOW);
    const raws = [{ query: 'A.example.' }, { ts: TS, query: 'b.example', srcIp: '10.0.0.1' }, { qtype: 'A' }, 'x'];
    expect(raws.map((raw) => normalize(raw))).toEqual(raws.map((raw) => normalizeEvent('dns', raw, NOW)));
    expect(normalize({ query: 'c.example' })).toEqual({ ok: true, event: { ts: NOW_ISO, query: 'c.example' } });
  });
});
