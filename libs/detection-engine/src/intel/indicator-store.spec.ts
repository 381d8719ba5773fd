import { makeTempDir, type TempDir } from '@vigil/testing';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { splitHostname } from '../domain';
import { IndicatorLimitError } from './indicator-index';
import { DEFAULT_SEED_PATH, IndicatorStore } from './indicator-store';

const LIST = [
  '@domain\tc2:Emotet\ttest:list',
  'evil.example',
  '@ip\tc2:Emotet\ttest:list',
  '203.0.113.7',
  '2001:db8::7',
  '@cidr\tsinkhole:test\ttest:list',
  '198.51.100.0/24',
  '2001:db8:ff00::/40',
  '@ip_port\tc2:AsyncRAT\ttest:list',
  '192.0.2.10:4782',
  '[2001:db8::10]:8443',
  '@url\tc2:Mirai\ttest:list',
  'http://bad.example:8080/gate.php',
  '/bins/mirai.arm7',
  '@ja3\tc2:Cobalt Strike\ttest:list',
  '72A589DA586844D7F0818CE684948EEA',
  '@ja3s\tc2:Cobalt Strike\ttest:list',
  'b742b407517bac9536a77a7b0fee28e9',
  '@cert\tc2:Cobalt Strike\ttest:list',
  '6E:CE:5E:CE:41:92:68:3D:2D:84:E2:5B:0B:A7:E0:4F:9C:B7:EB:7C',
  '',
].join('\n');

describe('IndicatorStore lookups by kind', () => {
  let dir: TempDir;
  const store = new IndicatorStore({ seed: false });

  beforeAll(async () => {
    dir = makeTempDir('intel-store-');
    writeFileSync(join(dir.path, 'list.vigil'), LIST);
    await store.loadList(join(dir.path, 'list.vigil'), 'vigil');
  });
  afterAll(() => dir.cleanup());

  it('matches a domain and every name under it, most specific indicator first', () => {
    expect(store.matchDomain('evil.example')[0]).toMatchObject({ indicator: 'evil.example', label: 'c2:Emotet', family: 'Emotet', source: 'test:list' });
    expect(store.matchDomain('a.b.evil.example.')[0].indicator).toBe('evil.example');
    expect(store.matchDomain('notevil.example')).toHaveLength(0);
    expect(store.matchDomain('evil.example.com')).toHaveLength(0);
  });

  it('matches IPv4 and IPv6 addresses in any spelling, and networks around them', () => {
    expect(store.matchIp('203.0.113.7')[0].kind).toBe('ip');
    expect(store.matchIp('2001:0db8:0000::0007')[0].kind).toBe('ip');
    expect(store.matchIp('::ffff:203.0.113.7')[0].kind).toBe('ip');
    expect(store.matchIp('198.51.100.200')[0]).toMatchObject({ kind: 'cidr', indicator: '198.51.100.0/24', category: 'sinkhole' });
    expect(store.matchIp('198.51.101.1')).toHaveLength(0);
    expect(store.matchIp('2001:db8:ffab::1')[0].kind).toBe('cidr');
    expect(store.matchIp('2001:db8:fe00::1')).toHaveLength(0);
    expect(store.matchIp('not an ip')).toHaveLength(0);
  });

  it('matches address:port only on that port', () => {
    expect(store.matchIpPort('192.0.2.10', 4782)[0].label).toBe('c2:AsyncRAT');
    expect(store.matchIpPort('192.0.2.10', 443)).toHaveLength(0);
    expect(store.matchIpPort('2001:db8::10', 8443)).toHaveLength(1);
  });

  it('matches URLs by host, port and path, ignoring scheme case and query; path-only indicators on any host', () => {
    expect(store.matchUrl('HTTP://Bad.Example:8080/gate.php?id=1')).toHaveLength(1);
    expect(store.matchUrl('bad.example:8080/gate.php')).toHaveLength(1);
    expect(store.matchUrl('http://bad.example/gate.php')).toHaveLength(0);
    expect(store.matchUrl('http://203.0.113.99/bins/mirai.arm7')[0]).toMatchObject({ indicator: '/bins/mirai.arm7', family: 'Mirai' });
    expect(store.matchUrl('http://good.example/')).toHaveLength(0);
  });

  it('matches URLs written every way a sensor writes them, and nothing on other paths', () => {
    for (const url of ['//bad.example:8080/gate.php', 'http://user:pw@BAD.example.:8080/gate.php#top', '  bad.example:8080/gate.php?x  ']) {
      expect(store.matchUrl(url)).toHaveLength(1);
    }
    for (const url of ['/bins/mirai.arm7?arch=7', 'https://[2001:db8::1]:8443/bins/mirai.arm7']) {
      expect(store.matchUrl(url)[0]).toMatchObject({ indicator: '/bins/mirai.arm7' });
    }
    for (const url of ['bad.example:8080/gate.PHP', 'bad.example:8080/gate.php/', 'bad.example:8080/', 'bad.example:8080', '/bins', 'http://bad .example:8080/gate.php']) {
      expect(store.matchUrl(url)).toHaveLength(0);
    }
  });

  it('matches JA3, JA3S and certificate hashes case-insensitively and with separators', () => {
    expect(store.matchJa3('72a589da586844d7f0818ce684948eea')).toHaveLength(1);
    expect(store.matchJa3s('B742B407517BAC9536A77A7B0FEE28E9')).toHaveLength(1);
    expect(store.matchJa3('b742b407517bac9536a77a7b0fee28e9')).toHaveLength(0);
    expect(store.matchCert('6ece5ece4192683d2d84e25b0ba7e04f9cb7eb7c')).toHaveLength(1);
    expect(store.matchCert('zz')).toHaveLength(0);
  });

  it('counts what it holds', () => {
    expect(store.counts).toEqual({ domain: 1, ip: 2, cidr: 2, ip_port: 2, url: 2, ja3: 1, ja3s: 1, cert: 1 });
    expect(store.size).toBe(12);
  });
});

describe('IndicatorStore run-time lists', () => {
  let dir: TempDir;
  beforeEach(() => (dir = makeTempDir('intel-lists-')));
  afterEach(() => dir.cleanup());

  it('refreshes a list from its file without a restart, swapping the whole set at once', async () => {
    const store = new IndicatorStore({ seed: false });
    const file = join(dir.path, 'feed.txt');
    writeFileSync(file, '# feed\nold-c2.example\n203.0.113.1\n');
    const loaded = await store.loadList(file, 'lines', { label: 'c2:Feed', name: 'feed' });
    expect(loaded).toMatchObject({ name: 'feed', skipped: 0 });
    expect(store.matchDomain('old-c2.example')).toHaveLength(1);

    writeFileSync(file, gzipSync('new-c2.example\n203.0.113.2:8080\n'));
    const report = await store.refresh();
    expect(report.indicators).toBe(2);
    expect(store.matchDomain('old-c2.example')).toHaveLength(0);
    expect(store.matchDomain('x.new-c2.example')).toHaveLength(1);
    expect(store.matchIpPort('203.0.113.2', 8080)).toHaveLength(1);
  });

  it('answers a split name from the matches kept with its split until the lists change, for each store on its own', async () => {
    const store = new IndicatorStore({ seed: false });
    const other = new IndicatorStore({ seed: false });
    const file = join(dir.path, 'feed.txt');
    writeFileSync(file, 'c2.example\n');
    await store.loadList(file, 'lines', { label: 'c2:Feed', name: 'feed' });
    const split = splitHostname('beacon.c2.example')!;
    expect(store.matchSplitDomain(split).map((m) => m.indicator)).toEqual(['c2.example']);
    // The same split object, another store: its own answer, not the one kept for the first.
    expect(other.matchSplitDomain(split)).toHaveLength(0);
    expect(store.matchSplitDomain(split)).toHaveLength(1);

    writeFileSync(file, 'beacon.c2.example\nother.example\n');
    await store.refresh();
    expect(store.matchSplitDomain(split).map((m) => m.indicator)).toEqual(['beacon.c2.example']);
    await store.unloadList('feed');
    expect(store.matchSplitDomain(split)).toHaveLength(0);
    expect(store.matchSplitDomain(split)).toEqual(store.matchDomain('beacon.c2.example'));
  });

  it('keeps a list in force when its source fails on refresh, and reports the error', async () => {
    const store = new IndicatorStore({ seed: false });
    const file = join(dir.path, 'feed.txt');
    writeFileSync(file, 'kept.example\n');
    await store.loadList(file, 'lines', { label: 'c2:Feed' });
    dir.cleanup();
    const report = await store.refresh();
    expect(report.lists[0].error).toMatch(/ENOENT/);
    expect(store.matchDomain('kept.example')).toHaveLength(1);
  });

  it('loads from a URL, and re-fetches it on refresh', async () => {
    let body = 'first.example\n';
    const server: Server = createServer((_req, res) => res.end(body));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed`;
      const store = new IndicatorStore({ seed: false });
      await store.loadList(url, 'lines', { label: 'miner:pool' });
      expect(store.matchDomain('pool.first.example')[0].category).toBe('miner');
      body = 'second.example\n';
      await store.refresh();
      expect(store.matchDomain('first.example')).toHaveLength(0);
      expect(store.matchDomain('second.example')).toHaveLength(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads the shared trail TSV format with a category', async () => {
    const store = new IndicatorStore({ seed: false });
    const file = join(dir.path, 'trails.tsv');
    writeFileSync(file, 'indicator\tkind\tfamily\nbad.example\tdomain\tek_rig\n10.9.9.9:80\tip_port\tek_rig\nbroken\tnokind\tx\n');
    const summary = await store.loadList(file, 'tsv', { category: 'malicious' });
    expect(summary.skipped).toBe(1);
    expect(store.matchDomain('bad.example')[0].label).toBe('malicious:ek_rig');
  });

  it('rejects bad input with a clear error and changes nothing', async () => {
    const store = new IndicatorStore({ seed: false, maxIndicators: 3 });
    const good = join(dir.path, 'good.txt');
    writeFileSync(good, 'a.example\n');
    await store.loadList(good, 'lines', { label: 'c2:A' });

    const big = join(dir.path, 'big.txt');
    writeFileSync(big, 'b.example\nc.example\nd.example\n');
    await expect(store.loadList(big, 'lines', { label: 'c2:B' })).rejects.toBeInstanceOf(IndicatorLimitError);
    await expect(store.loadList(good, 'lines')).rejects.toThrow(/needs a label/);
    await expect(store.loadList(good, 'lines', { label: 'nocategory' })).rejects.toThrow(/invalid intel label/);
    await expect(store.loadList(good, 'xml' as never)).rejects.toThrow(/unknown intel list format/);
    await expect(store.loadList(join(dir.path, 'missing.txt'), 'lines', { label: 'c2:A' })).rejects.toThrow(/ENOENT/);
    const headless = join(dir.path, 'headless.vigil');
    writeFileSync(headless, 'x.example\n');
    await expect(store.loadList(headless, 'vigil')).rejects.toThrow(/before the first @<kind> group header/);
    const bomb = join(dir.path, 'bomb.gz');
    writeFileSync(bomb, gzipSync(Buffer.alloc(4096, 0x61)));
    await expect(new IndicatorStore({ seed: false, maxListBytes: 1024 }).loadList(bomb, 'lines', { label: 'c2:A' })).rejects.toThrow(/cannot decompress/);

    expect(store.size).toBe(1);
    expect(store.matchDomain('a.example')).toHaveLength(1);
    expect(store.matchDomain('b.example')).toHaveLength(0);
    expect(store.lists().map((l) => l.name)).toEqual([good]);
  });
});

describe('IndicatorStore seed', () => {
  const started = performance.now();
  const store = new IndicatorStore();
  const loadMs = performance.now() - started;

  it('loads the committed seed with every category the detections use', () => {
    expect(store.size).toBeGreaterThan(400_000);
    expect(store.matchDomain('x.duckdns.org').map((m) => m.label)).toContain('freedns:dynamic-dns');
    expect(store.matchDomain('dns.google').map((m) => m.category)).toContain('doh');
    expect(store.matchIp('8.8.8.8').map((m) => m.category)).toEqual(expect.arrayContaining(['doh', 'resolver']));
    expect(store.matchIp('149.154.167.220')[0].label).toBe('telegram:network');
    expect(store.matchDomain('abc.ngrok-free.app')[0].category).toBe('tunnel');
    expect(store.matchDomain('0debug.cc')[0]).toMatchObject({ category: 'c2', source: 'maltrail:malware' });
    expect(store.counts.ip_port).toBeGreaterThan(10_000);
    expect(store.counts.url).toBeGreaterThan(1_000);
  });

  it('finds every URL indicator of the seed from a request to it', () => {
    const urls: string[] = [];
    let section = '';
    for (const line of gunzipSync(readFileSync(DEFAULT_SEED_PATH)).toString('utf8').split('\n')) {
      if (line.startsWith('@')) section = line.split('\t')[0];
      else if (section === '@url' && line.includes('/') && !/\s/.test(line)) urls.push(line);
    }
    expect(urls.length).toBeGreaterThan(1_000);
    const missed = urls.filter((url) => store.matchUrl(url.startsWith('/') ? `http://any.example${url}?q=1` : `${url}?q=1`).length === 0);
    // A URL indicator whose path is the root matches no request path ('/' is every site's).
    expect(missed.filter((url) => !/^[^/]+\/?$/.test(url.replace(/^[a-z]+:\/\//i, '')))).toEqual([]);
  });

  it('layers run-time lists over the seed: sizes add up, the most specific match comes first, the seed stays', async () => {
    const dir = makeTempDir('intel-layer-');
    try {
      const seedSize = store.size;
      const file = join(dir.path, 'ops.txt');
      writeFileSync(file, 'branch.host.duckdns.org\n');
      await store.loadList(file, 'lines', { label: 'c2:OpsFeed', name: 'ops' });
      expect(store.size).toBe(seedSize + 1);
      expect(store.lists().map((l) => l.name)).toEqual(['seed', 'ops']);
      const matches = store.matchDomain('a.branch.host.duckdns.org');
      expect(matches[0]).toMatchObject({ indicator: 'branch.host.duckdns.org', label: 'c2:OpsFeed' });
      expect(matches.length).toBeGreaterThan(1);
      expect(matches.slice(1).filter((m) => m.indicator !== 'duckdns.org')).toEqual([]);
      await store.refresh();
      expect(store.size).toBe(seedSize + 1);
      expect(await store.unloadList('ops')).toBe(true);
      expect(store.size).toBe(seedSize);
      expect(store.matchDomain('a.branch.host.duckdns.org').filter((m) => m.indicator !== 'duckdns.org')).toEqual([]);
    } finally {
      dir.cleanup();
    }
  });

  it('keeps popular names out of the threat categories', () => {
    for (const name of ['google.com', 'www.microsoft.com', 'github.com', 'cloudflare.com']) {
      expect(store.matchDomain(name).filter((m) => ['c2', 'malicious', 'miner', 'sinkhole'].includes(m.category))).toEqual([]);
    }
  });

  // The cost is printed, not asserted: timing belongs to benchmarks (bench/detections.ts), not to unit tests.
  it('finds nothing for 100,000 names and addresses in no list (and prints the lookup cost)', () => {
    const names = Array.from({ length: 50_000 }, (_, i) => `host${i}.cdn${i % 97}.example-${i % 1000}.com`);
    const ips = Array.from({ length: 50_000 }, (_, i) => `10.${i & 255}.${(i >> 8) & 255}.7`);
    let hits = 0;
    const t0 = performance.now();
    for (const name of names) hits += store.matchDomain(name).length;
    const t1 = performance.now();
    for (const ip of ips) hits += store.matchIp(ip).length;
    const t2 = performance.now();
    const domainUs = ((t1 - t0) * 1000) / names.length;
    const ipUs = ((t2 - t1) * 1000) / ips.length;
    console.log(`intel lookups: domain ${domainUs.toFixed(2)} µs, ip ${ipUs.toFixed(2)} µs, seed load ${loadMs.toFixed(0)} ms`);
    expect(hits).toBe(0);
  });
});
