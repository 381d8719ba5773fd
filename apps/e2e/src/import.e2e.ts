import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { api, eventually, makeTempDir, startVigil, toNdjson, type TempDir, type VigilProcess } from '@vigil/testing';
import { DNS_COLUMNS, zeekDnsRow, zeekTsvLog } from '../../../libs/log-formats/src/testing/zeek-tsv';
import { tunnelQueries } from './telemetry';

const REPO = path.resolve(__dirname, '../../..');
let vigil: VigilProcess;
let dir: TempDir;

beforeAll(async () => {
  vigil = await startVigil({ env: { VIGIL_VISIBILITY_DELAY_MS: '200', VIGIL_RATE_LIMIT: '100000/60s' } });
  dir = makeTempDir('vigil-import-e2e-');
});

afterAll(async () => {
  await vigil?.stop();
  dir?.cleanup();
});

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** `vigil import ...` as a real child process (the CLI entry point), targeting `url` (Vigil unless a proxy is given). */
function startImport(args: string[], url = vigil.baseUrl): Run {
  const child = spawn(process.execPath, ['-r', './tools/register.cjs', 'apps/cli/src/main.ts', 'import', '--json', '--no-progress', ...args], {
    cwd: REPO,
    env: { ...process.env, VIGIL_URL: url, VIGIL_API_KEY: vigil.key },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

async function importOnce(args: string[]): Promise<Record<string, any>> {
  const result = await startImport(args).done;
  if (result.code !== 0) throw new Error(`import exited ${result.code}: ${result.stderr}\n${result.stdout}`);
  return JSON.parse(result.stdout.trim().split('\n').pop()!) as Record<string, any>;
}

/** The gateway's accepted-events counter for `type` (process-wide: tests compare before and after). */
async function acceptedCount(type: string): Promise<number> {
  const metrics = await api(vigil, 'GET', '/metrics', { key: null });
  const match = new RegExp(`^vigil_events_accepted_total\\{type="${type}"\\} (\\d+)`, 'm').exec(metrics.text);
  return match ? Number(match[1]) : 0;
}

const epoch = (iso: string) => (Date.parse(iso) / 1000).toFixed(6);

function dnsLog(queries: Array<{ ts: string; srcIP: string; query: string }>, close = true): string {
  return zeekTsvLog('dns', DNS_COLUMNS, queries.map((q, i) => zeekDnsRow(epoch(q.ts), q.srcIP, 40000 + (i % 20000), q.query)), close);
}

function benignQueries(count: number, tag: string, srcIP = '10.88.0.7') {
  const start = Date.now() - 60_000;
  return Array.from({ length: count }, (_, i) => ({ ts: new Date(start + i).toISOString(), srcIP, query: `host-${i}.${tag}.example.com` }));
}

type FindingShape = { enrichments?: { data?: { aggregation?: { key?: { detections?: { key: string }[] } } } }[] };

describe('vigil import', () => {
  it('imports a Zeek dns.log with a DNS tunnel through the API, and the finding is served', async () => {
    const domain = `imp${Date.now().toString(36)}.com`;
    const tunnel = tunnelQueries('10.77.0.5', domain, 40);
    const file = path.join(dir.path, 'dns.log');
    fs.writeFileSync(file, dnsLog(tunnel.map((e) => ({ ts: e.ts, srcIP: e.srcIP!, query: e.query }))));
    const before = await acceptedCount('dns');
    const summary = await importOnce(['--state', path.join(dir.path, 'state-tunnel.json'), file]);
    expect(summary.accepted).toEqual({ dns: 40 });
    expect(summary.filesCompleted).toEqual([file]);
    expect(await acceptedCount('dns')).toBe(before + 40);
    const finding = await eventually(async () => {
      const page = await api(vigil, 'GET', '/v1/findings?schema=ocsf');
      return (page.body.records as FindingShape[]).find((f) => f.enrichments?.[0]?.data?.aggregation?.key?.detections?.some((d) => d.key === domain));
    }, 30_000);
    expect(finding).toBeDefined();
    // A second run finds the file already imported and sends nothing.
    const again = await importOnce(['--state', path.join(dir.path, 'state-tunnel.json'), file]);
    expect(again.batches).toBe(0);
    expect(await acceptedCount('dns')).toBe(before + 40);
  });

  it('resumes after kill -9 mid-file: every event reaches the server exactly once, the batch in flight included', async () => {
    const total = 3000;
    const file = path.join(dir.path, 'resume-dns.log');
    fs.writeFileSync(file, dnsLog(benignQueries(total, 'resume')));
    const state = path.join(dir.path, 'state-resume.json');
    const before = await acceptedCount('dns');

    // A proxy that passes requests to Vigil; on the 4th batch it lets Vigil answer, then kills the importer
    // (kill -9) before the answer reaches it: the batch was published but the importer never learnt so.
    let posts = 0;
    let importer: ChildProcess | undefined;
    const proxy = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'content-length', 'connection'].includes(k))) as Record<string, string>;
        const answer = await fetch(vigil.baseUrl + req.url, { method: req.method, headers, body: chunks.length > 0 ? Buffer.concat(chunks) : undefined });
        const text = await answer.text();
        if (req.method === 'POST' && ++posts === 4) {
          importer!.kill('SIGKILL');
          res.destroy();
          return;
        }
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(text);
      });
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (proxy.address() as { port: number }).port;
      const first = startImport(['--state', state, '--max-batch-events', '200', '--concurrency', '1', file], `http://127.0.0.1:${port}`);
      importer = first.child;
      const killed = await first.done;
      expect(killed.signal).toBe('SIGKILL');
    } finally {
      proxy.close();
    }
    const interrupted = JSON.parse(fs.readFileSync(state, 'utf8')) as { files: Record<string, { acked: number; inflight: [number, number][]; completed: boolean }> };
    const [checkpoint] = Object.values(interrupted.files);
    expect(checkpoint.completed).toBe(false);
    expect(checkpoint.inflight).toHaveLength(1);
    expect(await acceptedCount('dns')).toBe(before + 4 * 200);

    const resumed = await importOnce(['--state', state, '--max-batch-events', '200', '--concurrency', '1', file]);
    expect(resumed.replayedBatches).toBe(1);
    expect(resumed.accepted.dns).toBe(total - 3 * 200); // the replayed batch is counted in this run's answers
    expect(await acceptedCount('dns')).toBe(before + total);
    const finished = Object.values((JSON.parse(fs.readFileSync(state, 'utf8')) as typeof interrupted).files)[0];
    expect(finished).toMatchObject({ completed: true, inflight: [], acked: fs.statSync(file).size });
  });

  it('--follow reads a growing log across rename rotation and copytruncate', async () => {
    const live = path.join(dir.path, 'live-dns.log');
    const state = path.join(dir.path, 'state-follow.json');
    const before = await acceptedCount('dns');
    const part = (n: number, tag: string) => benignQueries(n, tag, '10.88.1.9');
    fs.writeFileSync(live, dnsLog(part(50, 'f1'), false));
    const run = startImport(['--state', state, '--follow', '--poll-ms', '50', '--flush-ms', '100', live]);
    try {
      await eventually(async () => ((await acceptedCount('dns')) === before + 50 ? true : undefined), 30_000);
      // Growth, including a line written in two pieces.
      const more = dnsLog(part(30, 'f2'), false).split('\n').filter((l) => l && !l.startsWith('#')).join('\n') + '\n';
      fs.appendFileSync(live, more.slice(0, 40));
      await new Promise((r) => setTimeout(r, 300));
      fs.appendFileSync(live, more.slice(40));
      await eventually(async () => ((await acceptedCount('dns')) === before + 80 ? true : undefined), 30_000);
      // Rotation by rename: the last lines go to the old file right before the rename, then a new file appears.
      fs.appendFileSync(live, dnsLog(part(10, 'f3'), false).split('\n').filter((l) => l && !l.startsWith('#')).join('\n') + '\n');
      fs.renameSync(live, `${live}.1`);
      fs.writeFileSync(live, dnsLog(part(20, 'f4'), false));
      await eventually(async () => ((await acceptedCount('dns')) === before + 110 ? true : undefined), 30_000);
      // copytruncate: the content is copied away and the same file truncated, then written anew.
      fs.copyFileSync(live, `${live}.2`);
      fs.truncateSync(live, 0);
      fs.writeFileSync(live, dnsLog(part(15, 'f5'), false), { flag: 'r+' });
      await eventually(async () => ((await acceptedCount('dns')) === before + 125 ? true : undefined), 30_000);
    } finally {
      run.child.kill('SIGTERM');
    }
    const result = await run.done;
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout.trim().split('\n').pop()!) as Record<string, any>;
    expect(summary.accepted.dns).toBe(125);
    expect(summary.filesCompleted.length).toBeGreaterThanOrEqual(3);
    expect(await acceptedCount('dns')).toBe(before + 125);
  });
});

describe('Idempotency-Key on POST /v1/events', () => {
  it('answers a repeated key with the first answer without publishing again; another body with the key is a 422', async () => {
    const body = toNdjson([{ srcIP: '10.99.0.1', query: 'a.idem.example.com' }, { srcIP: '10.99.0.1', query: 'b.idem.example.com' }, { query: '' }]);
    const key = `e2e-${Date.now()}`;
    const before = await acceptedCount('dns');
    const first = await api(vigil, 'POST', '/v1/events/dns', { body, headers: { 'idempotency-key': key } });
    const second = await api(vigil, 'POST', '/v1/events/dns', { body, headers: { 'idempotency-key': key } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ received: 3, accepted: 2, rejected: { missing_query: 1 } });
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await acceptedCount('dns')).toBe(before + 2);

    const other = await api(vigil, 'POST', '/v1/events/dns', { body: toNdjson([{ query: 'c.idem.example.com' }]), headers: { 'idempotency-key': key } });
    expect(other.status).toBe(422);
    expect(other.body.message).toMatch(/Idempotency-Key/);
    const bad = await api(vigil, 'POST', '/v1/events/dns', { body, headers: { 'idempotency-key': 'with space' } });
    expect(bad.status).toBe(400);
    expect(await acceptedCount('dns')).toBe(before + 2);
  });
});
