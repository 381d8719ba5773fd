import type { CustomerRule, TelemetryBatch, WorkspaceRuleSet } from '@vigil/contracts';
import { DetectionEngine, type DetectionResult } from '@vigil/detection-engine';
// The shared mixed-traffic generator of the detection-engine tests (not part of that lib's public API).
import { MIXED_TRAFFIC_START, mixedTrafficBatches } from '../../../detection-engine/src/testing/mixed-traffic';
import { SigmaHitSource } from './sigma-hit-source';

const WS = 'ws-mixed';
const rule = (id: string, kind: CustomerRule['kind'], source: string): CustomerRule => ({ id, kind, title: id, level: 'high', status: 'test', fileName: `${id}.yml`, source, updatedAt: new Date(0).toISOString() });

const TUNNEL_RULE = '00000000-0000-4000-8000-0000000000a1';
const SMB_RULE = '00000000-0000-4000-8000-0000000000a2';
const rules: CustomerRule[] = [
  rule(TUNNEL_RULE, 'rule', `title: Long host names\nid: ${TUNNEL_RULE}\nlevel: low\nlogsource:\n  category: dns\ndetection:\n  sel:\n    wisdom.flags.long_hostname: true\n  condition: sel\n`),
  rule(SMB_RULE, 'rule', `title: SMB out\nid: ${SMB_RULE}\nlevel: low\nlogsource:\n  category: firewall\ndetection:\n  sel:\n    dst_port: 445\n  condition: sel\n`),
  rule('00000000-0000-4000-8000-0000000000b1', 'correlation', `title: Tunnel burst\nid: 00000000-0000-4000-8000-0000000000b1\ncorrelation:\n  type: event_count\n  rules: [${TUNNEL_RULE}]\n  group-by: [src_ip]\n  timespan: 2m\n  condition:\n    gte: 15\n  generate: true\n`),
  rule('00000000-0000-4000-8000-0000000000b2', 'correlation', `title: SMB sweep\nid: 00000000-0000-4000-8000-0000000000b2\ncorrelation:\n  type: value_count\n  rules: [${SMB_RULE}]\n  group-by: [src_ip]\n  timespan: 3m\n  condition:\n    field: dst_ip\n    gte: 30\n  generate: true\n`),
];
const ruleSet: WorkspaceRuleSet = { v: 1, workspaceId: WS, version: 3, rules };

const clock = () => MIXED_TRAFFIC_START + 86_400_000;
const batches = mixedTrafficBatches({ steps: 16, hosts: 12, workspaceId: WS, seed: 'sigma' });

function engineWithRules(withRules = true): { engine: DetectionEngine; source: SigmaHitSource } {
  const source = new SigmaHitSource();
  if (withRules) expect(source.apply(ruleSet)).toEqual([]);
  return { engine: new DetectionEngine({ clock, extraHits: source }), source };
}

const run = (engine: DetectionEngine, list: readonly TelemetryBatch[]): DetectionResult[] => list.map((b) => engine.process(b));
const ids = (results: DetectionResult[]) => new Set(results.flatMap((r) => r.findings.map((f) => f.findingUid + ' ' + (f.finding.finding_info as unknown as { analytic: { uid: string } }).analytic.uid)));

describe('SigmaHitSource: correlation windows in engine snapshots', () => {
  const straight = run(engineWithRules().engine, batches);

  it('the traffic completes both correlations', () => {
    const uids = [...ids(straight)].join('\n');
    expect(uids).toContain('sigma:00000000-0000-4000-8000-0000000000b1');
    expect(uids).toContain('sigma:00000000-0000-4000-8000-0000000000b2');
  });

  it.each([5, 19, 50])('gives exactly the same findings and alerts when restored after batch %d', (k) => {
    const first = engineWithRules().engine;
    const results = run(first, batches.slice(0, k));
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
    expect(Object.keys(snapshot.parts.extra)).toEqual([WS]);
    const second = engineWithRules().engine;
    second.restore(snapshot);
    results.push(...run(second, batches.slice(k)));
    expect(results).toEqual(straight);
  });

  it('holds windows restored before their rule set arrives, and drops them for a newer rule set', () => {
    const k = 19; // after the first minute of an SMB sweep: its value_count window is half full
    const first = engineWithRules().engine;
    const results = run(first, batches.slice(0, k));
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()));

    const { engine: late, source } = engineWithRules(false);
    late.restore(snapshot);
    source.apply(ruleSet);
    expect([...results, ...run(late, batches.slice(k))]).toEqual(straight);

    const { engine: newer, source: newerSource } = engineWithRules(false);
    newer.restore(snapshot);
    newerSource.apply({ ...ruleSet, version: 4 });
    const fresh = engineWithRules().engine;
    fresh.restore({ ...snapshot, parts: { ...snapshot.parts, extra: {} } });
    const withoutWindows = run(fresh, batches.slice(k));
    expect(run(newer, batches.slice(k))).toEqual(withoutWindows);
    // The windows made a difference: without them a correlation completes later or not at all.
    expect(withoutWindows).not.toEqual(straight.slice(k));
  });

  it('rejects malformed correlation state with a SnapshotError, leaving the engine empty', () => {
    const first = engineWithRules().engine;
    run(first, batches.slice(0, 30));
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
    const { engine } = engineWithRules();
    expect(() => engine.restore({ ...snapshot, parts: { ...snapshot.parts, extra: { [WS]: [3, 'oops'] } } })).toThrow(expect.objectContaining({ name: 'SnapshotError' }));
    expect(engine.stateStats().openFindings).toBe(0);
    expect(run(engine, batches.slice(30))).toEqual(run(engineWithRules().engine, batches.slice(30)));
  });
});
