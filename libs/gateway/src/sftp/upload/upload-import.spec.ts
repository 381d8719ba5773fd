import { gzipSync } from 'node:zlib';
import type { DnsEvent, TelemetryType } from '@vigil/contracts';
import { parseTelemetryBatch } from '@vigil/ingest';
import { DNS_COLUMNS, zeekDnsRow, zeekTsvLog } from '../../../../log-formats/src/testing/zeek-tsv';
import { UploadError, UploadImport, type PublishBatch, type UploadLimits } from './upload-import';

const LIMITS: UploadLimits = { maxContentBytes: 1024 * 1024, batchEvents: 50_000, batchBytes: 8 * 1024 * 1024 };
const now = () => (Date.now() / 1000).toFixed(6);

function dnsLog(count: number, extraRows: string[][] = []): Buffer {
  const rows = Array.from({ length: count }, (_, i) => zeekDnsRow(now(), '10.1.0.5', 40000 + i, `q${i}.example.com`, 'A', '1'));
  return Buffer.from(zeekTsvLog('dns', DNS_COLUMNS, [...rows, ...extraRows]));
}

/** The gateway's own validation over each body; records what was "published" and can fail on demand. */
function gateway(failOnCall?: number) {
  const published: Array<{ type: TelemetryType; events: DnsEvent[] }> = [];
  let calls = 0;
  const publish: PublishBatch = async (type, body) => {
    calls++;
    if (calls === failOnCall) throw new Error('the event bus is unavailable; retry later');
    const parsed = parseTelemetryBatch(type, body, new Date());
    published.push({ type, events: parsed.events as DnsEvent[] });
    return { received: parsed.received, accepted: parsed.events.length, rejected: parsed.rejected };
  };
  return { publish, published, calls: () => calls };
}

async function upload(file: Buffer, importer: UploadImport, chunk = 32 * 1024): Promise<void> {
  for (let offset = 0; offset < file.length; offset += chunk) await importer.write(offset, file.subarray(offset, offset + chunk));
}

describe('UploadImport', () => {
  it('publishes a small file whole when the upload closes, counting malformed lines by reason', async () => {
    const g = gateway();
    const badIp = zeekDnsRow(now(), 'not-an-ip', 1, 'x.example.com');
    const importer = new UploadImport('dns.log', LIMITS, g.publish);
    await upload(Buffer.concat([dnsLog(30, [badIp, ['too', 'few', 'columns']])]), importer, 1000);
    expect(g.calls()).toBe(0);
    const summary = await importer.close();
    expect(g.published).toHaveLength(1);
    expect(g.published[0].events.map((e) => e.query)).toEqual(Array.from({ length: 30 }, (_, i) => `q${i}.example.com`));
    expect(summary).toMatchObject({ format: 'zeek-dns', gzip: false, accepted: { dns: 30 }, batches: 1 });
    expect(Object.values(summary.rejected).reduce((a, b) => a + b, 0)).toBe(2);
    expect(Object.keys(summary.rejected).length).toBeGreaterThanOrEqual(1);
  });

  it('reads gzip content arriving in pieces of any size, the first of one byte', async () => {
    const plain = dnsLog(200);
    const g = gateway();
    const importer = new UploadImport('dns.log.gz', LIMITS, g.publish);
    const gz = gzipSync(plain);
    await importer.write(0, gz.subarray(0, 1));
    for (let offset = 1; offset < gz.length; offset += 97) await importer.write(offset, gz.subarray(offset, offset + 97));
    const summary = await importer.close();
    expect(summary).toMatchObject({ gzip: true, bytes: gz.length, contentBytes: plain.length, accepted: { dns: 200 }, rejected: {} });
    expect(g.published.flatMap((p) => p.events)).toHaveLength(200);
  });

  it('publishes a large file in bounded batches as it arrives, every event once and in order', async () => {
    const g = gateway();
    const importer = new UploadImport('dns.log', { ...LIMITS, batchEvents: 100 }, g.publish);
    await upload(dnsLog(1050), importer, 4096);
    const beforeClose = g.calls();
    const summary = await importer.close();
    expect(beforeClose).toBeGreaterThanOrEqual(9);
    expect(g.calls()).toBeGreaterThan(beforeClose);
    expect(g.published.every((p) => p.events.length <= 100 + 60)).toBe(true);
    expect(g.published.flatMap((p) => p.events).map((e) => e.query)).toEqual(Array.from({ length: 1050 }, (_, i) => `q${i}.example.com`));
    expect(summary.accepted).toEqual({ dns: 1050 });
    expect(summary.batches).toBe(g.calls());
  });

  it('refuses a file over the size cap, also as a gzip bomb, without publishing it', async () => {
    const small = { ...LIMITS, maxContentBytes: 4096 };
    const g = gateway();
    const plain = new UploadImport('dns.log', small, g.publish);
    await expect(upload(dnsLog(100), plain, 1024)).rejects.toMatchObject({ reason: 'too_large', acceptedEvents: 0 });
    await expect(plain.close()).rejects.toBeInstanceOf(UploadError);

    const bomb = gzipSync(Buffer.concat([dnsLog(1), Buffer.alloc(50 * 1024 * 1024, 0x20)]));
    expect(bomb.length).toBeLessThan(100 * 1024);
    const gz = new UploadImport('dns.log.gz', small, g.publish);
    await expect(upload(bomb, gz)).rejects.toMatchObject({ reason: 'too_large' });
    expect(gz.summary.contentBytes).toBeLessThan(4 * 1024 * 1024);
    expect(g.calls()).toBe(0);
  });

  it('says which part was published when the bus fails in the middle of a large file, and stops there', async () => {
    const g = gateway(3);
    const importer = new UploadImport('dns.log', { ...LIMITS, batchEvents: 100 }, g.publish);
    const failure = await upload(dnsLog(1000), importer, 4096).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UploadError);
    expect(failure).toMatchObject({ reason: 'publish_failed' });
    const accepted = (failure as UploadError).acceptedEvents;
    expect(accepted).toBe(g.published.flatMap((p) => p.events).length);
    expect(accepted).toBeGreaterThanOrEqual(200);
    await expect(importer.close()).rejects.toMatchObject({ reason: 'publish_failed' });
    expect(g.calls()).toBe(3);
  });

  it('refuses an unknown format, bad gzip and out-of-order writes', async () => {
    const g = gateway();
    const unknown = new UploadImport('notes.txt', LIMITS, g.publish);
    await unknown.write(0, Buffer.from('hello\nworld\n'));
    await expect(unknown.close()).rejects.toMatchObject({ reason: 'unknown_format' });

    const broken = new UploadImport('dns.log.gz', LIMITS, g.publish);
    const gz = gzipSync(dnsLog(10));
    gz[gz.length - 5] ^= 0xff; // the CRC/size trailer no longer matches
    const failure = await upload(gz, broken).then(() => broken.close()).catch((error: unknown) => error);
    expect(failure).toMatchObject({ reason: 'bad_gzip' });

    const jumpy = new UploadImport('dns.log', LIMITS, g.publish);
    await jumpy.write(0, Buffer.from('#separator \\x09\n'));
    await expect(jumpy.write(100, Buffer.from('x'))).rejects.toMatchObject({ reason: 'not_sequential' });
    expect(g.calls()).toBe(0);
  });

  it('imports an empty file as nothing', async () => {
    const g = gateway();
    const summary = await new UploadImport('dns.log', LIMITS, g.publish).close();
    expect(summary).toMatchObject({ bytes: 0, accepted: {}, batches: 0 });
    expect(g.calls()).toBe(0);
  });
});
