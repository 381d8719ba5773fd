import { gunzipSync } from 'node:zlib';
import { getDomain } from 'tldts';
import {
  benignDnsEvents,
  httpEvents,
  ipEvents,
  leaseEvents,
  networkResolvers,
  OAST_DOMAINS,
  SERVICE_NETWORKS,
  oastDnsEvents,
  tlsEvents,
  tunnelDnsEvents,
  withClientQuirks,
} from './generators';
import { gzipNdjson, ndjsonBodyOfSize, toNdjson } from './ndjson-body';
import { openApiSchemaErrors } from './openapi-validator';
import { POPULAR_DOMAINS } from './popular-domains';

const START = '2024-06-10T06:00:00.000Z';
const tunnelOpts = { domain: 'data.tunnel-example.net', srcIP: '10.20.0.66', startTs: START, intervalMs: 1_000 };

const generators = {
  benignDns: { schema: 'dnsEvent', make: (n: number, seed?: number) => benignDnsEvents(n, { seed }) },
  tunnelDns: { schema: 'dnsEvent', make: (n: number, seed?: number) => tunnelDnsEvents(n, { ...tunnelOpts, seed }) },
  oastDns: { schema: 'dnsEvent', make: (n: number, seed?: number) => oastDnsEvents(n, { seed }) },
  ip: { schema: 'ipEvent', make: (n: number, seed?: number) => ipEvents(n, { seed }) },
  http: { schema: 'httpEvent', make: (n: number, seed?: number) => httpEvents(n, { seed }) },
  tls: { schema: 'tlsEvent', make: (n: number, seed?: number) => tlsEvents(n, { seed }) },
  lease: { schema: 'leaseEvent', make: (n: number, seed?: number) => leaseEvents(n, { seed }) },
};
const cases = Object.entries(generators).map(([name, g]) => [name, g.schema, g.make] as const);

const labelsBefore = (query: string, domain: string) => query.slice(0, -(domain.length + 1)).split('.');

describe('telemetry generators', () => {
  it.each(cases)('%s is deterministic for a seed and varies across seeds', (_name, _schema, make) => {
    expect(make(50, 5)).toEqual(make(50, 5));
    expect(make(50, 5)).not.toEqual(make(50, 6));
    // A longer run starts with the shorter one (ndjsonBodyOfSize relies on it).
    expect(make(80, 5).slice(0, 50)).toEqual(make(50, 5));
  });

  it.each(cases)('%s produces events that match the OpenAPI %s schema', (_name, schema, make) => {
    const events = make(300);
    expect(events).toHaveLength(300);
    const problems = events.flatMap((e, i) => openApiSchemaErrors(schema, e).map((p) => `#${i} ${p}`));
    expect(problems).toEqual([]);
  });

  it.each(cases)('%s emits ascending RFC 3339 UTC timestamps from startTs', (_name, _schema, make) => {
    const ts = make(200).map((e) => e.ts);
    expect(ts.filter((t) => !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(t))).toEqual([]);
    expect([...ts].sort()).toEqual(ts);
    expect(ts[0]).toBe(START);
  });

  it('benign DNS asks for popular domains and their usual subdomains from internal hosts', () => {
    const events = benignDnsEvents(3_000, { seed: 11, hosts: 10, subnet: '10.99' });
    // Popular sites, and Firefox's DoH canary that every Firefox looks up.
    const popular = new Set([...POPULAR_DOMAINS, 'use-application-dns.net']);
    expect(events.filter((e) => !popular.has(getDomain(e.query)!)).map((e) => e.query)).toEqual([]);
    expect(events.some((e) => e.query === 'use-application-dns.net')).toBe(true);
    expect(events.filter((e) => !/^10\.99\.\d+\.\d+$/.test(e.srcIP!)).map((e) => e.srcIP)).toEqual([]);
    expect(new Set(events.map((e) => e.srcIP)).size).toBe(10);
    const firstLabels = new Set(events.map((e) => e.query.split('.')[0]));
    for (const sub of ['www', 'api', 'cdn']) expect(firstLabels.has(sub)).toBe(true);
    const bare = events.filter((e) => getDomain(e.query) === e.query).length;
    expect(bare / events.length).toBeGreaterThan(0.15);
    expect(new Set(events.map((e) => e.qtype))).toEqual(new Set(['A', 'AAAA', 'HTTPS', 'CNAME', 'MX', 'TXT', 'PTR', 'SRV']));
  });

  it('ships about 200 distinct registered domains', () => {
    expect(POPULAR_DOMAINS.length).toBeGreaterThanOrEqual(200);
    expect(new Set(POPULAR_DOMAINS).size).toBe(POPULAR_DOMAINS.length);
    for (const d of POPULAR_DOMAINS) expect(getDomain(d)).toBe(d);
  });

  it.each(['base32', 'hex'] as const)('tunnel DNS carries long %s labels under one domain at a fixed rate', (encoding) => {
    const events = tunnelDnsEvents(500, { ...tunnelOpts, encoding, srcHost: 'ws-066' });
    const alphabet = encoding === 'hex' ? /^[0-9a-f]+$/ : /^[a-z2-7]+$/;
    const problems = events.flatMap((e, i) => {
      const labels = labelsBefore(e.query, tunnelOpts.domain);
      const checks: [string, boolean][] = [
        ['fixed interval', e.ts === new Date(Date.parse(START) + i * 1_000).toISOString()],
        ['source', e.srcIP === '10.20.0.66' && e.srcHost === 'ws-066'],
        ['under the domain', e.query.endsWith('.data.tunnel-example.net')],
        ['name length', e.query.length <= 253],
        ['label alphabet', labels.every((l) => alphabet.test(l))],
        ['label length', labels.every((l) => l.length <= 63) && labels[0].length >= 48],
        ['payload length', labels.join('').length >= 100],
      ];
      return checks.filter(([, ok]) => !ok).map(([what]) => `#${i} ${what}: ${e.query}`);
    });
    expect(problems).toEqual([]);
    expect(new Set(events.map((e) => e.query)).size).toBe(500);
  });

  it('tunnel DNS keeps queries within 253 characters under a long domain', () => {
    const domain = `${'a'.repeat(60)}.${'b'.repeat(60)}.example.net`;
    const events = tunnelDnsEvents(100, { ...tunnelOpts, domain });
    expect(Math.max(...events.map((e) => e.query.length))).toBeLessThanOrEqual(253);
  });

  it('OAST DNS queries unique callback names under known OAST domains', () => {
    const events = oastDnsEvents(400, { seed: 3, srcIP: '10.20.0.7' });
    const wrong = events.filter((e) => {
      const domain = OAST_DOMAINS.find((d) => e.query.endsWith(`.${d}`));
      if (!domain || e.srcIP !== '10.20.0.7') return true;
      const labels = labelsBefore(e.query, domain);
      return labels.length > 2 || labels[labels.length - 1].length < 6;
    });
    expect(wrong).toEqual([]);
    expect(events.some((e) => e.query.split('.').length > 3)).toBe(true);
    expect(new Set(events.map((e) => e.query)).size).toBe(400);
    const interactsh = events.filter((e) => e.query.endsWith('.oast.fun'));
    expect(interactsh.length).toBeGreaterThan(0);
    const ids = interactsh.map((e) => labelsBefore(e.query, 'oast.fun').pop()!);
    expect(ids.filter((id) => !/^[0-9a-v]{20}[a-z0-9]{13}$/.test(id))).toEqual([]);
  });

  it('IP events pair services with their protocol and plausible counters', () => {
    const events = ipEvents(1_000, { seed: 2 });
    const wrong = events.filter(
      (e) =>
        ((e.destPort === 53 || e.destPort === 123) && e.proto !== 'udp') ||
        ((e.destPort === 80 || e.destPort === 22) && e.proto !== 'tcp') ||
        !(e.packetsIn! >= 1 && e.bytesIn! >= e.packetsIn!) ||
        !['allowed', 'denied'].includes(e.action!),
    );
    expect(wrong).toEqual([]);
    expect(new Set(events.map((e) => e.destPort))).toEqual(new Set([443, 80, 53, 123, 993, 5223, 22]));
  });

  it('IP events send DNS only to the network resolvers, which forward to public upstreams', () => {
    const events = ipEvents(3_000, { seed: 2, subnet: '10.99' });
    const resolvers = networkResolvers({ subnet: '10.99' });
    expect(resolvers).toEqual(['10.99.0.2', '10.99.0.3']);
    const dns = events.filter((e) => e.destPort === 53);
    const fromHosts = dns.filter((e) => !resolvers.includes(e.srcIP!));
    const upstream = dns.filter((e) => resolvers.includes(e.srcIP!));
    expect(fromHosts.filter((e) => !resolvers.includes(e.destIP!)).map((e) => e.destIP)).toEqual([]);
    expect(upstream.length).toBeGreaterThan(0);
    expect(upstream.filter((e) => !/^(8\.8\.[48]\.[48]|1\.[01]\.[01]\.1|9\.9\.9\.9)$/.test(e.destIP!))).toEqual([]);
    expect(events.filter((e) => e.destPort !== 53 && resolvers.includes(e.srcIP!))).toEqual([]);
    const own = ipEvents(500, { seed: 2, resolvers: ['192.168.1.53'] }).filter((e) => e.destPort === 53);
    expect(own.every((e) => e.destIP === '192.168.1.53' || e.srcIP === '192.168.1.53')).toBe(true);
    expect(() => ipEvents(1, { resolvers: [] })).toThrow(/resolvers/);
    expect(() => ipEvents(1, { resolvers: ['dns.local'] })).toThrow(/resolvers/);
  });

  it('IP events reach services inside the published networks of large providers, never network or broadcast addresses', () => {
    const destinations = ipEvents(5_000, { seed: 3 }).filter((e) => e.destPort !== 53).map((e) => e.destIP!);
    const toNumber = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
    const networks = SERVICE_NETWORKS.map((cidr) => {
      const [base, bits] = cidr.split('/');
      return { first: toNumber(base), last: toNumber(base) + 2 ** (32 - Number(bits)) - 1 };
    });
    const outside = destinations.filter((ip) => {
      const n = toNumber(ip);
      return !networks.some((net) => n > net.first && n < net.last);
    });
    expect(outside).toEqual([]);
    // Meta's 31.13.64.0/18, not the hosting providers elsewhere in 31.13.0.0/16.
    expect(destinations.filter((ip) => ip.startsWith('31.13.') && !/^31\.13\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./.test(ip))).toEqual([]);
    expect(new Set(destinations.map((ip) => ip.split('.').slice(0, 2).join('.'))).size).toBeGreaterThan(15);
  });

  it('sessions (HTTP, TLS) go to sites, not to DoH resolvers; Telegram traffic is its apps, not the Bot API', () => {
    const hosts = [
      ...httpEvents(5_000, { seed: 9 }).map((e) => new URL(e.url).hostname),
      ...tlsEvents(5_000, { seed: 9 }).map((e) => e.subject!.slice(3).replace(/^\*\./, '')),
    ];
    expect(hosts.filter((h) => h.endsWith('cloudflare-dns.com'))).toEqual([]);
    const dnsNames = benignDnsEvents(20_000, { seed: 9 }).map((e) => e.query);
    expect(dnsNames.some((q) => q.endsWith('telegram.org'))).toBe(true);
    expect(dnsNames.filter((q) => q === 'api.telegram.org')).toEqual([]);
  });

  it('HTTP events use URLs of popular sites', () => {
    const wrong = httpEvents(500, { seed: 4 }).filter((e) => {
      const url = new URL(e.url);
      return !POPULAR_DOMAINS.includes(getDomain(url.hostname)!) || url.protocol !== `${e.app}:`;
    });
    expect(wrong).toEqual([]);
  });

  it('TLS events present one certificate per name, valid at the time of the handshake', () => {
    const events = tlsEvents(2_000, { seed: 8 });
    const hashesByName = new Map<string, Set<string>>();
    for (const e of events) hashesByName.set(e.subject!, (hashesByName.get(e.subject!) ?? new Set()).add(e.certHash!));
    expect([...hashesByName.values()].filter((hashes) => hashes.size !== 1)).toEqual([]);
    expect(hashesByName.size).toBeLessThan(events.length / 2);
    const wrong = events.filter(
      (e) =>
        !/^[0-9a-f]{40}$/.test(e.certHash!) ||
        !(Date.parse(e.validFrom!) < Date.parse(e.ts) && Date.parse(e.validTo!) > Date.parse(e.ts)),
    );
    expect(wrong).toEqual([]);
  });

  it('lease events end with release or expire and carry a duration otherwise', () => {
    const events = leaseEvents(300, { seed: 1, hosts: 5 });
    const wrong = events.filter(
      (e) =>
        e.termination !== (e.type === 'release' || e.type === 'expire') ||
        (e.duration === undefined) !== e.termination ||
        !/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/.test(e.srcMac!),
    );
    expect(wrong).toEqual([]);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['assign', 'renew', 'release', 'expire']));
    expect(events.some((e) => e.duration !== undefined && !Number.isInteger(e.duration))).toBe(true);
  });

  it('refuses bad arguments with clear errors', () => {
    expect(() => benignDnsEvents(-1)).toThrow(/non-negative integer/);
    expect(() => benignDnsEvents(1.5)).toThrow(/non-negative integer/);
    expect(() => ipEvents(1, { startTs: 'yesterday' })).toThrow(/startTs/);
    expect(() => httpEvents(1, { hosts: 0 })).toThrow(/hosts/);
    expect(() => tlsEvents(1, { subnet: '10.300' })).toThrow(/subnet/);
    expect(() => tunnelDnsEvents(1, { ...tunnelOpts, domain: 'Not A Domain' })).toThrow(/domain/);
    expect(() => tunnelDnsEvents(1, { ...tunnelOpts, intervalMs: -1 })).toThrow(/intervalMs/);
    expect(() => oastDnsEvents(1, { domains: [] })).toThrow(/domains/);
    expect(benignDnsEvents(0)).toEqual([]);
  });
});

describe('withClientQuirks', () => {
  const events = ipEvents(400, { seed: 12 });
  const quirky = withClientQuirks(events, 1);

  it('keeps every event and every value, under old spellings and other time forms', () => {
    expect(quirky).toHaveLength(events.length);
    const changed = quirky.filter((q, i) => {
      const e = events[i];
      return (
        (q.srcIP ?? q.srcIp) !== e.srcIP ||
        (q.destIP ?? q.destIp) !== e.destIP ||
        Date.parse(q.ts as string) !== Date.parse(e.ts) ||
        q.bytesIn !== e.bytesIn
      );
    });
    expect(changed).toEqual([]);
  });

  it('uses each quirk somewhere', () => {
    expect(quirky.some((q) => 'srcIp' in q)).toBe(true);
    expect(quirky.some((q) => 'destIp' in q)).toBe(true);
    expect(quirky.some((q) => /\.\d{9}\+02:00$/.test(q.ts as string))).toBe(true);
    expect(quirky.some((q) => q.srcUser === '')).toBe(true);
    expect(withClientQuirks(events, 1)).toEqual(quirky);
  });
});

describe('NDJSON bodies', () => {
  it('writes one newline-terminated JSON object per line, plain or gzipped', () => {
    const events = benignDnsEvents(25);
    const body = toNdjson(events);
    const lines = body.toString('utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l))).toEqual(events);
    expect(gunzipSync(gzipNdjson(events))).toEqual(body);
    expect(toNdjson([]).length).toBe(0);
  });

  it.each([
    ['1 MB', 1_000_000],
    ['10 MB', 10 * 1024 * 1024],
  ])('builds a %s body that falls short by less than one line', (_label, bytes) => {
    const body = ndjsonBodyOfSize(bytes, (n) => benignDnsEvents(n, { seed: 'bench' }));
    expect(body.length).toBeLessThanOrEqual(bytes);
    const text = body.toString('utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    const longest = Math.max(...lines.map((l) => l.length + 1));
    expect(bytes - body.length).toBeLessThan(longest);
    expect(JSON.parse(lines[lines.length - 1]).query).toEqual(expect.any(String));
    // The body is the start of the generator's sequence.
    expect(lines.slice(0, 3).map((l) => JSON.parse(l))).toEqual(benignDnsEvents(3, { seed: 'bench' }));
  });

  it('grows its request when the first estimate is too small', () => {
    const calls: number[] = [];
    const source = (n: number) => {
      calls.push(n);
      // Lines get shorter further in, so the count estimated from the first events is too small.
      return Array.from({ length: n }, (_, i) => ({ i, pad: 'x'.repeat(i < 16 ? 200 : 1) }));
    };
    const body = ndjsonBodyOfSize(100_000, source);
    expect(body.length).toBeGreaterThan(100_000 - 250);
    expect(calls.length).toBeGreaterThan(2);
  });

  it('stops when the source runs dry, and refuses bad sizes', () => {
    const body = ndjsonBodyOfSize(1_000_000, (n) => benignDnsEvents(Math.min(n, 10)));
    expect(body.toString('utf8').trim().split('\n')).toHaveLength(10);
    expect(() => ndjsonBodyOfSize(0, (n) => benignDnsEvents(n))).toThrow(/positive integer/);
    expect(() => ndjsonBodyOfSize(100, () => [])).toThrow(/no events/);
  });
});
