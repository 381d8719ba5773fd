import { THREAT_DICTIONARY } from '@vigil/detection-engine';
import { cefForItem, escapeCefExtension, escapeCefHeader } from './cef';
import { itemFromRecord } from './escalation-item';
import { alertRecord, busRecord, findingRecord } from '../testing/records';

/** Splits a CEF line into its 7 header fields and its extension map, honouring the escapes. */
function parseCef(line: string): { header: string[]; extensions: Record<string, string> } {
  const header: string[] = [];
  let field = '';
  let i = 0;
  for (; header.length < 7; i++) {
    const c = line[i];
    if (c === '\\') field += line[++i];
    else if (c === '|') {
      header.push(field);
      field = '';
    } else field += c;
  }
  const extensions: Record<string, string> = {};
  const rest = line.slice(i);
  // key=value pairs: a key starts after a space and runs to an unescaped '='.
  const pattern = /(?:^| )([A-Za-z0-9]+)=((?:\\.|[^\\=])*?)(?= [A-Za-z0-9]+=|$)/g;
  for (const match of rest.matchAll(pattern)) extensions[match[1]] = match[2].replace(/\\n/g, '\n').replace(/\\r/g, '\r').replace(/\\(.)/g, '$1');
  return { header, extensions };
}

describe('CEF', () => {
  it('escapes header fields (pipe, backslash, newlines) and extension values (equals, backslash, newlines)', () => {
    expect(escapeCefHeader('a|b\\c\nd')).toBe('a\\|b\\\\c d');
    expect(escapeCefExtension('k=v\\w\r\nx|y')).toBe('k\\=v\\\\w\\nx|y');
  });

  it('maps a finding to the CEF header and extensions', () => {
    const record = findingRecord('ws-9', 'f-1', { revision: 2, severity: 5, time: Date.UTC(2026, 0, 2, 3, 4, 5) });
    const line = cefForItem(itemFromRecord('ocsf', busRecord(record).value));
    expect(line.startsWith('CEF:0|Vigil|Vigil|')).toBe(true);
    const { header, extensions } = parseCef(line);
    expect(header.slice(4)).toEqual(['dns_tunnel', 'DNS tunnelling to tunnel.example', '10']);
    expect(extensions).toMatchObject({
      rt: String(Date.UTC(2026, 0, 2, 3, 4, 5)),
      externalId: 'f-1:2',
      src: '10.0.0.5',
      shost: 'wks-5',
      dst: '198.51.100.53',
      dpt: '53',
      dhost: 'a1b2.tunnel.example',
      msg: 'DNS tunnelling | exfil=yes\\path',
      cnt: '3',
      cs1Label: 'workspaceId',
      cs1: 'ws-9',
      cs2: 'f-1',
      cs3: 'T1071.004',
      act: 'Update',
    });
    // The raw line escapes '=' and '\' inside the message value.
    expect(line).toContain('msg=DNS tunnelling | exfil\\=yes\\\\path');
  });

  it('maps a legacy alert with its threat titles', () => {
    const line = cefForItem(itemFromRecord('alert', busRecord(alertRecord('ws-9', 'a-1', 3)).value));
    const { header, extensions } = parseCef(line);
    expect(header[4]).toBe('multiple_long_hostnames');
    expect(header[5]).toBe(THREAT_DICTIONARY.multiple_long_hostnames.title);
    expect(header[6]).toBe('5');
    expect(extensions).toMatchObject({ externalId: 'a-1', src: '10.0.0.7', dhost: 'x.tunnel.example', cs5: 'multiple_long_hostnames', cs6: 'tunnel', cat: 'dns' });
  });
});
