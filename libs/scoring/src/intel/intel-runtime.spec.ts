import 'reflect-metadata';
import { Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { VIGIL_CONFIG, loadConfig } from '@vigil/config';
import { createIntelDetectors, IndicatorStore, observeEvent, type Detector } from '@vigil/detection-engine';
import { makeTempDir, type TempDir } from '@vigil/testing';
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { IntelRuntime } from './intel-runtime';
import { IntelProviders } from './intel.provider';

class RecordingLogger {
  readonly warnings: string[] = [];
  readonly logs: string[] = [];
  log(message: string): void {
    this.logs.push(message);
  }
  warn(message: string): void {
    this.warnings.push(message);
  }
}

let seq = 0;
/** Intel detections raised for one DNS lookup (the engine runs these detectors over the same store). */
function detectionsFor(detectors: Detector[], query: string): string[] {
  const batch = { v: 1 as const, workspaceId: 'ws', type: 'dns' as const, batchId: `b${++seq}`, receivedAt: Date.now(), events: [{ ts: new Date().toISOString(), srcIP: '10.0.0.5', query, qtype: 'A' }] };
  const observed = observeEvent(batch, 0)!;
  return detectors.flatMap((d) => d.inspect(observed)?.detection.id ?? []);
}

describe('IntelRuntime', () => {
  let dir: TempDir;
  let server: Server;
  let body = 'first-feed.example\n';
  let status = 200;
  let url = '';

  beforeAll(async () => {
    dir = makeTempDir('intel-runtime-');
    server = createServer((_req, res) => {
      res.statusCode = status;
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/feed.txt`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    dir.cleanup();
  });

  it('loads lists from a file and a URL named by VIGIL_INTEL_LISTS; a refresh changes detection without a restart', async () => {
    const file = join(dir.path, 'c2.vigil');
    writeFileSync(file, '@domain\tc2:Emotet\tops:feed\nold-c2.example\n');
    const config = loadConfig({ VIGIL_INTEL_LISTS: `vigil:${file},lines(c2:FeedFamily):${url}`, VIGIL_INTEL_REFRESH_SECONDS: '0' });
    const logger = new RecordingLogger();
    const runtime = await IntelRuntime.start(config.intel, { seed: false, logger });
    const detectors = createIntelDetectors(runtime.store);
    try {
      expect(runtime.store.lists().map((l) => l.source)).toEqual([file, url]);
      expect(detectionsFor(detectors, 'x.old-c2.example')).toContain('intel_c2');
      expect(detectionsFor(detectors, 'first-feed.example')).toContain('intel_c2');
      expect(detectionsFor(detectors, 'new-c2.example')).toEqual([]);

      writeFileSync(file, '@domain\tc2:Emotet\tops:feed\nnew-c2.example\n');
      body = 'second-feed.example\n';
      await runtime.refresh();
      expect(detectionsFor(detectors, 'new-c2.example')).toContain('intel_c2');
      expect(detectionsFor(detectors, 'old-c2.example')).toEqual([]);
      expect(detectionsFor(detectors, 'second-feed.example')).toContain('intel_c2');
      expect(detectionsFor(detectors, 'first-feed.example')).toEqual([]);
      expect(logger.warnings).toEqual([]);
    } finally {
      runtime.stop();
      body = 'first-feed.example\n';
    }
  });

  it('keeps the previous content when a refresh fails, and warns', async () => {
    const logger = new RecordingLogger();
    const runtime = await IntelRuntime.start({ lists: [{ format: 'lines', source: url, label: 'c2:Feed' }], refreshSeconds: 0 }, { seed: false, logger });
    try {
      status = 503;
      await runtime.refresh();
      expect(runtime.store.matchDomain('first-feed.example')).toHaveLength(1);
      expect(logger.warnings.join('\n')).toMatch(/refresh failed, keeping its previous content: .*HTTP 503/);
    } finally {
      status = 200;
      runtime.stop();
    }
  });

  it('starts without a list it cannot read, warns, and loads it at a later refresh', async () => {
    const file = join(dir.path, 'late.txt');
    const logger = new RecordingLogger();
    const runtime = await IntelRuntime.start({ lists: [{ format: 'lines', source: file, label: 'miner:pool' }], refreshSeconds: 0 }, { seed: false, logger });
    try {
      expect(runtime.store.size).toBe(0);
      expect(logger.warnings.join('\n')).toMatch(/late\.txt \(lines\) not loaded, retrying at the next refresh: .*ENOENT/);
      writeFileSync(file, 'pool.late.example\n');
      await runtime.refresh();
      expect(runtime.store.matchDomain('eu.pool.late.example')[0]).toMatchObject({ category: 'miner' });
    } finally {
      runtime.stop();
    }
  });

  it('refreshes on the configured interval', async () => {
    const file = join(dir.path, 'timed.txt');
    writeFileSync(file, 'before.example\n');
    const runtime = await IntelRuntime.start({ lists: [{ format: 'lines', source: file, label: 'c2:Timed' }], refreshSeconds: 1 }, { seed: false, logger: new RecordingLogger() });
    try {
      writeFileSync(file, 'after.example\n');
      const deadline = Date.now() + 5_000;
      while (runtime.store.matchDomain('after.example').length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(runtime.store.matchDomain('after.example')).toHaveLength(1);
      expect(runtime.store.matchDomain('before.example')).toHaveLength(0);
    } finally {
      runtime.stop();
    }
  });
});

describe('IntelProviders', () => {
  it('give a Nest consumer the one shared IndicatorStore, seed included, and stop the timer on close', async () => {
    @Injectable()
    class Consumer {
      constructor(@Inject(IndicatorStore) readonly store: IndicatorStore) {}
    }
    @Module({ providers: [{ provide: VIGIL_CONFIG, useValue: loadConfig({ VIGIL_SCORING_WORKERS: '0' }) }, ...IntelProviders, Consumer] })
    class TestModule {}

    const app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    try {
      const consumer = app.get(Consumer);
      expect(consumer.store).toBe(app.get(IntelRuntime).store);
      expect(consumer.store.matchDomain('x.duckdns.org').map((m) => m.category)).toContain('freedns');
    } finally {
      await app.close();
    }
    expect((app.get(IntelRuntime) as unknown as { timer: unknown }).timer).toBeUndefined();
  });

  it('load nothing in this thread when scoring runs in worker threads (each thread has its own)', async () => {
    @Module({ providers: [{ provide: VIGIL_CONFIG, useValue: loadConfig({ VIGIL_SCORING_WORKERS: '2' }) }, ...IntelProviders] })
    class WorkerModeModule {}

    const app = await NestFactory.createApplicationContext(WorkerModeModule, { logger: false });
    try {
      expect(app.get(IntelRuntime)).toBeNull();
      expect(app.get(IndicatorStore)).toBeNull();
    } finally {
      await app.close();
    }
  });
});
