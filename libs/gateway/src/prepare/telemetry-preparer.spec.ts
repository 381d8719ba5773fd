import * as fs from 'node:fs';
import * as os from 'node:os';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { BodyDecodingError } from '@vigil/ingest';
import { threadNice } from '@vigil/platform';
import { prepareTelemetry, type PreparedTelemetry } from './prepare-telemetry';
import { TelemetryPreparer } from './telemetry-preparer';

const NOW = Date.parse('2026-11-26T12:00:00Z');

function body(): Buffer {
  const lines: string[] = [];
  for (let i = 0; i < 3_000; i++) lines.push(JSON.stringify({ srcIP: `10.0.${i % 50}.${i % 200}`, query: `host${i}.example.com`, qtype: 'A' }));
  lines.push('{"srcIP":"10.0.0.1","query":42}', '{"query":"no-source.example.com"}', '[1,2]');
  return Buffer.from(lines.join('\n') + '\n');
}

// A thread loads (and on a busy machine compiles) its modules before the first body.
jest.setTimeout(60_000);

/** Each preparation draws fresh batch ids: compare everything else. */
function withoutBatchIds(prepared: PreparedTelemetry): unknown {
  if (prepared.notJson) return prepared;
  return {
    ...prepared,
    records: prepared.records.map((record) => {
      const batchId = record.headers?.batchId ?? '';
      return { key: record.key, headers: { ...record.headers, batchId: 'id' }, value: record.value.toString('utf8').split(batchId).join('id') };
    }),
  };
}

describe('TelemetryPreparer', () => {
  it('gives in an ingest thread exactly what it gives inline: counts, rejections, records and endpoints', async () => {
    const threaded = new TelemetryPreparer(1);
    try {
      const sent = body();
      const inThread = await threaded.prepare('ws-1', 'dns', sent, NOW);
      expect(sent.byteLength).toBe(0); // moved to the ingest thread, not copied
      const inline = await new TelemetryPreparer(0).prepare('ws-1', 'dns', body(), NOW);
      expect(withoutBatchIds(inThread)).toEqual(withoutBatchIds(inline));
      expect(withoutBatchIds(inline)).toEqual(withoutBatchIds(prepareTelemetry('ws-1', 'dns', body(), NOW)));
      if (inThread.notJson) throw new Error('expected events');
      expect(inThread.accepted).toBeGreaterThan(2_900);
      expect(inThread.received).toBeGreaterThan(inThread.accepted);
      expect(Buffer.isBuffer(inThread.records[0].value)).toBe(true);
    } finally {
      await threaded.close();
    }
  });

  it('decodes gzip and deflate bodies where it prepares them, in a thread or inline, to what the plain body gives', async () => {
    const threaded = new TelemetryPreparer(1);
    try {
      const plain = withoutBatchIds(await new TelemetryPreparer(0).prepare('ws-1', 'dns', body(), NOW));
      for (const preparer of [threaded, new TelemetryPreparer(0)]) {
        expect(withoutBatchIds(await preparer.prepare('ws-1', 'dns', gzipSync(body()), NOW, 'gzip'))).toEqual(plain);
        expect(withoutBatchIds(await preparer.prepare('ws-1', 'dns', deflateRawSync(body()), NOW, 'deflate'))).toEqual(plain);
      }
    } finally {
      await threaded.close();
    }
  });

  it('refuses a corrupt body (400) and one that decodes past 10 MB (413) with BodyDecodingError, in a thread or inline', async () => {
    const threaded = new TelemetryPreparer(1);
    const corrupt = Buffer.from(gzipSync(body()).subarray(0, 100));
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    try {
      for (const preparer of [threaded, new TelemetryPreparer(0)]) {
        await expect(preparer.prepare('ws-1', 'dns', Buffer.from(corrupt), NOW, 'gzip')).rejects.toMatchObject({ statusCode: 400, message: expect.stringContaining('not valid gzip data') });
        const refusal = preparer.prepare('ws-1', 'dns', Buffer.from(bomb), NOW, 'gzip');
        await expect(refusal).rejects.toBeInstanceOf(BodyDecodingError);
        await expect(refusal).rejects.toMatchObject({ statusCode: 413 });
      }
      // The thread that refused goes on preparing.
      expect((await threaded.prepare('ws-1', 'dns', body(), NOW)).notJson).toBe(false);
    } finally {
      await threaded.close();
    }
  });

  it('reports a body with no JSON object at all', async () => {
    const threaded = new TelemetryPreparer(1);
    try {
      expect(await threaded.prepare('ws-1', 'dns', Buffer.from('not json\n'), NOW)).toEqual({ notJson: true });
    } finally {
      await threaded.close();
    }
  });

  const linux = process.platform === 'linux' ? it : it.skip;

  linux('runs its ingest threads at the nice value it is given, leaving the thread that answers HTTP as it is', async () => {
    const before = threadNice() ?? 0;
    const target = Math.min(19, before + 4);
    const threaded = new TelemetryPreparer(1, target);
    try {
      expect(niceValuesOfThreads().filter((nice) => nice === target)).toEqual([]);
      await threaded.prepare('ws-1', 'dns', body(), NOW);
      expect(niceValuesOfThreads().filter((nice) => nice === target)).toHaveLength(1);
      expect(threadNice()).toBe(before);
    } finally {
      await threaded.close();
    }
  });
});

/** The nice value of every thread of this process. */
function niceValuesOfThreads(): number[] {
  return fs.readdirSync('/proc/self/task').map((tid) => os.getPriority(Number(tid)));
}
