import { spawn } from 'child_process';
import { existsSync, promises as fs, readdirSync, statSync } from 'fs';
import * as path from 'path';
import type { TopicSpec } from '@vigil/contracts';
import type { ConsumedRecord } from '../bus';
import { DURABILITY_TOPIC, recordNumber } from './fixtures/durability-records';
import { collector, makeTempDir, memoryLog, removeDir, waitUntil } from './fixtures/test-helpers';
import { LocalBus, type LocalBusOptions } from './local-bus';

const REPO_ROOT = path.resolve(__dirname, '../../../..');
const CHILD = path.join(__dirname, 'fixtures', 'publish-until-killed.ts');
const CONTROL: TopicSpec = { name: 'ctl.rules.v1', partitions: 1, cleanup: 'compact' };

async function readAll(bus: LocalBus, topic: string): Promise<ConsumedRecord[]> {
  const seen = collector();
  const reader = await bus.subscribe({ topic }, seen.handler);
  await reader.caughtUp;
  await reader.close();
  return seen.records;
}

function segmentFiles(dir: string, topic: string, partition = 0): string[] {
  const partitionDir = path.join(dir, topic, String(partition));
  return readdirSync(partitionDir)
    .filter((name) => name.endsWith('.log'))
    .sort()
    .map((name) => path.join(partitionDir, name));
}

describe('LocalBus durability', () => {
  let dir: string;
  const open: LocalBus[] = [];

  async function openBus(extra: Partial<LocalBusOptions> = {}): Promise<LocalBus> {
    const bus = await LocalBus.open({ dir, topics: [CONTROL, DURABILITY_TOPIC], log: memoryLog().log, ...extra });
    open.push(bus);
    return bus;
  }

  beforeEach(() => {
    dir = makeTempDir('durable');
  });

  afterEach(async () => {
    await Promise.all(open.splice(0).map((bus) => bus.close()));
    removeDir(dir);
  });

  it('keeps every acknowledged record when the publishing process is killed with SIGKILL', async () => {
    const child = spawn(process.execPath, ['-r', './tools/register.cjs', CHILD, dir], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acknowledged = new Set<number>();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    let pending = '';
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const match = /^published (\d+)$/.exec(line);
        if (match) acknowledged.add(Number(match[1]));
      }
      // Kill while publishes are still in flight, right after an acknowledgement.
      if (acknowledged.size >= 400 && child.exitCode === null && !child.killed) child.kill('SIGKILL');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const signal = await exited;
    clearTimeout(timer);
    expect({ signal, stderr }).toEqual({ signal: 'SIGKILL', stderr: '' });
    expect(acknowledged.size).toBeGreaterThanOrEqual(400);
    expect(existsSync(path.join(dir, 'LOCK'))).toBe(true); // left behind by the dead process, taken over below

    const bus = await openBus();
    const records = await readAll(bus, DURABILITY_TOPIC.name);
    const numbers = records.map((r) => recordNumber(r.value));
    const stored = new Set(numbers);
    expect([...acknowledged].filter((n) => !stored.has(n))).toEqual([]);
    expect(stored.size).toBe(numbers.length); // no record stored twice
    expect(records.every((r) => r.headers?.n === String(recordNumber(r.value)))).toBe(true);
    // The child submits record n before n+1, so per key the numbers must rise with the offset.
    for (const key of new Set(records.map((r) => r.key))) {
      const ofKey = records.filter((r) => r.key === key).sort((a, b) => Number(a.offset) - Number(b.offset));
      expect(new Set(ofKey.map((r) => r.partition)).size).toBe(1);
      const inOrder = ofKey.map((r) => recordNumber(r.value));
      expect(inOrder).toEqual([...inOrder].sort((a, b) => a - b));
    }
    // The reopened log keeps appending after what survived.
    const before = records.filter((r) => r.partition === 0).length;
    await bus.publish(DURABILITY_TOPIC.name, [{ key: 'ws1|10.0.0.1', value: Buffer.from('999999\nafter') }]);
    const again = await readAll(bus, DURABILITY_TOPIC.name);
    expect(again).toHaveLength(records.length + 1);
    expect(again.some((r) => r.value.toString().endsWith('after'))).toBe(true);
    expect(before).toBeGreaterThan(0);
  }, 20_000);

  it('resumes a group from its committed offset after a restart: handled records are not redelivered, unhandled ones are', async () => {
    const first = await openBus({ retryBackoffMs: { initial: 10, max: 20 } });
    const value = (n: number) => Buffer.from(`rule-${n}`);
    await first.publish(CONTROL.name, [0, 1, 2, 3, 4].map((n) => ({ key: `r${n}`, value: value(n) })));
    let failing = false;
    const attempts: string[][] = [];
    const member = await first.subscribe({ topic: CONTROL.name, group: 'rules-loader' }, async (batch) => {
      attempts.push(batch.records.map((r) => r.offset));
      if (failing) throw new Error('not today');
    });
    await member.caughtUp;
    failing = true;
    await first.publish(CONTROL.name, [5, 6, 7].map((n) => ({ key: `r${n}`, value: value(n) })));
    await waitUntil(() => attempts.length >= 3, 2000, 'retries of the failing batch');
    expect(attempts[0]).toEqual(['0', '1', '2', '3', '4']);
    expect(attempts.slice(1).every((a) => a.join() === '5,6,7')).toBe(true);
    await first.close();
    const saved = JSON.parse(await fs.readFile(path.join(dir, '_groups', 'rules-loader.json'), 'utf8'));
    expect(saved.topics[CONTROL.name].partitions).toEqual({ 0: 5 });

    const second = await openBus();
    const resumed = collector();
    const again = await second.subscribe({ topic: CONTROL.name, group: 'rules-loader' }, resumed.handler);
    await again.caughtUp;
    expect(resumed.records.map((r) => r.offset)).toEqual(['5', '6', '7']);
    expect(resumed.records.map((r) => r.value.toString())).toEqual(['rule-5', 'rule-6', 'rule-7']);
    const fresh = collector();
    await (await second.subscribe({ topic: CONTROL.name, group: 'another-group' }, fresh.handler)).caughtUp;
    expect(fresh.records).toHaveLength(8);
  });

  it('writes group offsets to disk shortly after a commit, without waiting for close', async () => {
    const bus = await openBus({ offsetFlushDelayMs: 20 });
    await bus.publish(CONTROL.name, [{ key: 'a', value: Buffer.from('1') }, { key: 'b', value: Buffer.from('2') }]);
    await (await bus.subscribe({ topic: CONTROL.name, group: 'a group/with odd..chars' }, async () => undefined)).caughtUp;
    const file = path.join(dir, '_groups', `${encodeURIComponent('a group/with odd..chars').replace(/\./g, '%2E')}.json`);
    await waitUntil(() => existsSync(file), 2000, 'the offsets file');
    const saved = JSON.parse(await fs.readFile(file, 'utf8'));
    expect(saved).toMatchObject({ group: 'a group/with odd..chars', topics: { [CONTROL.name]: { partitions: { 0: 2 } } } });
  });

  const damages: [string, (file: string, size: number) => Promise<void>, number][] = [
    ['random garbage appended', (file) => fs.appendFile(file, Buffer.from('\x00\x00\x01\x00garbage that is not a record')), 5],
    ['a zero-filled block appended', (file) => fs.appendFile(file, Buffer.alloc(4096)), 5],
    ['the last record cut short', (file, size) => fs.truncate(file, size - 7), 4],
    ['the last record half written', (file, size) => fs.truncate(file, size - 30), 4],
  ];

  it.each(damages)('recovers from a torn tail (%s): earlier records intact, new publishes work', async (_label, damage, survivors) => {
    const bus = await openBus();
    await bus.publish(CONTROL.name, [0, 1, 2, 3, 4].map((n) => ({ key: `k${n}`, value: Buffer.alloc(20, n) })));
    await bus.close();
    const [segment] = segmentFiles(dir, CONTROL.name);
    await damage(segment, statSync(segment).size);

    const log = memoryLog();
    const reopened = await openBus({ log: log.log });
    expect(log.lines.some((line) => /dropping \d+ bytes at the end of .*ctl.rules.v1/.test(line))).toBe(true);
    const records = await readAll(reopened, CONTROL.name);
    expect(records.map((r) => r.key)).toEqual([0, 1, 2, 3, 4].slice(0, survivors).map((n) => `k${n}`));
    expect(records.every((r, n) => r.value.equals(Buffer.alloc(20, n)))).toBe(true);
    await reopened.publish(CONTROL.name, [{ key: 'new', value: Buffer.from('fresh') }]);
    await reopened.close();

    const quiet = memoryLog();
    const third = await openBus({ log: quiet.log });
    const after = await readAll(third, CONTROL.name);
    expect(after.map((r) => r.offset)).toEqual(Array.from({ length: survivors + 1 }, (_, i) => String(i)));
    expect(after[survivors].value.toString()).toBe('fresh');
    expect(quiet.lines).toEqual([]);
  });

  it('skips a corrupted older segment with a warning instead of serving it or crashing', async () => {
    const bus = await openBus({ segmentBytes: 4096 });
    for (let n = 0; n < 30; n += 1) await bus.publish(CONTROL.name, [{ key: `k${n}`, value: Buffer.alloc(900, n) }]);
    await bus.close();
    const segments = segmentFiles(dir, CONTROL.name);
    expect(segments.length).toBeGreaterThan(3);
    const victim = await fs.open(segments[1], 'r+');
    await victim.write(Buffer.from([0xff, 0xee]), 0, 2, 1500);
    await victim.close();

    const log = memoryLog();
    const reopened = await openBus({ log: log.log });
    const records = await readAll(reopened, CONTROL.name);
    const offsets = records.map((r) => Number(r.offset));
    const secondBase = Number(path.basename(segments[1], '.log'));
    const thirdBase = Number(path.basename(segments[2], '.log'));
    expect(offsets.filter((o) => o < secondBase)).toEqual(Array.from({ length: secondBase }, (_, i) => i));
    expect(offsets.filter((o) => o >= thirdBase)).toEqual(Array.from({ length: 30 - thirdBase }, (_, i) => thirdBase + i));
    expect(offsets.filter((o) => o >= secondBase && o < thirdBase).length).toBeLessThan(thirdBase - secondBase);
    expect(records.every((r) => r.value.equals(Buffer.alloc(900, Number(r.offset))))).toBe(true);
    expect(log.lines.some((line) => line.includes('corrupt data') && line.includes(segments[1]))).toBe(true);
  });

  it('refuses to open with a damaged group offsets file, naming it, and leaves the directory unlocked', async () => {
    const bus = await openBus();
    await bus.close();
    const file = path.join(dir, '_groups', 'scoring.json');
    await fs.writeFile(file, '{"version":1,"group":"scoring","topics":{"x":{"committedAt":1,"partitions":{"0":-4}}}}');
    await expect(LocalBus.open({ dir, topics: [CONTROL] })).rejects.toThrow(/scoring\.json is invalid \(bad offset for x\/0\)/);
    await fs.writeFile(file, 'not json');
    await expect(LocalBus.open({ dir, topics: [CONTROL] })).rejects.toThrow(/scoring\.json is invalid \(not JSON/);
    await fs.rm(file);
    await expect(openBus()).resolves.toBeInstanceOf(LocalBus);
  });
});
