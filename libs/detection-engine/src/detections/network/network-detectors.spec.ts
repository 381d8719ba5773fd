import { benignDnsEvents, ipEvents } from '@vigil/testing';
import { CORE_FLAGS, FLAG_DICTIONARY } from '../../inventory/flags';
import { CORE_THREATS, THREAT_DICTIONARY } from '../../inventory/threats';
import { ATTACK_TACTICS, ATTACK_TECHNIQUES, parseAttackPair } from '../../mitre';
import { flightsimScan, flow, hitsOf, observe, T0 } from './flow-fixtures';
import { createNetworkDetectors, LongConnectionDetector, NETWORK_ATTACK_TACTICS, NETWORK_ATTACK_TECHNIQUES, NETWORK_FLAGS, NETWORK_THREATS, StrobeDetector } from './index';

describe('createNetworkDetectors', () => {
  const detectors = createNetworkDetectors();

  it('gives every detection a unique id, a known threat, known flags, valid MITRE pairs and a severity 1-5', () => {
    const ids = detectors.map((d) => d.definition.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { definition } of detectors) {
      expect({ id: definition.id, threat: (THREAT_DICTIONARY[definition.threat] ?? NETWORK_THREATS[definition.threat]) !== undefined }).toEqual({ id: definition.id, threat: true });
      for (const flag of definition.flags) expect({ flag, known: (FLAG_DICTIONARY[flag] ?? NETWORK_FLAGS[flag]) !== undefined }).toEqual({ flag, known: true });
      for (const pair of definition.mitreAttack) {
        const { tacticUid, techniqueUid } = parseAttackPair(pair);
        expect(ATTACK_TACTICS[tacticUid] ?? NETWORK_ATTACK_TACTICS[tacticUid]).toBeDefined();
        expect(ATTACK_TECHNIQUES[techniqueUid] ?? NETWORK_ATTACK_TECHNIQUES[techniqueUid]).toBeDefined();
      }
      expect([1, 2, 3, 4, 5]).toContain(definition.severity);
      expect(definition.keyDescription.length).toBeGreaterThan(0);
    }
  });

  it('adds only new threat and flag ids, none that clash with the established dictionaries', () => {
    for (const id of Object.keys(NETWORK_THREATS)) expect({ id, clash: CORE_THREATS[id] !== undefined }).toEqual({ id, clash: false });
    for (const id of Object.keys(NETWORK_FLAGS)) expect({ id, clash: CORE_FLAGS[id] !== undefined }).toEqual({ id, clash: false });
  });

  it('reuses the established threat ids where the meaning is the same', () => {
    const threats = new Set(detectors.map((d) => d.definition.threat));
    for (const id of ['outbound_port_scan', 'icmp_tunneling', 'ssh_mask', 'high_volume_ftp', 'conn_unusual_port_volume', 'unusual_network_port']) {
      expect(threats.has(id)).toBe(true);
    }
  });

  it('raises nothing on 30,000 generated flows and 10,000 lookups of ordinary traffic', () => {
    const all = createNetworkDetectors();
    const flows = ipEvents(30_000, { seed: 11 }).map((e) => observe('ip', e));
    const lookups = benignDnsEvents(10_000, { seed: 11 }).map((e) => observe('dns', e));
    const raised: string[] = [];
    for (const event of [...flows, ...lookups]) {
      for (const detector of all) {
        if (!detector.types.includes(event.type)) continue;
        const hit = detector.inspect(event);
        if (hit !== undefined) raised.push(`${hit.detection.id} ${hit.key}`);
      }
    }
    expect(raised).toEqual([]);
  });

  it('catches the flightsim-shaped scan, ICMP tunnel and SSH exfiltration runs', () => {
    const fired = (events: ReturnType<typeof flow>[]) => {
      const all = createNetworkDetectors();
      const ids = new Set<string>();
      for (const event of events) for (const d of all) if (d.inspect(event) !== undefined) ids.add(d.definition.id);
      return ids;
    };
    expect(fired(flightsimScan(T0)).has('port_scan_vertical')).toBe(true);
    const icmp = Array.from({ length: 80 }, (_, i) => flow(T0 + i * 1_000, { proto: 'icmp', destPort: 0, destIP: '45.77.9.1', bytesOut: 1_400, packetsOut: 1 }));
    expect(fired(icmp).has('icmp_tunnel')).toBe(true);
    const exfil = Array.from({ length: 20 }, (_, i) => flow(T0 + i * 10_000, { app: 'ssh', destIP: '45.77.9.2', destPort: 443, bytesOut: 10_000_000 }));
    expect([...fired(exfil)].sort()).toEqual(['large_ssh_transfer', 'ssh_non_standard_port']);
  });
});

describe('LongConnectionDetector', () => {
  it('fires on a 3-hour connection to an Internet host and not on a short or internal one', () => {
    const detector = new LongConnectionDetector();
    const [hit] = hitsOf(detector, [flow(T0, { destIP: '45.77.9.3', destPort: 8443, duration: 10_800, app: 'ssl' })]);
    expect(hit.key).toBe('45.77.9.3:8443');
    expect(hit.desc).toBe('Connection to 45.77.9.3:8443 (ssl) open for 3.0 h (threshold 1.0 h): a persistent channel such as a tunnel or remote shell');
    expect(hitsOf(detector, [flow(T0, { duration: 3_000 }), flow(T0, { destIP: '10.0.0.9', duration: 90_000 })])).toEqual([]);
    expect(() => new LongConnectionDetector(0)).toThrow(RangeError);
  });
});

describe('StrobeDetector', () => {
  it('fires at 3,600 connections to one host within an hour, not at a lower rate', () => {
    const detector = new StrobeDetector();
    const hits = hitsOf(detector, Array.from({ length: 3_700 }, (_, i) => flow(T0 + i * 900, { destIP: '45.77.9.4' })));
    expect(hits).toHaveLength(101);
    expect(hits[0].weight).toBe(3_600);
    expect(hits[0].desc).toMatch(/^3600 connections to 45\.77\.9\.4 within 1 h/);
    expect(hitsOf(new StrobeDetector(), Array.from({ length: 3_700 }, (_, i) => flow(T0 + i * 2_000, { destIP: '45.77.9.4' })))).toEqual([]);
  });

  it('bounds its state', () => {
    const detector = new StrobeDetector({ maxKeys: 10 });
    for (let i = 0; i < 100; i++) detector.inspect(flow(T0 + i * 60_000, { destIP: `45.79.0.${i}` }));
    expect(detector.stateStats().keys).toBe(10);
  });
});
