import type { DnsEvent } from '@vigil/contracts';
import {
  cobaltStrikeDnsEvents,
  dns2tcpDnsEvents,
  dnscat2DnsEvents,
  dnsExfiltratorDnsEvents,
  encodedServiceHostname,
  flightsimTunnelDnsEvents,
  iodineDnsEvents,
  createRng,
} from '@vigil/testing';
import { splitHostname } from '../../domain';
import { observeEvent } from '../../observed-event';
import { batch, benignNames, dnsEvent, seededRandom, shuffled, T0, tunnelQueries } from '../../testing/fixtures';
import type { DetectionHit, ObservedEvent } from '../detection';
import { DnsTunnelDetector, endsInTldLikeLabel } from './dns-tunnel';

let seq = 0;
function observe(query: string, timeMs: number, srcIP = '10.0.0.5', workspaceId = 'ws-test'): ObservedEvent {
  const observed = observeEvent(batch(`b${seq++}`, 'dns', [dnsEvent(query, timeMs, srcIP)], { workspaceId }), 0);
  if (observed === undefined) throw new Error('not observable');
  return observed;
}

/** `n` distinct long base32-looking subdomains of `domain`. */
function encodedNames(domain: string, n: number, seed = 1): string[] {
  const random = seededRandom(seed);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return Array.from({ length: n }, () => {
    let label = '';
    for (let i = 0; i < 52; i++) label += alphabet[Math.floor(random() * alphabet.length)];
    return `${label}.${domain}`;
  });
}

function run(detector: DnsTunnelDetector, events: ObservedEvent[]): (DetectionHit | undefined)[] {
  return events.map((e) => detector.inspect(e));
}

describe('DnsTunnelDetector', () => {
  it('fires at the 10th distinct random-looking subdomain within 60 s, reporting the build-up', () => {
    const detector = new DnsTunnelDetector();
    const names = encodedNames('evil.com', 12);
    const hits = run(detector, names.map((name, i) => observe(name, T0 + i * 1000)));
    expect(hits.slice(0, 9).every((h) => h === undefined)).toBe(true);
    const first = hits[9]!;
    expect(first.key).toBe('evil.com');
    expect(first.weight).toBe(10);
    expect(first.evidence).toHaveLength(10);
    expect(first.evidence[9].event.hostname).toBe(names[9]);
    expect(first.desc).toMatch(/^10 distinct random-looking subdomains of evil\.com in 60 s, mean subdomain length 52/);
    expect(first.wisdom).toEqual({ flags: ['perplexing_host', 'long_hostname'], domain: 'evil.com' });
    // afterwards every further query is one more hit carrying only itself
    expect(hits[10]!.weight).toBe(1);
    expect(hits[10]!.evidence.map((e) => e.event.hostname)).toEqual([names[10]]);
    expect(hits[11]!.observations[0]).toBe('12 distinct random-looking subdomains in 60 s');
  });

  it('stays silent when the same names are spread over more than the 60 s window', () => {
    const detector = new DnsTunnelDetector();
    const hits = run(detector, encodedNames('evil.com', 30).map((name, i) => observe(name, T0 + i * 7000)));
    expect(hits.filter(Boolean)).toHaveLength(0);
  });

  it('counts repeats of one name once', () => {
    const detector = new DnsTunnelDetector();
    const [name] = encodedNames('evil.com', 1);
    expect(run(detector, Array.from({ length: 50 }, (_, i) => observe(name, T0 + i * 100))).filter(Boolean)).toHaveLength(0);
  });

  it('keeps endpoints, workspaces and registered domains apart', () => {
    const detector = new DnsTunnelDetector();
    const events = encodedNames('evil.com', 12).map((name, i) =>
      observe(name, T0 + i * 1000, i % 2 === 0 ? '10.0.0.1' : '10.0.0.2', i % 3 === 0 ? 'ws-a' : 'ws-b'),
    );
    expect(run(detector, events).filter(Boolean)).toHaveLength(0);
  });

  it('ignores allow-listed zones even when they look like tunnels', () => {
    const detector = new DnsTunnelDetector();
    for (const zone of ['avts.mcafee.com', 'sophosxl.net', 'cloudfront.net', 'akamaiedge.net']) {
      expect(run(detector, encodedNames(zone, 20).map((name, i) => observe(name, T0 + i * 100))).filter(Boolean)).toEqual([]);
    }
    // ...but the rest of mcafee.com is not allow-listed
    expect(run(detector, encodedNames('evil.mcafee.com', 20).map((name, i) => observe(name, T0 + i * 100))).filter(Boolean).length).toBe(11);
  });

  it('counts the polls of an idle tunnel (counter labels), but not numbered hosts of an allow-listed SaaS', () => {
    const detector = new DnsTunnelDetector();
    const polls = Array.from({ length: 12 }, (_, i) => observe(`r${20000 + i}.t.idle-tunnel.net`, T0 + i * 500));
    expect(run(detector, polls).filter(Boolean).length).toBe(3);
    const sentry = Array.from({ length: 30 }, (_, i) => observe(`o${104000 + i * 7}.ingest.us.sentry.io`, T0 + i * 500));
    expect(run(detector, sentry).filter(Boolean)).toEqual([]);
  });

  it.each(['hidemyself.org', 'example.org', 'tuns.org'])('fires on a burst of real tunnel queries to %s', (zone) => {
    const detector = new DnsTunnelDetector();
    const queries = tunnelQueries('train.csv').filter((q) => splitHostname(q.replace(/\.$/, ''))?.registeredDomain === zone);
    // 200 consecutive queries of the capture, 20 per second
    const hits = run(detector, queries.slice(0, 200).map((q, i) => observe(q, T0 + i * 50)));
    const fired = hits.filter((h): h is DetectionHit => h !== undefined);
    expect(fired.length).toBeGreaterThan(0);
    expect(fired[0].key).toBe(zone);
    expect(fired[0].weight).toBeGreaterThanOrEqual(10);
  });

  it('stays silent on 10,000 popular host names queried by one host at a realistic rate', () => {
    const detector = new DnsTunnelDetector();
    const names = shuffled(benignNames('cisco-top20k.txt'), 42).slice(0, 10_000);
    const random = seededRandom(3);
    let t = T0;
    const hits = names.map((name) => {
      t += Math.floor(random() * 600); // ~3.3 queries per second on average, in bursts
      return detector.inspect(observe(name, t));
    });
    expect(hits.filter(Boolean)).toEqual([]);
  });

  it('stays silent even when all 20,000 cisco and 10,000 tranco names arrive in the same minute', () => {
    const detector = new DnsTunnelDetector();
    const names = [...benignNames('cisco-top20k.txt'), ...benignNames('tranco10k.txt')];
    const hits = names.map((name, i) => detector.inspect(observe(name, T0 + Math.floor(i / 1000))));
    expect(hits.filter(Boolean)).toEqual([]);
  });

  it('bounds its state: LRU over keys, capped subdomains per key', () => {
    const detector = new DnsTunnelDetector({ maxKeys: 50, maxSubdomainsPerKey: 16 });
    for (let d = 0; d < 200; d++) {
      for (const name of encodedNames(`d${d}.example`, 3, d)) detector.inspect(observe(name, T0 + d));
    }
    for (const name of encodedNames('busy.com', 500, 9)) detector.inspect(observe(name, T0 + 500));
    const stats = detector.stateStats();
    expect(stats.keys).toBe(50);
    expect(stats.maxKeys).toBe(50);
    expect(stats.largestKey).toBe(16);
    expect(stats.maxEntriesPerKey).toBe(16);
  });

  // Sessions shaped like each tool's protocol (libs/testing/src/generators/dns-*.ts), names lower-cased as the
  // gateway's parser does. tools/eval/tunnels.ts measures the same leave-one-tool-out and on more seeds.
  const tools: [string, (seed: number) => DnsEvent[]][] = [
    ['dnscat2 (domain)', (seed) => dnscat2DnsEvents(120, { srcIP: '10.0.0.5', seed, domain: 'c2.tunnel-lab.org', startTs: T0 })],
    ['dnscat2 (direct, cleartext, idle)', (seed) => dnscat2DnsEvents(120, { srcIP: '10.0.0.5', seed, encrypted: false, activity: 'idle', startTs: T0 })],
    ['dns2tcp (idle, KEY)', (seed) => dns2tcpDnsEvents(120, { srcIP: '10.0.0.5', seed, domain: 'dns2tcp.tunnel-lab.org', qtype: 'KEY', activity: 'idle', startTs: T0 })],
    ['iodine (ssh)', (seed) => iodineDnsEvents(120, { srcIP: '10.0.0.5', seed, domain: 't.tunnel-lab.org', startTs: T0 })],
    ['DNSExfiltrator', (seed) => dnsExfiltratorDnsEvents(120, { srcIP: '10.0.0.5', seed, domain: 'tunnel-lab.org', startTs: T0 })],
    ['Cobalt Strike DNS (A)', (seed) => cobaltStrikeDnsEvents(120, { srcIP: '10.0.0.5', seed, domain: 'ns1.tunnel-lab.org', channel: 'dns', startTs: T0 })],
    ['flightsim tunnel-dns', (seed) => flightsimTunnelDnsEvents(120, { srcIP: '10.0.0.5', seed, startTs: T0 })],
  ];
  it.each(tools)('detects a %s session within 50 queries', (_, make) => {
    for (const seed of [1, 2, 3]) {
      const detector = new DnsTunnelDetector();
      const events = make(seed).map((e) => ({ ...e, query: e.query.toLowerCase() }));
      const first = events.findIndex((e, i) => detector.inspect(observeEvent(batch(`tool-${seed}-${i}`, 'dns', [e]), 0)!) !== undefined);
      expect({ seed, detected: first >= 0 && first < 50 }).toEqual({ seed, detected: true });
    }
  });

  it('keeps names without a public suffix (dnscat.<hex>, sent straight to the server) in one window per host', () => {
    const detector = new DnsTunnelDetector();
    const hits = run(detector, Array.from({ length: 12 }, (_, i) => observe(`dnscat.${(0x8e4c01f86c + i).toString(16)}0867f2fb`, T0 + i * 1000)));
    expect(hits[9]?.key).toBe('(no public suffix)');
    expect(hits.slice(0, 9).every((h) => h === undefined)).toBe(true);
  });

  it('counts a short token (poll header, beacon nonce) with its weight only', () => {
    const names = Array.from({ length: 20 }, (_, i) => observe(`cdn.${(0x3245d60 + i * 7919).toString(16)}2959435f.c2-lab.net`, T0 + i * 500));
    const half = run(new DnsTunnelDetector({ shortTokenWeight: 0.5, minDistinctSubdomains: 10 }), names);
    expect(half.findIndex(Boolean)).toBe(19);
    expect(half[19]!.observations).toContain('weighted 10 (short tokens count 0.5)');
    expect(run(new DnsTunnelDetector({ shortTokenWeight: 0 }), names).filter(Boolean)).toEqual([]);
  });

  it('counts every distinct subdomain of a rarely queried data record type (an idle tunnel polling), not of address queries', () => {
    // iodine's idle polls: `p` + 7 base32 characters every few seconds, in PRIVATE (or NULL) queries
    const polls = (qtype: string) =>
      Array.from({ length: 24 }, (_, i) =>
        observeEvent(batch(`poll-${qtype}-${i}`, 'dns', [dnsEvent(`pa${(0x2ab00 + i * 977).toString(36)}a.t.vpn-relay.net`, T0 + i * 2500, '10.0.0.5', { qtype })]), 0)!,
      );
    expect(run(new DnsTunnelDetector(), polls('PRIVATE')).findIndex(Boolean)).toBe(19);
    expect(run(new DnsTunnelDetector(), polls('TYPE65399')).findIndex(Boolean)).toBe(19);
    expect(run(new DnsTunnelDetector(), polls('A')).filter(Boolean)).toEqual([]);
    expect(run(new DnsTunnelDetector(), polls('TXT')).filter(Boolean)).toEqual([]);
  });

  it('counts short tokens fully when they arrive in a burst to one zone, with their weight at a browsing pace', () => {
    // a beacon fetching its task through AAAA answers: a dozen distinct `www6.<nonce><id>` names within a second
    const names = (gapMs: number) =>
      Array.from({ length: 12 }, (_, i) =>
        observeEvent(batch(`aaaa-${gapMs}-${i}`, 'dns', [dnsEvent(`www6.${(0xabfac04 + i * 7919).toString(16)}1d7351bf.ns1.update-cdn.com`, T0 + i * gapMs, '10.0.0.5', { qtype: 'AAAA' })]), 0)!,
      );
    const burst = run(new DnsTunnelDetector(), names(60));
    expect(burst.findIndex(Boolean)).toBe(9);
    expect(burst[9]!.observations).toContain('10 distinct short tokens within 2 s');
    // the same names a few seconds apart count half each: 12 of them are 6, below the threshold of 10
    expect(run(new DnsTunnelDetector(), names(4000)).filter(Boolean)).toEqual([]);
    expect(run(new DnsTunnelDetector({ minBurstSubdomains: Infinity }), names(60)).filter(Boolean)).toEqual([]);
  });

  it.each([
    ['iodine, idle, PRIVATE', (seed: number) => iodineDnsEvents(200, { srcIP: '10.30.0.7', seed, domain: 't.vpn-relay.net', upstream: 'base64u', qtype: 'PRIVATE', activity: 'idle' })],
    ['iodine, idle, NULL', (seed: number) => iodineDnsEvents(200, { srcIP: '10.30.0.7', seed, domain: 't.vpn-relay.net', upstream: 'base32', qtype: 'NULL', activity: 'idle' })],
    ['Cobalt Strike, dns6 (AAAA)', (seed: number) => cobaltStrikeDnsEvents(200, { srcIP: '10.30.0.7', seed, domain: 'ns1.update-cdn.com', channel: 'dns6' })],
  ])('detects a %s session within 50 queries', (_, make) => {
    for (let seed = 1; seed <= 5; seed++) {
      const detector = new DnsTunnelDetector();
      const events = make(seed);
      const first = events.findIndex((event, i) => detector.inspect(observeEvent(batch(`s${seed}-${i}`, 'dns', [event]), 0)!) !== undefined);
      expect({ seed, detected: first >= 0 && first < 50 }).toEqual({ seed, detected: true });
    }
  });

  it('stays silent on AV-reputation, DNS block list, mail-authentication and CDN edge look-ups', () => {
    const detector = new DnsTunnelDetector();
    const rng = createRng('tunnel-spec-services');
    const hits = Array.from({ length: 5000 }, (_, i) => {
      const { name, qtype } = encodedServiceHostname(rng);
      return detector.inspect(observeEvent(batch(`svc-${i}`, 'dns', [dnsEvent(name, T0 + i * 10, '10.0.0.5', { qtype })]), 0)!);
    });
    expect(hits.filter(Boolean)).toEqual([]);
  });

  it('rejects options that cannot work', () => {
    expect(() => new DnsTunnelDetector({ minDistinctSubdomains: 0 })).toThrow(RangeError);
    expect(() => new DnsTunnelDetector({ minDistinctSubdomains: 10, maxSubdomainsPerKey: 5 })).toThrow(RangeError);
    expect(() => new DnsTunnelDetector({ windowMs: 0 })).toThrow(RangeError);
    expect(() => new DnsTunnelDetector({ maxKeys: 0 })).toThrow(RangeError);
    expect(() => new DnsTunnelDetector({ shortTokenWeight: 2 })).toThrow(RangeError);
    expect(() => new DnsTunnelDetector({ minBurstSubdomains: 1 })).toThrow(RangeError);
  });
});

describe('endsInTldLikeLabel', () => {
  it('answers as the pattern of labels a public suffix can be, on every kind of last label', () => {
    const pattern = /^(?:[a-z]{2,24}|xn--[a-z0-9-]{1,59})$/;
    const rng = createRng('tld-like');
    const alphabet = 'abcxyz019-_.A';
    const labels = ['com', 'co', 'c', 'museum', 'a'.repeat(24), 'a'.repeat(25), 'xn--p1ai', 'xn--', 'c0m', 'com-', 'COM', ''];
    for (let i = 0; i < 2_000; i++) {
      let label = rng.int(0, 1) === 0 ? 'xn--' : '';
      for (let n = rng.int(0, 30); n > 0; n--) label += alphabet[rng.int(0, alphabet.length - 1)];
      labels.push(label);
    }
    for (const label of labels) {
      const name = `www.example.${label}`;
      expect({ label, tldLike: endsInTldLikeLabel(name, name.lastIndexOf('.')) }).toEqual({ label, tldLike: pattern.test(name.slice(name.lastIndexOf('.') + 1)) });
    }
  });
});
