import { writeZip } from '../testing/zip-writer';
import { RULE_ZIP_LIMITS, readRuleZip, unsafeEntryName, ZipRejectedError } from './zip-reader';

const rule = (n: number) => `title: Rule ${n}\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query: x${n}.example\n  condition: sel\n`;

async function rejection(buffer: Buffer): Promise<ZipRejectedError> {
  const error = await readRuleZip(buffer).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ZipRejectedError);
  return error as ZipRejectedError;
}

describe('readRuleZip', () => {
  it('reads stored and deflated rule files and lists other files as ignored', async () => {
    const zip = writeZip([
      { name: 'rules/', data: '' , method: 'store' },
      { name: 'rules/a.yml', data: rule(1), method: 'store' },
      { name: 'rules/b.YAML', data: rule(2) },
      { name: 'README.md', data: '# notes' },
    ]);
    const contents = await readRuleZip(zip);
    expect(contents.files).toEqual([
      { fileName: 'rules/a.yml', text: rule(1) },
      { fileName: 'rules/b.YAML', text: rule(2) },
    ]);
    expect(contents.ignored).toEqual(['README.md']);
  });

  it('refuses a body that is not a zip archive', async () => {
    expect((await rejection(Buffer.from('title: not a zip\n'))).message).toMatch(/not a zip archive/);
  });

  it('refuses a truncated archive', async () => {
    const zip = writeZip([{ name: 'a.yml', data: rule(1) }, { name: 'b.yml', data: rule(2) }]);
    expect((await rejection(zip.subarray(0, zip.length - 30))).message).toMatch(/corrupt or truncated/);
    expect((await rejection(zip.subarray(0, 40))).message).toMatch(/corrupt or truncated/);
  });

  it('refuses a corrupt deflate stream', async () => {
    const zip = writeZip([{ name: 'a.yml', data: rule(1).repeat(20) }]);
    zip.fill(0xff, 40, 60);
    expect((await rejection(zip)).message).toMatch(/^Rule file a.yml is corrupt: /);
  });

  it.each([
    ['../etc/passwd.yml', /path traversal/],
    ['rules/../../x.yml', /path traversal/],
    ['/abs/rule.yml', /absolute path/],
    ['C:/rules/x.yml', /absolute path/],
    ['rules\\x.yml', /backslash/],
  ])('refuses the unsafe entry name %s', async (name, reason) => {
    const error = await rejection(writeZip([{ name: 'ok.yml', data: rule(1) }, { name, data: rule(2) }]));
    expect(error.message).toMatch(reason);
    expect(error.fileName).toBe(name);
  });

  it('refuses an archive of 5,001 files before inflating any', async () => {
    const entries = Array.from({ length: RULE_ZIP_LIMITS.maxEntries + 1 }, (_, i) => ({ name: `r${i}.yml`, data: 'x', method: 'store' as const }));
    expect((await rejection(writeZip(entries))).message).toBe('The archive holds 5001 entries; the limit is 5000');
    const atLimit = await readRuleZip(writeZip(entries.slice(0, RULE_ZIP_LIMITS.maxEntries)));
    expect(atLimit.files).toHaveLength(5000);
  });

  it('refuses a 1.1 MB rule file by its declared size', async () => {
    const big = 'x'.repeat(1_100_000);
    const error = await rejection(writeZip([{ name: 'big.yml', data: big }]));
    expect(error.message).toBe('Rule file big.yml is 1100000 bytes; the limit is 1048576 bytes per rule file');
  });

  it('stops inflating a bomb whose header understates its size, without buffering it', async () => {
    const bomb = Buffer.alloc(120 * 1024 * 1024, 0x61); // 120 MB of 'a' deflates to ~120 KB
    const zip = writeZip([{ name: 'bomb.yml', data: bomb, declaredSize: 100 }]);
    expect(zip.length).toBeLessThan(1024 * 1024);
    const before = process.memoryUsage().rss;
    const started = Date.now();
    const error = await rejection(zip);
    expect(error.message).toMatch(/bomb\.yml/);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(process.memoryUsage().rss - before).toBeLessThan(32 * 1024 * 1024);
  });

  it('refuses rule files that decompress past 50 MB in total', async () => {
    const mb = 'y'.repeat(RULE_ZIP_LIMITS.maxFileBytes);
    const entries = Array.from({ length: 51 }, (_, i) => ({ name: `f${i}.yml`, data: mb }));
    const zip = writeZip(entries);
    expect(zip.length).toBeLessThan(1024 * 1024);
    const error = await rejection(zip);
    expect(error.message).toBe('The rule files decompress to more than 52428800 bytes in total');
    expect(error.fileName).toBe('f50.yml');
  });

  it('refuses an archive that holds two entries of the same name, naming it', async () => {
    const rule = 'title: a\n';
    const error = await rejection(writeZip([{ name: 'rules/a.yml', data: rule }, { name: 'b.yml', data: rule }, { name: 'rules/a.yml', data: rule }]));
    expect(error.message).toBe('The archive holds more than one entry named "rules/a.yml"');
    expect(error.fileName).toBe('rules/a.yml');
    // Ignored entries too: the archive is ambiguous whatever the entry is.
    expect((await rejection(writeZip([{ name: 'x.txt', data: '1' }, { name: 'x.txt', data: '2' }]))).fileName).toBe('x.txt');
  });

  it('counts real bytes against the total when headers lie', async () => {
    const error = await readRuleZip(writeZip([{ name: 'a.yml', data: 'z'.repeat(5000), declaredSize: 10 }]), { maxEntries: 10, maxFileBytes: 4096, maxTotalBytes: 8192 }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ZipRejectedError);
    expect((error as Error).message).toMatch(/a\.yml/);
  });
});

describe('unsafeEntryName', () => {
  it('accepts ordinary nested names', () => {
    expect(unsafeEntryName('rules/network/dns/x..y.yml')).toBeUndefined();
  });
});
