import { assertValidOcsfFinding } from '@vigil/testing';
import { THREAT_DICTIONARY } from '@vigil/detection-engine';
import { alertRecord, busRecord, destinationFor, findingRecord } from '../testing/records';
import { itemFromRecord } from './escalation-item';
import { syntheticItem } from './synthetic';

describe('escalation items', () => {
  it('carry the finding as stored and served, keyed by uid and revision', () => {
    const record = findingRecord('ws-1', 'uid-7', { revision: 3, severity: 2 });
    const item = itemFromRecord('ocsf', busRecord(record).value);
    expect(item).toMatchObject({ source: 'finding', workspaceId: 'ws-1', idempotencyKey: 'uid-7:3', orderingKey: 'uid-7', severity: 2, time: record.time });
    expect(JSON.parse(item.json)).toEqual(record.finding);
  });

  it('carry an alert with the definitions of its threats, as GET /v1/alerts pages do', () => {
    const record = alertRecord('ws-1', 'alert-1');
    const item = itemFromRecord('alert', busRecord(record).value);
    expect(JSON.parse(item.json)).toEqual({ alerts: [record.alert], threats: { multiple_long_hostnames: THREAT_DICTIONARY.multiple_long_hostnames } });
    expect(item.idempotencyKey).toBe('alert-1');
  });

  it('refuse what the findings store refuses', () => {
    expect(() => itemFromRecord('ocsf', Buffer.from('{"workspaceId":"w"}'))).toThrow(/recordId/);
    expect(() => itemFromRecord('alert', Buffer.from('not json'))).toThrow();
  });

  it('make a synthetic test finding that is a valid OCSF 1.2.0 Detection Finding, at the minimum severity', () => {
    const item = syntheticItem(destinationFor({ kind: 'webhook', url: 'https://x/', secret: 's'.repeat(16), headers: {}, allowHttp: false, timeoutMs: 1000 }, { minSeverity: 3 }));
    expect(item.source).toBe('finding');
    const finding = JSON.parse(item.json);
    assertValidOcsfFinding(finding);
    expect(finding.severity_id).toBe(3);
    expect(item.idempotencyKey).toBe(`${finding.finding_info.uid}:1`);
    const alert = syntheticItem(destinationFor({ kind: 'webhook', url: 'https://x/', secret: 's'.repeat(16), headers: {}, allowHttp: false, timeoutMs: 1000 }, { format: 'alert' }));
    expect(JSON.parse(alert.json).threats.escalation_test.title).toMatch(/test/);
  });
});
