import { splitHostname } from '../../domain';
import { observeEvent } from '../../observed-event';
import { batch, benignNames, dnsEvent, seededRandom, shuffled, T0, tunnelQueries } from '../../testing/fixtures';
import type { DetectionHit, ObservedEvent } from '../detection';
import { DnsTunnelDetector } from './dns-tunnel';

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

  it('rejects options that cannot work', () => {
    expect(() => new DnsTunnelDetector({ minDistinctSubdomains: 0 })).toThrow(RangeError);
    expect(() => new DnsTunnelDetector({ minDistinctSubdomains: 10, maxSubdomainsPerKey: 5 })).toThrow(RangeError);
    expect(() => new DnsTunnelDetector({ windowMs: 0 })).toThrow(RangeError);
    expect(() => new DnsTunnelDetector({ maxKeys: 0 })).toThrow(RangeError);
  });
});
