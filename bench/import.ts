/**
 * `vigil import` throughput: a generated Zeek conn.log (1 GB by default; BENCH_IMPORT_MB to change) imported with
 * the real CLI against an all-in-one Vigil, next to the baseline measured in the same run: the same events,
 * already converted, posted directly as gzip NDJSON batches of the same size with the same concurrency. Each side
 * gets a fresh all-in-one (scoring and archiving run in it as in production). The ratio is import / direct.
 */
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { gzip, constants as zlibConstants } from 'node:zlib';
import { CONN_COLUMNS, zeekTsvLog } from '../libs/log-formats/src/testing/zeek-tsv';
import { createLogParser, LineSplitter } from '@vigil/log-formats';
import { makeTempDir, startVigil } from '@vigil/testing';

const MB = 1024 * 1024;
const REPO = path.resolve(__dirname, '..');
const gzipAsync = promisify(gzip);
const CONCURRENCY = 2;
const HOSTS = 2000;
const RATE_LIMIT = { VIGIL_RATE_LIMIT: '1000000/60s' };

/** Writes a Zeek conn.log of about `bytes`: 2,000 local hosts, many destinations, ports and services. */
async function writeConnLog(file: string, bytes: number): Promise<number> {
  const out = createWriteStream(file);
  const header = zeekTsvLog('conn', CONN_COLUMNS, [], false);
  out.write(header);
  let written = header.length;
  let rows = 0;
  const services = ['ssl', 'dns', 'http', '-', 'ssh', 'ssl,http'];
  let t = 1_718_000_000;
  while (written < bytes) {
    const lines: string[] = [];
    for (let i = 0; i < 5000; i++, rows++) {
      t += 0.000731;
      const host = (rows * 7919) % HOSTS; // a sensor sees a few thousand local hosts, not one per connection
      const src = `10.20.${host >> 8}.${host & 255}`;
      const dst = `203.0.${(rows * 7) & 255}.${(rows * 13) & 255}`;
      const service = services[rows % services.length];
      lines.push(
        [t.toFixed(6), `C${rows.toString(36)}xYz`, src, 1024 + (rows % 60000), dst, [443, 53, 80, 22, 8443][rows % 5], rows % 7 === 0 ? 'udp' : 'tcp', service, (rows % 1000) / 97, rows % 5000, (rows * 3) % 90000, 'SF', 'T', 'F', 0, 'ShADadFf', 1 + (rows % 40), 60 + (rows % 5000), 1 + (rows % 50), 60 + ((rows * 3) % 90000), '(empty)'].join('\t'),
      );
    }
    const chunk = lines.join('\n') + '\n';
    written += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  return rows;
}

/** The baseline's bodies: the file's events as gzip NDJSON batches of at most ~10 MB / 65,535 events. */
async function bodiesOf(file: string): Promise<{ bodies: Buffer[]; events: number }> {
  const parser = createLogParser('zeek-conn');
  const splitter = new LineSplitter();
  const bodies: Buffer[] = [];
  let lines: string[] = [];
  let bytes = 0;
  let events = 0;
  const flush = async () => {
    if (lines.length === 0) return;
    bodies.push(await gzipAsync(Buffer.from(lines.join('')), { level: zlibConstants.Z_BEST_SPEED }));
    lines = [];
    bytes = 0;
  };
  const handle = await fs.open(file, 'r');
  for await (const chunk of handle.createReadStream({ highWaterMark: MB }) as AsyncIterable<Buffer>) {
    for (const line of splitter.push(chunk)) {
      for (const outcome of parser.line(line.text)) {
        if (outcome.kind !== 'events') continue;
        for (const { event } of outcome.events) {
          const json = JSON.stringify(event) + '\n';
          lines.push(json);
          bytes += json.length;
          events++;
          if (lines.length >= 65_535 || bytes >= 10_000_000 - 64 * 1024) await flush();
        }
      }
    }
  }
  await flush();
  return { bodies, events };
}

async function postAll(baseUrl: string, key: string, bodies: Buffer[]): Promise<number> {
  const authorization = 'Basic ' + Buffer.from(`${key}:`).toString('base64');
  let next = 0;
  let accepted = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++];
      for (;;) {
        const res = await fetch(`${baseUrl}/v1/events/ip`, { method: 'POST', headers: { authorization, 'content-encoding': 'gzip', 'content-type': 'application/x-ndjson' }, body });
        const text = await res.text();
        if (res.status === 200) {
          accepted += (JSON.parse(text) as { accepted: number }).accepted;
          break;
        }
        if (res.status !== 429 && res.status !== 503) throw new Error(`ingest answered ${res.status}: ${text}`);
        await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return accepted;
}

function runImport(baseUrl: string, key: string, file: string, state: string): Promise<Record<string, any>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', './tools/register.cjs', 'apps/cli/src/main.ts', 'import', '--json', '--no-progress', '--concurrency', String(CONCURRENCY), '--state', state, '--format', 'zeek-conn', file], {
      cwd: REPO,
      env: { ...process.env, VIGIL_URL: baseUrl, VIGIL_API_KEY: key },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout.trim().split('\n').pop()!)) : reject(new Error(`import exited ${code}: ${stdout}`))));
  });
}

async function main(): Promise<void> {
  const sizeMb = Number(process.env.BENCH_IMPORT_MB ?? 1024);
  const dir = makeTempDir('vigil-bench-import-');
  try {
    const file = path.join(dir.path, 'conn.log');
    const rows = await writeConnLog(file, sizeMb * MB);
    const fileBytes = (await fs.stat(file)).size;
    console.error(`generated ${(fileBytes / MB).toFixed(0)} MB, ${rows.toLocaleString('en')} connections`);
    const { bodies, events } = await bodiesOf(file);
    console.error(`baseline bodies: ${bodies.length} (${(bodies.reduce((n, b) => n + b.length, 0) / MB).toFixed(0)} MB gzip)`);

    const direct = await startVigil({ env: RATE_LIMIT });
    let directSeconds: number;
    let directAccepted: number;
    try {
      const started = process.hrtime.bigint();
      directAccepted = await postAll(direct.baseUrl, direct.key, bodies);
      directSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    } finally {
      await direct.stop();
    }
    bodies.length = 0;

    const target = await startVigil({ env: RATE_LIMIT });
    let importSeconds: number;
    let summary: Record<string, any>;
    try {
      const started = process.hrtime.bigint();
      summary = await runImport(target.baseUrl, target.key, file, path.join(dir.path, 'import-state.json'));
      importSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    } finally {
      await target.stop();
    }
    const importAccepted = summary.accepted.ip as number;
    if (importAccepted !== events || directAccepted !== events) throw new Error(`accepted counts differ: import ${importAccepted}, direct ${directAccepted}, file ${events}; import summary ${JSON.stringify(summary)}`);
    const importRate = importAccepted / importSeconds;
    const directRate = directAccepted / directSeconds;
    console.log(`\n## vigil import throughput (${(fileBytes / MB).toFixed(0)} MB Zeek conn.log, ${events.toLocaleString('en')} events, concurrency ${CONCURRENCY})\n`);
    console.log('| side | seconds | events/s | MB/s of log |');
    console.log('|---|---|---|---|');
    console.log(`| baseline: the same events posted directly (gzip NDJSON, converted beforehand) | ${directSeconds.toFixed(1)} | ${Math.round(directRate).toLocaleString('en')} | – |`);
    console.log(`| vigil import (read, parse, batch, gzip, checkpoint, post) | ${importSeconds.toFixed(1)} | ${Math.round(importRate).toLocaleString('en')} | ${(fileBytes / MB / importSeconds).toFixed(1)} |`);
    console.log(`\nratio import / direct: ${(importRate / directRate).toFixed(2)}`);
  } finally {
    dir.cleanup();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
