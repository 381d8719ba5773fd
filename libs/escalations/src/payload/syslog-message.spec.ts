import { OctetCountedDecoder, parseRfc5424 } from '../testing/syslog-receiver';
import { formatRfc5424, frameOctetCounted, syslogSeverity } from './syslog-message';

describe('RFC 5424 messages with RFC 6587 octet counting', () => {
  const fields = { facility: 16, severity: syslogSeverity(5), time: Date.UTC(2026, 4, 6, 7, 8, 9, 123), hostname: 'vigil-1', appName: 'vigil', procId: '42', msgId: 'finding', msg: '{"a":"line1\\nline2 ü"}' };

  it('writes PRI, version, timestamp and the header fields, then the message', () => {
    const parsed = parseRfc5424(formatRfc5424(fields));
    expect(parsed).toEqual({
      pri: 16 * 8 + 2,
      facility: 16,
      severity: 2,
      version: 1,
      timestamp: '2026-05-06T07:08:09.123Z',
      hostname: 'vigil-1',
      appName: 'vigil',
      procId: '42',
      msgId: 'finding',
      structuredData: '-',
      msg: fields.msg,
    });
  });

  it('maps Vigil severities onto syslog ones and cleans header fields', () => {
    expect([1, 2, 3, 4, 5].map(syslogSeverity)).toEqual([6, 5, 4, 3, 2]);
    const parsed = parseRfc5424(formatRfc5424({ ...fields, hostname: 'host with spaces', appName: '' }));
    expect(parsed.hostname).toBe('hostwithspaces');
    expect(parsed.appName).toBe('-');
    expect(() => formatRfc5424({ ...fields, facility: 24 })).toThrow(/facility/);
  });

  it('frames by byte length, so multi-byte text and newlines survive a stream split anywhere', () => {
    const frames = [formatRfc5424(fields), formatRfc5424({ ...fields, msg: 'CEF:0|Vigil|x\ny' })].map(frameOctetCounted);
    expect(frames[0].subarray(0, frames[0].indexOf(0x20)).toString()).toBe(String(formatRfc5424(fields).length));
    const stream = Buffer.concat(frames);
    for (const cut of [1, 3, 17, stream.length - 1]) {
      const decoder = new OctetCountedDecoder();
      const messages = [...decoder.push(stream.subarray(0, cut)), ...decoder.push(stream.subarray(cut))];
      expect(messages.map((m) => parseRfc5424(m).msg)).toEqual([fields.msg, 'CEF:0|Vigil|x\ny']);
    }
  });
});
