import type { Alert, LeaseEvent } from '@vigil/contracts';
import { assertValidOcsfFinding } from '@vigil/testing';
import { splitHostname } from '../domain';
import { DetectionEngine } from '../engine';
import type { ObservedEvent } from '../detections/detection';
import { hostKeyOf, observeEvent } from '../observed-event';
import { batch, dnsEvent, iso, T0, tunnelQueries } from '../testing/fixtures';
import { LeaseTracker } from './lease-tracker';

const lease = (srcIP: string, timeMs: number, srcHost: string, srcMac: string, extra: Partial<LeaseEvent> = {}): LeaseEvent => ({
  ts: iso(timeMs),
  srcIP,
  srcHost,
  srcMac,
  type: 'ack',
  duration: 3600,
  ...extra,
});

describe('LeaseTracker', () => {
  it('answers who held an address at a given time, across hand-overs, releases and expiry', () => {
    const leases = new LeaseTracker();
    leases.record('ws', lease('10.0.0.7', T0, 'laptop-1', 'AA:AA:AA:AA:AA:01'), T0);
    leases.record('ws', lease('10.0.0.7', T0 + 600_000, 'phone-2', 'aa:aa:aa:aa:aa:02'), T0 + 600_000);
    leases.record('ws', lease('10.0.0.7', T0 + 900_000, 'phone-2', 'aa:aa:aa:aa:aa:02', { type: 'release' }), T0 + 900_000);
    expect(leases.holderAt('ws', '10.0.0.7', T0 - 1)).toBeUndefined();
    expect(leases.holderAt('ws', '10.0.0.7', T0 + 60_000)).toEqual({ host: 'laptop-1', mac: 'aa:aa:aa:aa:aa:01' });
    expect(leases.holderAt('ws', '10.0.0.7', T0 + 700_000)).toEqual({ host: 'phone-2', mac: 'aa:aa:aa:aa:aa:02' });
    expect(leases.holderAt('ws', '10.0.0.7', T0 + 901_000)).toBeUndefined();
    expect(leases.holderAt('other-ws', '10.0.0.7', T0 + 60_000)).toBeUndefined();
    leases.record('ws', lease('10.0.0.8', T0, 'desk-3', 'aa:aa:aa:aa:aa:03'), T0);
    expect(leases.holderAt('ws', '10.0.0.8', T0 + 3_599_000)).toBeDefined();
    expect(leases.holderAt('ws', '10.0.0.8', T0 + 3_600_000)).toBeUndefined();
  });

  it('runs a renewal by the same client on as one lease, so renewals do not push older holders out of the history', () => {
    const leases = new LeaseTracker();
    leases.record('ws', lease('10.0.0.9', T0, 'laptop-1', 'aa:aa:aa:aa:aa:01'), T0);
    leases.record('ws', lease('10.0.0.9', T0 + 600_000, 'tablet-4', 'aa:aa:aa:aa:aa:04'), T0 + 600_000);
    // Twenty renewals, each half-way through the lease: one entry, whose end follows the latest renewal.
    for (let i = 1; i <= 20; i++) leases.record('ws', lease('10.0.0.9', T0 + 600_000 + i * 1_800_000, 'tablet-4', 'aa:aa:aa:aa:aa:04'), T0 + 600_000 + i * 1_800_000);
    const lastRenewal = T0 + 600_000 + 20 * 1_800_000;
    expect(leases.snapshot()).toEqual(['ws\u000010.0.0.9', [T0, T0 + 600_000, 'laptop-1', 'aa:aa:aa:aa:aa:01', T0 + 600_000, lastRenewal + 3_600_000, 'tablet-4', 'aa:aa:aa:aa:aa:04']]);
    expect(leases.holderAt('ws', '10.0.0.9', T0 + 60_000)).toEqual({ host: 'laptop-1', mac: 'aa:aa:aa:aa:aa:01' });
    expect(leases.holderAt('ws', '10.0.0.9', T0 + 5_000_000)).toEqual({ host: 'tablet-4', mac: 'aa:aa:aa:aa:aa:04' });
    expect(leases.holderAt('ws', '10.0.0.9', lastRenewal + 3_599_000)).toEqual({ host: 'tablet-4', mac: 'aa:aa:aa:aa:aa:04' });
    expect(leases.holderAt('ws', '10.0.0.9', lastRenewal + 3_600_000)).toBeUndefined();
    // A grant to another client still closes the renewed lease at that moment.
    leases.record('ws', lease('10.0.0.9', lastRenewal + 60_000, 'phone-5', 'aa:aa:aa:aa:aa:05'), lastRenewal + 60_000);
    expect(leases.holderAt('ws', '10.0.0.9', lastRenewal + 59_000)?.host).toBe('tablet-4');
    expect(leases.holderAt('ws', '10.0.0.9', lastRenewal + 61_000)?.host).toBe('phone-5');
  });

  it('hands out the covering lease with room for one attribution, kept by renewals and not by a new holder', () => {
    const leases = new LeaseTracker();
    leases.record('ws', lease('10.0.0.10', T0, 'laptop-1', 'aa:aa:aa:aa:aa:01'), T0);
    const first = leases.leaseAt('ws', '10.0.0.10', T0 + 1000);
    expect(first?.holder).toEqual({ host: 'laptop-1', mac: 'aa:aa:aa:aa:aa:01' });
    expect(first?.attribution).toBeUndefined();
    const attribution = { endpoint: { ip: '10.0.0.10', host: 'laptop-1', id: 'host:laptop-1' }, hostKey: 'ws\u0000host:laptop-1' };
    first!.attribution = attribution;
    leases.record('ws', lease('10.0.0.10', T0 + 1_800_000, 'laptop-1', 'aa:aa:aa:aa:aa:01'), T0 + 1_800_000);
    expect(leases.leaseAt('ws', '10.0.0.10', T0 + 3_000_000)?.attribution).toBe(attribution);
    leases.record('ws', lease('10.0.0.10', T0 + 3_600_000, 'phone-2', 'aa:aa:aa:aa:aa:02'), T0 + 3_600_000);
    expect(leases.leaseAt('ws', '10.0.0.10', T0 + 3_700_000)?.attribution).toBeUndefined();
    expect(leases.leaseAt('ws', '10.0.0.10', T0 + 1000)?.attribution).toBe(attribution);
  });

  it('stays bounded', () => {
    const leases = new LeaseTracker(10);
    for (let i = 0; i < 100; i++) leases.record('ws', lease(`10.1.0.${i}`, T0, `h${i}`, 'aa:aa:aa:aa:aa:aa'), T0);
    expect(leases.size).toBe(10);
  });
});

describe('endpoint attribution in the engine', () => {
  it('names the host and MAC of a lease in alerts and findings when the event lacks them', () => {
    const engine = new DetectionEngine();
    engine.process(batch('l-1', 'lease', [lease('10.5.5.5', T0, 'build-agent-4', '00:11:22:33:44:55')]));
    const { findings, alerts } = engine.process(batch('d-1', 'dns', [dnsEvent('x1.oast.fun', T0 + 60_000, '10.5.5.5')]));
    const alert = alerts[0].alert as Alert;
    expect(alert.event).toMatchObject({ srcIP: '10.5.5.5', srcHost: 'build-agent-4', srcMac: '00:11:22:33:44:55' });
    assertValidOcsfFinding(findings[0].finding);
    expect(findings[0].finding.device).toMatchObject({ ip: '10.5.5.5', hostname: 'build-agent-4', mac: '00:11:22:33:44:55' });
  });

  it('gives the events of a leased address that name no host one endpoint and host key, those of its lease', () => {
    const engine = new DetectionEngine();
    engine.process(batch('l-1', 'lease', [lease('10.5.5.7', T0, 'Build-Agent-7', '00:11:22:33:44:77')]));
    const seen: ObservedEvent[] = [];
    const events = [dnsEvent('a.example.com', T0 + 1000, '10.5.5.7'), dnsEvent('b.example.com', T0 + 2000, '10.5.5.7'), dnsEvent('c.example.com', T0 + 3000, '10.5.5.8')];
    for (let i = 0; i < events.length; i++) {
      const observed = observeEvent(batch(`d-${i}`, 'dns', [events[i]]), 0)!;
      (engine as unknown as { attributeFromLease(o: ObservedEvent): void }).attributeFromLease(observed);
      seen.push(observed);
    }
    const [a, b, unleased] = seen;
    expect(a.endpoint).toEqual({ ip: '10.5.5.7', host: 'Build-Agent-7', mac: '00:11:22:33:44:77', id: 'host:build-agent-7' });
    expect(b.endpoint).toBe(a.endpoint);
    expect(hostKeyOf(a)).toBe(`${a.workspaceId}\u0000host:build-agent-7`);
    expect(hostKeyOf(b)).toBe(hostKeyOf(a));
    expect(hostKeyOf(unleased)).toBe(`${unleased.workspaceId}\u000010.5.5.8`);
  });

  it("keeps the event's own host name over the lease's", () => {
    const engine = new DetectionEngine();
    engine.process(batch('l-1', 'lease', [lease('10.5.5.6', T0, 'from-lease', '00:11:22:33:44:66')]));
    const { alerts } = engine.process(batch('d-1', 'dns', [dnsEvent('x2.oast.fun', T0 + 1000, '10.5.5.6', { srcHost: 'from-event' })]));
    expect(alerts[0].alert.event).toMatchObject({ srcHost: 'from-event', srcMac: '00:11:22:33:44:66' });
  });

  it("names the lease's host in the evidence of events that raised nothing themselves, and leaves those events as sent", () => {
    const queries = tunnelQueries('validate.csv').filter((q) => splitHostname(q)?.registeredDomain === 'example.org').slice(0, 14);
    const engine = new DetectionEngine();
    engine.process(batch('l-1', 'lease', [lease('10.7.0.1', T0, 'quiet-desk', 'aa:bb:cc:00:00:07')]));
    const events = queries.map((q, i) => dnsEvent(q, T0 + 1000 + i * 500, '10.7.0.1'));
    const findings = events.flatMap((event, i) => engine.process(batch(`d-${i}`, 'dns', [event])).findings);
    const finding = findings[findings.length - 1].finding as unknown as { evidences: { data: { srcHost?: string }; src_endpoint?: { hostname?: string } }[] };
    assertValidOcsfFinding(finding);
    expect(finding.evidences.length).toBeGreaterThan(1);
    for (const evidence of finding.evidences) {
      expect(evidence.data.srcHost).toBe('quiet-desk');
      expect(evidence.src_endpoint?.hostname).toBe('quiet-desk');
    }
    // Only events that raised a hit carry the lease's names themselves (alerts show them).
    const named = events.filter((event) => (event as { srcHost?: string }).srcHost === 'quiet-desk').length;
    expect(named).toBeGreaterThan(0);
    expect(named).toBeLessThan(events.length);
  });

  it('lets detection state follow the host when its address changes mid-burst', () => {
    const queries = tunnelQueries('validate.csv').filter((q) => splitHostname(q)?.registeredDomain === 'example.org').slice(0, 14);
    const run = (secondIp: string, secondHost: string) => {
      const engine = new DetectionEngine();
      engine.process(batch('l-1', 'lease', [lease('10.6.0.1', T0, 'roaming-laptop', 'aa:bb:cc:00:00:01')]));
      engine.process(batch('l-2', 'lease', [lease(secondIp, T0 + 3_500, secondHost, 'aa:bb:cc:00:00:01')]));
      const first = queries.slice(0, 7).map((q, i) => dnsEvent(q, T0 + i * 500, '10.6.0.1'));
      const second = queries.slice(7).map((q, i) => dnsEvent(q, T0 + 4_000 + i * 500, secondIp));
      return [...engine.process(batch('d-1', 'dns', first)).findings, ...engine.process(batch('d-2', 'dns', second)).findings];
    };
    // 7 + 7 random subdomains: under the 10-per-window threshold on each address, over it for the host.
    expect(run('10.6.0.2', 'roaming-laptop').map((f) => f.finding.finding_info.title).length).toBeGreaterThan(0);
    expect(run('10.6.0.2', 'someone-else')).toEqual([]);
  });
});
