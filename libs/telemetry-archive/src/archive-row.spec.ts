import { packTelemetryRecords } from '@vigil/gateway';
import { benignDnsEvents } from '@vigil/testing';
import { archiveRowOf, columnsFromHeaders, columnsFromJson } from './archive-row';

const fieldsOf = (row: Buffer[]): string[] => Buffer.concat(row).toString('utf8').replace(/\n$/, '').split('\t');

describe('archive rows', () => {
  it('takes the columns of a packed record from its key and headers, the same as its JSON states them', () => {
    const records = packTelemetryRecords('ws-a', 'dns', benignDnsEvents(40, { hosts: 5 }), Date.UTC(2026, 0, 2, 3, 4, 5, 6));
    for (const record of records) {
      expect(columnsFromHeaders(record)).toEqual(columnsFromJson(record.value));
    }
  });

  it('writes one raw TSV line: the columns, the received time as UTC text, then the record verbatim', () => {
    const [record] = packTelemetryRecords('ws-a', 'dns', benignDnsEvents(3, { hosts: 1 }), Date.UTC(2026, 0, 2, 3, 4, 5, 6), { requestId: 'r1' });
    const row = archiveRowOf(record);
    expect(Buffer.concat(row).toString('utf8').endsWith('\n')).toBe(true);
    const fields = fieldsOf(row);
    expect(fields.slice(0, 6)).toEqual(['ws-a', 'dns', JSON.parse(record.value.toString()).events[0].srcIP, 'r1.0', '2026-01-02 03:04:05.006', '3']);
    expect(fields[6]).toBe(record.value.toString('utf8'));
  });

  it('reads the columns from the JSON of a record without headers, and puts a pretty-printed record on one line', () => {
    const value = Buffer.from(JSON.stringify({ v: 1, workspaceId: 'ws-p', type: 'ip', batchId: 'p-1', receivedAt: 1000, events: [{ srcIP: '10.1.1.1' }, { srcIP: '10.1.1.2' }] }, null, '\t'));
    const fields = fieldsOf(archiveRowOf({ key: 'whatever', value }));
    expect(fields).toHaveLength(7);
    expect(fields.slice(0, 6)).toEqual(['ws-p', 'ip', '10.1.1.1', 'p-1', '1970-01-01 00:00:01.000', '2']);
    expect(JSON.parse(fields[6])).toEqual(JSON.parse(value.toString()));
  });

  it('keeps a record that is not JSON, as base64 with empty columns, and never lets a tab or newline split a row', () => {
    const value = Buffer.from('not\tjson\n');
    const fields = fieldsOf(archiveRowOf({ key: 'k', value }));
    expect(fields).toHaveLength(7);
    expect(fields.slice(0, 6)).toEqual(['', '', '', '', '1970-01-01 00:00:00.000', '0']);
    expect(Buffer.from(JSON.parse(fields[6]).unreadable, 'base64')).toEqual(value);

    const odd = archiveRowOf({ key: 'ws\tx|10.0.0.1', value: Buffer.from('{}'), headers: { type: 'dns', batchId: 'a\nb', receivedAt: '0', events: '0' } });
    expect(fieldsOf(odd)).toEqual(['ws x', 'dns', '10.0.0.1', 'a b', '1970-01-01 00:00:00.000', '0', '{}']);
  });

  it('falls back to the JSON when a header is missing or not a count', () => {
    const value = Buffer.from(JSON.stringify({ workspaceId: 'ws-j', type: 'dns', batchId: 'j', receivedAt: 5, events: [] }));
    expect(columnsFromHeaders({ key: 'ws-j|', value, headers: { type: 'dns', batchId: 'j', receivedAt: '5' } })).toBeUndefined();
    expect(columnsFromHeaders({ key: 'ws-j|', value, headers: { type: 'dns', batchId: 'j', receivedAt: 'x', events: '1' } })).toBeUndefined();
    expect(fieldsOf(archiveRowOf({ key: 'no-bar', value, headers: { type: 'dns', batchId: 'j', receivedAt: '5', events: '0' } })).slice(0, 4)).toEqual(['ws-j', 'dns', '', 'j']);
  });
});
