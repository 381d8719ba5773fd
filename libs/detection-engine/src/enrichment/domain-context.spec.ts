import { buildAlert } from '../alerts/alert-builder';
import type { DetectionHit, ObservedEvent } from '../detections/detection';
import { domainContextFlags } from './domain-context';

describe('domainContextFlags', () => {
  it('flags an abused TLD and a domain outside the rankings', () => {
    expect(domainContextFlags('cdn.qzkrvnt-update.top')).toEqual(['suspicious_tld', 'unique']);
    expect(domainContextFlags('files.rarely-seen-vendor-7731.com')).toEqual(['unique']);
  });

  it('adds nothing for popular domains, IP addresses or no name', () => {
    expect(domainContextFlags('www.google.com')).toEqual([]);
    expect(domainContextFlags('login.microsoftonline.com')).toEqual([]);
    expect(domainContextFlags('192.0.2.7')).toEqual([]);
    expect(domainContextFlags(undefined)).toEqual([]);
  });

  it('decides on the registered domain, not on a look-alike subdomain', () => {
    expect(domainContextFlags('google.com.qzkrvnt.xyz')).toEqual(['suspicious_tld', 'unique']);
  });
});

describe('alert wisdom', () => {
  const observed = {
    workspaceId: 'ws',
    batchId: 'b1',
    index: 0,
    type: 'dns',
    timeMs: 0,
    event: { srcIP: '10.0.0.5', query: 'x1.qzkrvnt-update.top' },
    endpoint: { ip: '10.0.0.5', id: '10.0.0.5' },
    hostname: 'x1.qzkrvnt-update.top',
  } as unknown as ObservedEvent;
  const hit = {
    detection: { id: 'oast_domain', threat: 'oast', severity: 3, mitreAttack: [] },
    key: 'qzkrvnt-update.top',
    wisdom: { flags: ['oast'], domain: 'qzkrvnt-update.top' },
  } as unknown as DetectionHit;

  it('carries the detection flags plus the name context', () => {
    expect(buildAlert(observed, [hit])?.alert.wisdom.flags).toEqual(['oast', 'suspicious_tld', 'unique']);
  });
});
