import type { TelemetryBatch, TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { ipEvents, tunnelDnsEvents } from '@vigil/testing';
import { DetectionEngine } from './engine';
import { StateBudget } from './state/state-budget';

const T0 = Date.parse('2026-03-01T10:00:00Z');
let batchNumber = 0;
const batch = (type: TelemetryType, events: TelemetryEvent[]): TelemetryBatch => ({ v: 1, workspaceId: 'ws', batchId: `b${batchNumber++}`, type, receivedAt: T0, events });

describe('DetectionEngine under a process-wide state budget', () => {
  it('keeps the state of several engines under the budget and still detects the host that is active now', () => {
    const capacity = 4 * 1024 * 1024;
    const budget = new StateBudget({ capacityBytes: capacity, checkIntervalMs: 0 });
    const engines = [new DetectionEngine({ stateBudget: budget }), new DetectionEngine({ stateBudget: budget })];
    // 60,000 flows from 20,000 hosts to many destinations: far more state than the budget holds.
    const flows = ipEvents(60_000, { hosts: 20_000, seed: 5, startTs: T0, intervalMs: 5 });
    for (let i = 0; i < flows.length; i += 500) engines[(i / 500) % 2].process(batch('ip', flows.slice(i, i + 500)));
    const usage = budget.usage();
    const total = Object.values(usage).reduce((sum, u) => sum + u.bytes, 0);
    expect(total).toBeLessThanOrEqual(capacity);
    expect(Object.values(usage).reduce((sum, u) => sum + u.evictions, 0)).toBeGreaterThan(0);

    const tunnel = tunnelDnsEvents(30, { domain: 'budget-tunnel.com', srcIP: '10.99.0.1', startTs: T0 + 300_000, intervalMs: 500 });
    const findings = tunnel.flatMap((event) => engines[0].process(batch('dns', [event])).findings);
    expect(findings.some((f) => JSON.stringify(f.finding).includes('budget-tunnel.com'))).toBe(true);
  });

  it('keeps attributing addresses to their DHCP lease holders while the detections churn through the budget', () => {
    const budget = new StateBudget({ capacityBytes: 2 * 1024 * 1024, checkIntervalMs: 0 });
    const engine = new DetectionEngine({ stateBudget: budget });
    const leased = Array.from({ length: 500 }, (_, i) => `10.50.${Math.floor(i / 250)}.${(i % 250) + 1}`);
    const leases: TelemetryEvent[] = leased.map((srcIP, i) => ({ ts: new Date(T0).toISOString(), srcIP, srcHost: `desk-${i}`, type: 'ack', duration: 86_400 }));
    engine.process(batch('lease', leases));
    // Far more flows than the budget holds, from hosts that hold no lease.
    const flows = ipEvents(60_000, { hosts: 20_000, seed: 7, startTs: T0 + 1000, intervalMs: 5 });
    for (let i = 0; i < flows.length; i += 500) engine.process(batch('ip', flows.slice(i, i + 500)));
    expect(budget.usage().beacon_ip.evictions).toBeGreaterThan(0);
    expect(budget.usage().leases.evictions).toBe(0);

    // One OAST lookup per leased address: an alert each, which names the lease's host.
    const later: TelemetryEvent[] = leased.map((srcIP, i) => ({ srcIP, query: `probe${i}.oast.fun`, ts: new Date(T0 + 600_000).toISOString() }));
    const { alerts } = engine.process(batch('dns', later));
    expect(alerts).toHaveLength(500);
    expect(alerts.filter((a, i) => (a.alert.event as { srcHost?: string }).srcHost === `desk-${i}`)).toHaveLength(500);
  });

  it('detects exactly as before while under its budget', () => {
    const events = tunnelDnsEvents(30, { domain: 'same-tunnel.com', srcIP: '10.99.0.2', startTs: T0, intervalMs: 500 });
    const run = (engine: DetectionEngine) => events.flatMap((event, i) => engine.process({ ...batch('dns', [event]), batchId: `same${i}` }).findings.map((f) => f.findingUid));
    expect(run(new DetectionEngine({ stateBudget: new StateBudget({ capacityBytes: 64 * 1024 * 1024 }) }))).toEqual(run(new DetectionEngine()));
  });
});
