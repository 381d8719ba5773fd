import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import type { IndicatorRecord } from './indicator';
import { IndicatorIndex, IndicatorIndexBuilder } from './indicator-index';
import { DEFAULT_SEED_PATH, IndicatorStore } from './indicator-store';
import { parseList } from './list-formats';

function indexOf(records: IndicatorRecord[]): IndicatorIndex {
  const builder = new IndicatorIndexBuilder(1_000_000);
  for (const record of records) builder.add(record);
  return builder.build();
}

/** Every lookup of `value` on both indexes: the packed one must answer exactly as the Map-based one. */
function expectSameAnswers(maps: IndicatorIndex, packed: IndicatorIndex, value: string): void {
  expect(packed.matchDomain(value)).toEqual(maps.matchDomain(value));
  expect(packed.matchIp(value)).toEqual(maps.matchIp(value));
  expect(packed.matchIpPort(value, 443)).toEqual(maps.matchIpPort(value, 443));
  expect(packed.matchUrl(value)).toEqual(maps.matchUrl(value));
  expect(packed.matchJa3(value)).toEqual(maps.matchJa3(value));
  expect(packed.matchJa3s(value)).toEqual(maps.matchJa3s(value));
  expect(packed.matchCert(value)).toEqual(maps.matchCert(value));
}

// Loading the whole committed seed takes about a second on a quiet machine and more than four under the full test
// run's load, past jest's default 5 s.
const SEED_TEST_TIMEOUT_MS = 30_000;

describe('packed indicator tables', () => {
  const records: IndicatorRecord[] = [
    { kind: 'domain', value: 'evil.example', label: 'c2:Emotet', source: 'a' },
    { kind: 'domain', value: 'evil.example', label: 'phishing:kit', source: 'b' },
    { kind: 'domain', value: 'xn--bcher-kva.example', label: 'c2:Other', source: 'a' },
    { kind: 'ip', value: '255.255.255.254', label: 'c2:High', source: 'a' },
    { kind: 'ip', value: '0.0.0.1', label: 'c2:Low', source: 'a' },
    { kind: 'ip', value: '2001:db8::7', label: 'c2:Six', source: 'a' },
    { kind: 'cidr', value: '198.51.100.0/24', label: 'sinkhole:x', source: 'a' },
    { kind: 'cidr', value: '2001:db8:ff00::/40', label: 'sinkhole:y', source: 'a' },
    { kind: 'ip_port', value: '192.0.2.10:443', label: 'c2:AsyncRAT', source: 'a' },
    { kind: 'url', value: 'http://bad.example/gate.php?q=%C3%A9', label: 'c2:Mirai', source: 'a' },
    { kind: 'url', value: '/bins/mirai.arm7', label: 'c2:Mirai', source: 'a' },
    { kind: 'ja3', value: '72a589da586844d7f0818ce684948eea', label: 'c2:Cobalt Strike', source: 'a' },
    { kind: 'ja3s', value: 'b742b407517bac9536a77a7b0fee28e9', label: 'c2:Cobalt Strike', source: 'a' },
    { kind: 'cert', value: '6ece5ece4192683d2d84e25b0ba7e04f9cb7eb7c', label: 'c2:Cobalt Strike', source: 'a' },
  ];
  const maps = indexOf(records);
  const packed = IndicatorIndex.fromPacked(maps.pack());

  it('answers every kind of lookup as the Map-based index does, hits and misses alike', () => {
    const probes = [
      'evil.example', 'a.b.evil.example.', 'notevil.example', 'xn--bcher-kva.example', '255.255.255.254', '0.0.0.1', '0.0.0.2',
      '2001:db8::7', '198.51.100.9', '2001:db8:ffab::1', '192.0.2.10', 'http://bad.example/gate.php', 'https://x.example/bins/mirai.arm7',
      '72A589DA586844D7F0818CE684948EEA', 'b742b407517bac9536a77a7b0fee28e9', '6E:CE:5E:CE:41:92:68:3D:2D:84:E2:5B:0B:A7:E0:4F:9C:B7:EB:7C', '',
    ];
    for (const probe of probes) expectSameAnswers(maps, packed, probe);
    expect(packed.matchDomain('x.evil.example').map((m) => m.label)).toEqual(['c2:Emotet', 'phishing:kit']);
    expect(packed.matchIp('255.255.255.254')[0].family).toBe('High');
    expect(packed.counts).toEqual(maps.counts);
    expect(packed.size).toBe(maps.size);
  });

  it('finds addresses at the edges of nested and adjacent networks, and ip:port indicators only on their host and port', () => {
    const networks = indexOf([
      { kind: 'cidr', value: '203.0.113.0/25', label: 'scanner:low', source: 'a' },
      { kind: 'cidr', value: '203.0.113.128/25', label: 'scanner:high', source: 'a' },
      { kind: 'cidr', value: '100.64.0.0/10', label: 'sinkhole:wide', source: 'a' },
      { kind: 'cidr', value: '100.64.8.0/24', label: 'c2:narrow', source: 'a' },
      { kind: 'ip', value: '100.64.8.9', label: 'c2:one', source: 'a' },
      { kind: 'ip_port', value: '192.0.2.10:8443', label: 'c2:port', source: 'a' },
      { kind: 'ip_port', value: '[2001:db8::5]:443', label: 'c2:six', source: 'a' },
    ]);
    for (const index of [networks, IndicatorIndex.fromPacked(networks.pack())]) {
      const labels = (address: string) => index.matchIp(address).map((m) => m.label);
      expect(labels('203.0.112.255')).toEqual([]);
      expect(labels('203.0.113.0')).toEqual(['scanner:low']);
      expect(labels('203.0.113.127')).toEqual(['scanner:low']);
      expect(labels('203.0.113.128')).toEqual(['scanner:high']);
      expect(labels('203.0.113.255')).toEqual(['scanner:high']);
      expect(labels('203.0.114.0')).toEqual([]);
      expect(labels('100.63.255.255')).toEqual([]);
      expect(labels('100.64.0.0')).toEqual(['sinkhole:wide']);
      expect(labels('100.64.8.9')).toEqual(['c2:one', 'c2:narrow', 'sinkhole:wide']);
      expect(labels('100.127.255.255')).toEqual(['sinkhole:wide']);
      expect(labels('100.128.0.0')).toEqual([]);
      expect(labels('::ffff:100.64.8.1')).toEqual(['c2:narrow', 'sinkhole:wide']);
      expect(index.matchIpPort('192.0.2.10', 8443).map((m) => m.label)).toEqual(['c2:port']);
      expect(index.matchIpPort('192.0.2.10', 443)).toEqual([]);
      expect(index.matchIpPort('192.0.2.11', 8443)).toEqual([]);
      expect(index.matchIpPort('2001:db8::5', 443).map((m) => m.label)).toEqual(['c2:six']);
    }
  });

  it('cannot be packed twice', () => {
    expect(() => packed.pack()).toThrow(/already packed/);
  });

  it('answers as the Map-based index on a sample of the committed seed (every 53rd indicator) and on near misses', () => {
    const STRIDE = 53;
    const seedRecords: IndicatorRecord[] = [];
    parseList(gunzipSync(readFileSync(DEFAULT_SEED_PATH)).toString('utf8'), 'vigil', { source: 'seed' }, (record) => void seedRecords.push(record));
    const seedMaps = indexOf(seedRecords);
    const seedPacked = IndicatorIndex.fromPacked(seedMaps.pack());
    let hits = 0;
    for (let i = 0; i < seedRecords.length; i += STRIDE) {
      const { value } = seedRecords[i];
      expectSameAnswers(seedMaps, seedPacked, value);
      expectSameAnswers(seedMaps, seedPacked, `x${value}`);
      if (seedPacked.matchDomain(value).length + seedPacked.matchIp(value).length + seedPacked.matchUrl(value).length > 0) hits++;
    }
    expect(hits).toBeGreaterThan(seedRecords.length / STRIDE / 2);
  }, SEED_TEST_TIMEOUT_MS);

  it('is shared with a worker thread, not copied, and answers there', async () => {
    const store = new IndicatorStore();
    const seed = store.sharedSeed!;
    expect(seed.indicators.buffer).toBeInstanceOf(SharedArrayBuffer);
    const worker = new Worker(
      `const { parentPort, workerData } = require('node:worker_threads');
       const bytes = new Uint8Array(workerData.buffer);
       parentPort.postMessage({ first: bytes[0], length: bytes.length });
       bytes[0] = bytes[0] ^ 0xff;
       parentPort.postMessage('written');`,
      { eval: true, workerData: seed.indicators },
    );
    const before = new Uint8Array(seed.indicators.buffer)[0];
    const messages: unknown[] = [];
    await new Promise<void>((resolve, reject) => {
      worker.on('message', (message) => {
        messages.push(message);
        if (message === 'written') resolve();
      });
      worker.on('error', reject);
    });
    await worker.terminate();
    expect(messages[0]).toEqual({ first: before, length: seed.indicators.buffer.byteLength });
    // The worker's write is visible here: one buffer, not a copy. Restore it before using the table.
    const bytes = new Uint8Array(seed.indicators.buffer);
    expect(bytes[0]).toBe(before ^ 0xff);
    bytes[0] = before;
    const adopted = new IndicatorStore({ seed });
    expect(adopted.size).toBe(store.size);
    expect(adopted.lists()[0]).toEqual(store.lists()[0]);
    const seedDomain = 'www.' + gunzipSync(readFileSync(DEFAULT_SEED_PATH)).toString('utf8').split('\n').find((line) => /^[a-z0-9-]+\.[a-z]+$/.test(line))!;
    expect(adopted.matchDomain(seedDomain).length).toBeGreaterThan(0);
    expect(adopted.matchDomain(seedDomain)).toEqual(store.matchDomain(seedDomain));
  }, SEED_TEST_TIMEOUT_MS);
});
