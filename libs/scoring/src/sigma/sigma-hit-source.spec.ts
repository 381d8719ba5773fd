import { readFileSync } from 'node:fs';
import type { CustomerRule, FindingRecord, TelemetryBatch, WorkspaceRuleSet } from '@vigil/contracts';
import { DetectionEngine } from '@vigil/detection-engine';
import { assertValidOcsfFinding, sharedDir, tunnelDnsEvents } from '@vigil/testing';
import { CUSTOMER_SIGMA_THREAT } from './sigma-detections';
import { decorateSigmaFinding } from './sigma-finding';
import { SigmaHitSource } from './sigma-hit-source';

const NETWORK = 'sigma/rules-network/rules-emerging-threats';
const TRIANGULATION = `${NETWORK}/2023/TA/EquationGroup/net_dns_apt_equation_group_triangulation_c2_coms.yml`;
const URSNIF = `${NETWORK}/2019/Malware/Ursnif/proxy_malware_ursnif_c2_url.yml`;

function stored(id: string, kind: CustomerRule['kind'], source: string): CustomerRule {
  return { id, kind, title: id, level: 'high', status: 'test', fileName: `${id}.yml`, source, updatedAt: new Date(0).toISOString() };
}

const shared = (file: string) => readFileSync(sharedDir(file), 'utf8');
const flagRule = `title: Tunnel to a young domain\nid: 00000000-0000-4000-8000-00000000f1a9\nlevel: low\nlogsource:\n  category: dns\ndetection:\n  sel:\n    wisdom.flags.long_hostname: true\n  condition: sel\n`;
const burst = `title: Burst of triangulation queries\nid: 00000000-0000-4000-8000-0000000b0157\ncorrelation:\n  type: event_count\n  rules: [7fc30d63-728d-48d9-ad6f-14d14f4accf7]\n  group-by: [src_ip]\n  timespan: 1m\n  condition:\n    gte: 3\n  generate: true\n`;

/** Not an assertion signature, so `any` values stay `any` after the check. */
const expectValidOcsf = (finding: unknown): void => assertValidOcsfFinding(finding);

/** Applies a set and fails on any document that does not compile. */
function applied(source: SigmaHitSource, rules: WorkspaceRuleSet): void {
  expect(source.apply(rules)).toEqual([]);
}

function set(workspaceId: string, version: number, rules: CustomerRule[]): WorkspaceRuleSet {
  return { v: 1, workspaceId, version, rules };
}

function batch(workspaceId: string, type: TelemetryBatch['type'], events: object[], batchId: string): TelemetryBatch {
  return { v: 1, workspaceId, type, batchId, receivedAt: Date.parse('2026-03-01T10:05:00Z'), events: events as TelemetryBatch['events'] };
}

describe('SigmaHitSource with the DetectionEngine', () => {
  const source = new SigmaHitSource();
  const engine = new DetectionEngine({ extraHits: source, clock: () => Date.parse('2026-03-01T10:05:00Z') });
  beforeAll(() => applied(source,
    set('ws-a', 1, [
      stored('7fc30d63-728d-48d9-ad6f-14d14f4accf7', 'rule', shared(TRIANGULATION)),
      stored('932ac737-33ca-4afd-9869-0d48b391fcc9', 'rule', shared(URSNIF)),
      stored('00000000-0000-4000-8000-0000000b0157', 'correlation', burst),
    ]),
  ));

  const decorate = (f: FindingRecord) => {
    const uid = (f.finding.finding_info as unknown as { analytic: { uid: string } }).analytic.uid;
    const meta = source.metaOf(f.workspaceId, uid);
    if (meta) decorateSigmaFinding(f, meta);
    return f;
  };

  it('turns a SigmaHQ DNS rule match into a valid OCSF finding with the rule metadata and author', () => {
    const out = engine.process(batch('ws-a', 'dns', [{ ts: '2026-03-01T10:00:00Z', srcIP: '10.1.1.1', query: 'backuprabbit.com' }], 'b1'));
    expect(out.findings).toHaveLength(1);
    const finding = decorate(out.findings[0]).finding as any;
    expectValidOcsf(finding);
    expect(finding.finding_info).toMatchObject({
      title: 'Potential Operation Triangulation C2 Beaconing Activity - DNS',
      desc: expect.stringContaining('beaconing activity'),
      src_url: 'https://securelist.com/operation-triangulation/109842/',
      analytic: { uid: 'sigma:7fc30d63-728d-48d9-ad6f-14d14f4accf7', type_id: 1 },
    });
    expect(finding.severity_id).toBe(4);
    expect(finding.unmapped.sigma).toMatchObject({ id: '7fc30d63-728d-48d9-ad6f-14d14f4accf7', author: 'Florian Roth (Nextron Systems)', level: 'high' });
    expect(finding.enrichments[0].data.aggregation.key.detections[0]).toMatchObject({ id: 'sigma:7fc30d63-728d-48d9-ad6f-14d14f4accf7', key: '7fc30d63-728d-48d9-ad6f-14d14f4accf7', threat: CUSTOMER_SIGMA_THREAT });
    expect(out.alerts).toHaveLength(1);
    expect(out.alerts[0].alert.threats).toEqual([CUSTOMER_SIGMA_THREAT]);
  });

  it('maps tags to ATT&CK attacks and leaves non-matching events alone', () => {
    const out = engine.process(
      batch('ws-a', 'http', [
        { ts: '2026-03-01T10:00:00Z', srcIP: '10.1.1.2', url: 'http://c2.example/images/x_2fA.avi' },
        { ts: '2026-03-01T10:00:01Z', srcIP: '10.1.1.3', url: 'http://c2.example/images/plain.avi' },
      ], 'b2'),
    );
    expect(out.findings).toHaveLength(1);
    const finding = decorate(out.findings[0]).finding as any;
    expectValidOcsf(finding);
    expect(finding.severity_id).toBe(5);
    expect(finding.finding_info.attacks.map((a: any) => a.technique.uid)).toEqual(expect.arrayContaining(['T1566.001', 'T1071.001']));
    expect(finding.device.ip).toBe('10.1.1.2');
  });

  it('raises a correlation finding when its condition is met', () => {
    const events = [0, 1, 2].map((i) => ({ ts: `2026-03-01T10:01:0${i}Z`, srcIP: '10.1.1.9', query: 'anstv.net' }));
    const out = engine.process(batch('ws-a', 'dns', events, 'b3'));
    const ids = out.findings.map((f) => (f.finding.finding_info as any).analytic.uid);
    expect(ids).toEqual(expect.arrayContaining(['sigma:00000000-0000-4000-8000-0000000b0157', 'sigma:7fc30d63-728d-48d9-ad6f-14d14f4accf7']));
    const corr = decorate(out.findings.find((f) => (f.finding.finding_info as any).analytic.uid === 'sigma:00000000-0000-4000-8000-0000000b0157')!).finding as any;
    expectValidOcsf(corr);
    expect(corr.finding_info.desc).toMatch(/event_count 3 over 3 event\(s\) for src_ip=10.1.1.9/);
  });

  it('silences the rules of a correlation without generate: true (the Sigma default)', () => {
    const local = new SigmaHitSource();
    applied(local, set('ws-d', 1, [
      stored('7fc30d63-728d-48d9-ad6f-14d14f4accf7', 'rule', shared(TRIANGULATION)),
      stored('00000000-0000-4000-8000-0000000b0157', 'correlation', burst.replace('  generate: true\n', '')),
    ]));
    const localEngine = new DetectionEngine({ extraHits: local });
    const events = [0, 1, 2].map((i) => ({ ts: `2026-03-01T10:01:0${i}Z`, srcIP: '10.1.1.9', query: 'anstv.net' }));
    expect(localEngine.process(batch('ws-d', 'dns', events.slice(0, 2), 'd1')).findings).toHaveLength(0);
    const ids = localEngine.process(batch('ws-d', 'dns', events.slice(2), 'd2')).findings.map((f) => (f.finding.finding_info as any).analytic.uid);
    expect(ids).toEqual(['sigma:00000000-0000-4000-8000-0000000b0157']);
  });

  it('keeps workspaces apart and swaps a workspace set whole, ignoring older versions', () => {
    expect(engine.process(batch('ws-b', 'dns', [{ ts: '2026-03-01T10:00:00Z', srcIP: '10.2.2.2', query: 'backuprabbit.com' }], 'b4')).findings).toHaveLength(0);
    source.apply(set('ws-b', 5, [stored('7fc30d63-728d-48d9-ad6f-14d14f4accf7', 'rule', shared(TRIANGULATION))]));
    expect(engine.process(batch('ws-b', 'dns', [{ ts: '2026-03-01T10:00:00Z', srcIP: '10.2.2.2', query: 'backuprabbit.com' }], 'b5')).findings).toHaveLength(1);
    source.apply(set('ws-b', 4, []));
    expect(source.ruleCount('ws-b')).toBe(1);
    source.apply(set('ws-b', 6, []));
    expect(source.covers('ws-b', 'dns')).toBe(false);
  });

  it('compiles expand rules with the placeholders of the workspace set', () => {
    const expandRule = `title: Configured C2\nid: 00000000-0000-4000-8000-0000000e4a4d\nlevel: high\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query|expand: '%c2_domains%'\n  condition: sel\n`;
    const rule = stored('00000000-0000-4000-8000-0000000e4a4d', 'rule', expandRule);
    const local = new SigmaHitSource();
    const localEngine = new DetectionEngine({ extraHits: local });
    applied(local, { ...set('ws-e', 1, [rule]), placeholders: { c2_domains: ['c2.evil.test', '*.beacon.test'] } });
    const fired = (query: string, id: string) => localEngine.process(batch('ws-e', 'dns', [{ ts: '2026-03-01T10:00:00Z', srcIP: '10.5.5.5', query }], id)).findings.length;
    expect(fired('c2.evil.test', 'e1')).toBe(1);
    expect(fired('x.beacon.test', 'e2')).toBe(1);
    expect(fired('evil.test', 'e3')).toBe(0);
    expect(fired('beacon.test.example', 'e4')).toBe(0);
    // A set without the placeholder reports the rule as a problem instead of compiling it.
    expect(local.apply(set('ws-e', 2, [rule]))).toEqual([expect.stringContaining('placeholder %c2_domains% is not configured')]);
    expect(fired('c2.evil.test', 'e5')).toBe(0);
  });

  it('feeds the built-in analytics results to rules that test wisdom flags', () => {
    const local = new SigmaHitSource();
    applied(local, set('ws-c', 1, [stored('00000000-0000-4000-8000-00000000f1a9', 'rule', flagRule)]));
    const localEngine = new DetectionEngine({ extraHits: local });
    const events = tunnelDnsEvents(30, { domain: 'sigma-flags.net', srcIP: '10.3.3.3', startTs: Date.parse('2026-03-01T10:00:00Z'), intervalMs: 500 });
    const out = localEngine.process(batch('ws-c', 'dns', events, 'b6'));
    const builtInFlags = new Set(out.findings.flatMap((f) => ((f.finding.enrichments as any[])[0].data.aggregation.key.detections as any[]).map((d) => d.id)));
    const sigma = out.alerts.filter((a) => a.alert.detections.some((d) => d.id === 'sigma:00000000-0000-4000-8000-00000000f1a9'));
    // The rule fires exactly on the events a built-in detection flagged long_hostname.
    const flagged = out.alerts.filter((a) => a.alert.wisdom.flags.includes('long_hostname'));
    expect(flagged.length).toBeGreaterThan(0);
    expect(sigma.map((a) => a.alert.id)).toEqual(flagged.map((a) => a.alert.id));
    expect(builtInFlags.has('sigma:00000000-0000-4000-8000-00000000f1a9')).toBe(true);
  });
});
