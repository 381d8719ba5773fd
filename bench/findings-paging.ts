/**
 * Findings paging at volume: stores millions of findings and alerts over 1,000 workspaces in the embedded store
 * (chdb, temporary data directory) with a bulk loader written for the bench, then measures GET /v1/findings and
 * GET /v1/alerts pages of 1,000 through the real HTTP path (the account and findings-api features of the
 * all-in-one, a child process), alone and with concurrent pollers.
 *
 *   node -r ./tools/register.cjs bench/findings-paging.ts [--records 10000000] [--workspaces 1000] [--pollers 50]
 *     [--poll-interval-ms 1000] [--min-samples 100] [--max-pages 1000] [--data-dir DIR] [--keep] [--load-only]
 *     [--profile DIR]
 *
 * `--records` counts findings and alerts together (half each). `--data-dir` re-uses a store loaded by an
 * earlier run (its `bench-manifest.json`), e.g. to measure the same data after a schema upgrade; `--keep` keeps
 * a temporary one. Records: one real OCSF finding of each of two detections and one real alert, made by the
 * detection engine from generated telemetry, with ids, times, severities, addresses and host names varied per
 * record (random labels stay as incompressible as real tunnel payloads). Workspaces get Zipf-like shares (the
 * largest ≈10 %, the smallest ≈0.015 %), insertion times spread over 30 days in insert batches of 64.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { AlertRecord, FindingRecord } from '@vigil/contracts';
import { DetectionEngine } from '@vigil/detection-engine';
import { FINDINGS_DATABASE, FINDINGS_MIGRATIONS } from '@vigil/findings';
import { ChdbStoreFactory, type ServiceStore } from '@vigil/store';
import { basicAuth, oastDnsEvents, startVigil, tunnelDnsEvents, type VigilProcess } from '@vigil/testing';

const DAY_US = 86_400_000_000n;
const KINDS = ['findings', 'alerts'] as const;
type Kind = (typeof KINDS)[number];
/** maxAge windows measured, in each endpoint's grammar (alerts take no `d`). */
const WINDOWS: { label: string; findings: string; alerts: string }[] = [
  { label: '1h', findings: '1h', alerts: '1h' },
  { label: '1d', findings: '1d', alerts: '24h' },
  { label: '3d (default)', findings: '', alerts: '' },
  { label: '30d', findings: '30d', alerts: '720h' },
];
const INSERT_BATCH = 64;
const MANIFEST = 'bench-manifest.json';

interface Options {
  records: number;
  workspaces: number;
  pollers: number;
  pollIntervalMs: number;
  minSamples: number;
  maxPages: number;
  dataDir?: string;
  /** Write a V8 CPU profile of the measured server into this directory. */
  profileDir?: string;
  keep: boolean;
  /** Load (or re-use) the store, print its size and stop: no measurement. */
  loadOnly: boolean;
}

function parseOptions(argv: string[]): Options {
  const options: Options = { records: 10_000_000, workspaces: 1000, pollers: 50, pollIntervalMs: 1000, minSamples: 100, maxPages: 1000, keep: false, loadOnly: false };
  const numeric: Record<string, keyof Options> = {
    '--records': 'records',
    '--workspaces': 'workspaces',
    '--pollers': 'pollers',
    '--poll-interval-ms': 'pollIntervalMs',
    '--min-samples': 'minSamples',
    '--max-pages': 'maxPages',
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--keep') options.keep = true;
    else if (arg === '--load-only') options.loadOnly = true;
    else if (arg === '--data-dir') options.dataDir = path.resolve(argv[++i] ?? '');
    else if (arg === '--profile') options.profileDir = path.resolve(argv[++i] ?? '');
    else if (arg in numeric) {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 0) throw new Error(`${arg} needs a whole number`);
      (options[numeric[arg]] as number) = value;
    } else throw new Error(`unknown argument ${arg}`);
  }
  if (options.records < 2 || options.workspaces < 3) throw new Error('--records ≥ 2 and --workspaces ≥ 3');
  return options;
}

// ---------------------------------------------------------------------------------------------------------------
// Record bodies: real engine output turned into SQL expressions over per-row values.

/** Per-row values the loader's SELECT provides under these names. */
const ROW = {
  n: 'n',
  workspaceId: 'ws_id',
  recordId: 'rid',
  uid: 'uid',
  severity: 'sev',
  /** Event time, epoch ms (Int64). */
  timeMs: 't_ms',
};

const sqlString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
/** A random-looking lowercase hex string of `length` characters, distinct per row and per `salt`. */
const randomHex = (length: number, salt: number) =>
  `substring(concat(${Array.from({ length: Math.ceil(length / 32) }, (_, i) => `lower(hex(sipHash128(${ROW.n}, ${salt}, ${i})))`).join(', ')}), 1, ${length})`;
const randomIp = (salt: number) =>
  `concat('10.', toString(sipHash64(${ROW.n}, ${salt}, 1) % 256), '.', toString(sipHash64(${ROW.n}, ${salt}, 2) % 256), '.', toString(1 + sipHash64(${ROW.n}, ${salt}, 3) % 254))`;
const isoOf = (msExpr: string) => `concat(replaceOne(toString(fromUnixTimestamp64Milli(toInt64(${msExpr}), 'UTC')), ' ', 'T'), 'Z')`;
const SEVERITY_NAMES = `['Informational', 'Low', 'Medium', 'High', 'Critical'][${ROW.severity}]`;

/**
 * Turns a JSON text into a SQL `concat(...)` that rebuilds it per row: each [literal, expression] pair replaces
 * every occurrence of the literal; epoch seconds, epoch milliseconds and ISO times near `baseMs` follow the
 * row's event time, keeping their distance to it.
 */
function bodyExpression(json: string, baseMs: number, substitutions: [string, string][]): string {
  const exprs: string[] = [];
  const mark = (expr: string) => `\u0000${exprs.push(expr) - 1}\u0000`;
  let text = json;
  for (const [literal, expr] of substitutions) {
    if (!text.includes(literal)) throw new Error(`template has no ${JSON.stringify(literal)}`);
    text = text.split(literal).join(mark(expr));
  }
  const near = (ms: number) => Math.abs(ms - baseMs) < 3_600_000;
  text = text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, (iso) => mark(isoOf(`${ROW.timeMs} + ${Date.parse(iso) - baseMs}`)));
  text = text.replace(/(?<![\d.])1\d{12}(?![\d.])/g, (ms) => (near(Number(ms)) ? mark(`toString(${ROW.timeMs} + ${Number(ms) - baseMs})`) : ms));
  text = text.replace(/(?<![\d.])1\d{9}(?![\d.])/g, (s) => (near(Number(s) * 1000) ? mark(`toString(intDiv(${ROW.timeMs}, 1000) + ${Number(s) - Math.floor(baseMs / 1000)})`) : s));
  const parts = text.split(/\u0000(\d+)\u0000/);
  const pieces = parts.map((part, i) => (i % 2 === 0 ? (part === '' ? '' : sqlString(part)) : exprs[Number(part)])).filter(Boolean);
  return `concat(${pieces.join(', ')})`;
}

interface Templates {
  /** Finding body expressions and how often each is used (weights sum to 1). */
  findings: { expr: string; weight: number; bytes: number }[];
  alert: { expr: string; threats: string[]; bytes: number };
}

function engineOutput(events: object[], now: number): { findings: FindingRecord[]; alerts: AlertRecord[] } {
  const engine = new DetectionEngine({ clock: () => now });
  return engine.process({ v: 1, workspaceId: 'bench-template', type: 'dns', batchId: 'template', receivedAt: now, events } as never);
}

/** Host names of the template's evidence, replaced by random labels of the same length under the same domain. */
function hostnameSubstitutions(json: string, domain: string, salt: number): [string, string][] {
  const found = json.match(new RegExp(`[A-Za-z0-9.-]+\\.${domain.replace(/\./g, '\\.')}`, 'g')) ?? [];
  // Longest first, so that a name inside a longer one is not replaced piecemeal.
  const names = [...new Set(found)].sort((a, b) => b.length - a.length);
  return names.map((name, i) => [name, `concat(${randomHex(name.length - domain.length - 1, salt + i)}, ${sqlString('.' + domain)})`]);
}

function findingTemplate(record: FindingRecord, domain: string, srcIp: string, baseMs: number): { expr: string; bytes: number } {
  const json = JSON.stringify(record.finding);
  const keyHash = /"keyHash":"([0-9a-f]{64})"/.exec(json)?.[1];
  const severity = `"severity_id":${record.finding.severity_id},"severity":"${record.finding.severity}"`;
  if (!keyHash || !json.includes(severity)) throw new Error('unexpected finding shape');
  const expr = bodyExpression(json, baseMs, [
    [record.recordId, ROW.recordId],
    [record.findingUid, ROW.uid],
    [keyHash, randomHex(64, 900)],
    ['"workspaceID":"bench-template"', `concat('"workspaceID":"', ${ROW.workspaceId}, '"')`],
    [severity, `concat('"severity_id":', toString(${ROW.severity}), ',"severity":"', ${SEVERITY_NAMES}, '"')`],
    [srcIp, randomIp(901)],
    ...hostnameSubstitutions(json, domain, 100),
  ]);
  return { expr, bytes: json.length };
}

function buildTemplates(): Templates {
  const now = Date.now();
  const srcIp = '10.77.1.23';
  const oast = engineOutput(oastDnsEvents(4, { srcIP: srcIp, startTs: now - 30_000, intervalMs: 2000, domains: ['oast.fun'] }), now);
  const tunnel = engineOutput(tunnelDnsEvents(60, { domain: 'exfil-bench.com', srcIP: srcIp, startTs: now - 60_000, intervalMs: 500 }), now);
  const oastFinding = oast.findings.at(-1);
  const tunnelFinding = tunnel.findings.at(-1);
  const alert = tunnel.alerts.at(-1);
  if (!oastFinding || !tunnelFinding || !alert) throw new Error('the engine raised no template finding or alert');
  const alertJson = JSON.stringify(alert.alert);
  const alertExpr = bodyExpression(alertJson, now, [
    [alert.alert.id, ROW.recordId],
    [`"severity":${alert.severity}`, `concat('"severity":', toString(${ROW.severity}))`],
    [srcIp, randomIp(901)],
    [`"srcPort":${(alert.alert.event as { srcPort: number }).srcPort}`, `concat('"srcPort":', toString(1024 + sipHash64(${ROW.n}, 7) % 64000))`],
    ...hostnameSubstitutions(alertJson, 'exfil-bench.com', 300),
  ]);
  return {
    findings: [
      { ...findingTemplate(oastFinding, 'oast.fun', srcIp, now), weight: 0.85 },
      { ...findingTemplate(tunnelFinding, 'exfil-bench.com', srcIp, now), weight: 0.15 },
    ],
    alert: { expr: alertExpr, threats: alert.alert.threats, bytes: alertJson.length },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Bulk loading: INSERT ... SELECT FROM numbers(), straight into the tables the findings-api reads.

interface Manifest {
  records: Record<Kind, number>;
  workspaceIds: string[];
  /** API keys of the measured workspaces, by workspace rank (1 = largest). */
  keys: Record<string, string>;
  loadSeconds: number;
  loadedAt: string;
}

/** Workspace rank (1 = largest) of row `n`: P(rank ≤ r) = ln(r + 1) / ln(W + 1), a Zipf-like share ≈ 1/r. */
const rankOf = (workspaces: number, salt: number) =>
  `least(${workspaces}, toUInt32(floor(exp(((sipHash64(${ROW.n}, ${salt}) % 1000000000) + 0.5) / 1e9 * ln(${workspaces + 1})))))`;
/** The expected number of rows of workspace `rank` among `total`. */
const expectedShare = (rank: number, workspaces: number) => Math.log((rank + 1) / rank) / Math.log(workspaces + 1);

/** Severities 1..5 weighted 10/30/35/20/5 %. */
const SEVERITY = `multiIf(sipHash64(${ROW.n}, 5) % 100 < 10, 1, sipHash64(${ROW.n}, 5) % 100 < 40, 2, sipHash64(${ROW.n}, 5) % 100 < 75, 3, sipHash64(${ROW.n}, 5) % 100 < 95, 4, 5)`;

function loadStatement(kind: Kind, templates: Templates, rows: number, workspaces: number, startUs: bigint, spanUs: bigint): string {
  const table = `${FINDINGS_DATABASE}.${kind}`;
  const salt = kind === 'findings' ? 11 : 12;
  // Insert batches of 64 rows share one insertion time, as the writer's inserts do.
  const insertedUs = `${startUs} + intDiv(intDiv(${ROW.n}, ${INSERT_BATCH}) * ${INSERT_BATCH} * ${spanUs}, ${rows})`;
  let body: string;
  if (kind === 'findings') {
    const [common, rare] = templates.findings;
    body = `if(sipHash64(${ROW.n}, 13) % 1000 < ${Math.round(common.weight * 1000)}, ${common.expr}, ${rare.expr})`;
  } else {
    body = templates.alert.expr;
  }
  const extra = kind === 'alerts' ? `, threats` : '';
  const extraValue = kind === 'alerts' ? `, [${templates.alert.threats.map(sqlString).join(', ')}] AS threats` : '';
  return `INSERT INTO ${table} (workspace_id, record_id, severity, time, inserted_at, body${extra})
    SELECT ws_id, rid, sev, fromUnixTimestamp64Milli(${ROW.timeMs}, 'UTC'), fromUnixTimestamp64Micro(at_us, 'UTC'), ${body} AS body${extraValue}
    FROM (
      SELECT number AS ${ROW.n},
        {ws:Array(String)}[${rankOf(workspaces, salt)}] AS ${ROW.workspaceId},
        toString(generateUUIDv4(${ROW.n})) AS ${ROW.uid},
        ${kind === 'findings' ? `concat(${ROW.uid}, ':', toString(1 + ${ROW.n} % 4))` : ROW.uid} AS ${ROW.recordId},
        ${SEVERITY} AS ${ROW.severity},
        toInt64(${insertedUs}) AS at_us,
        intDiv(at_us, 1000) - toInt64(sipHash64(${ROW.n}, 17) % 120000) AS ${ROW.timeMs}
      FROM numbers({from:UInt64}, {count:UInt64})
    )`;
}

async function waitForMerges(store: ServiceStore, maxSeconds: number): Promise<void> {
  const deadline = Date.now() + maxSeconds * 1000;
  while (Date.now() < deadline) {
    const result = await store.client.query({ query: `SELECT count() AS n FROM system.merges WHERE database = '${FINDINGS_DATABASE}'`, format: 'JSONEachRow' });
    const [{ n }] = await result.json<{ n: string }>();
    if (Number(n) === 0) return;
    await new Promise((r) => setTimeout(r, 2000));
  }
}

async function bulkLoad(store: ServiceStore, manifest: Manifest, options: Options): Promise<void> {
  const templates = buildTemplates();
  console.log(`templates: findings ${templates.findings.map((t) => `${t.bytes} B × ${t.weight}`).join(', ')}; alert ${templates.alert.bytes} B`);
  const nowUs = BigInt(Date.now()) * 1000n;
  // 30 days less an hour (the TTL must not drop rows during the run), ending a minute ago.
  const spanUs = 30n * DAY_US - 3_600_000_000n;
  const startUs = nowUs - 60_000_000n - spanUs;
  const chunk = 1_000_000;
  for (const kind of KINDS) {
    const rows = manifest.records[kind];
    const statement = loadStatement(kind, templates, rows, options.workspaces, startUs, spanUs);
    for (let from = 0; from < rows; from += chunk) {
      const started = Date.now();
      await store.client.command({
        query: statement,
        query_params: { ws: manifest.workspaceIds, from, count: Math.min(chunk, rows - from) },
        clickhouse_settings: { max_insert_threads: '2' },
      });
      console.log(`  ${kind}: ${Math.min(rows, from + chunk).toLocaleString()} / ${rows.toLocaleString()} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  }
}

interface TableSize {
  table: string;
  rows: number;
  parts: number;
  bytesOnDisk: number;
  bodyBytes: number;
}

async function tableSizes(store: ServiceStore): Promise<TableSize[]> {
  const result = await store.client.query({
    query: `SELECT table, toString(sum(rows)) AS rows, toString(count()) AS parts, toString(sum(bytes_on_disk)) AS bytes,
        toString(sum(data_uncompressed_bytes)) AS raw
      FROM system.parts WHERE database = '${FINDINGS_DATABASE}' AND active AND table IN ('findings', 'alerts') GROUP BY table ORDER BY table DESC`,
    format: 'JSONEachRow',
  });
  const rows = await result.json<{ table: string; rows: string; parts: string; bytes: string; raw: string }>();
  return rows.map((r) => ({ table: r.table, rows: Number(r.rows), parts: Number(r.parts), bytesOnDisk: Number(r.bytes), bodyBytes: Number(r.raw) }));
}

// ---------------------------------------------------------------------------------------------------------------
// Workspaces and keys: created through the operator API of a running Vigil, so that the store's workspace ids
// are the ones the keys resolve to.

function measuredRanks(options: Options): { walkers: number[]; pollers: number[] } {
  const w = options.workspaces;
  const walkers = [1, Math.max(2, Math.round(w / 50)), Math.max(3, Math.round(w / 3))];
  // Pollers: spread geometrically over the ranks, distinct from the walkers.
  const pollers = new Set<number>();
  for (let i = 0; pollers.size < Math.min(options.pollers, w - walkers.length) && i < 100_000; i++) {
    const rank = Math.min(w, Math.max(1, Math.round(Math.exp((i / Math.max(1, options.pollers)) * Math.log(w)))));
    const candidate = [rank, rank + 1, rank - 1, ...Array.from({ length: w }, (_, k) => k + 1)].find((r) => r >= 1 && r <= w && !pollers.has(r) && !walkers.includes(r));
    if (candidate) pollers.add(candidate);
  }
  return { walkers, pollers: [...pollers] };
}

async function createKeys(vigil: VigilProcess, ranks: number[]): Promise<Map<number, { key: string; workspaceId: string }>> {
  const token = fs.readFileSync(path.join(vigil.dataDir, 'admin-token'), 'utf8').trim();
  const created = new Map<number, { key: string; workspaceId: string }>();
  for (const rank of ranks) {
    const res = await fetch(`${vigil.baseUrl}/admin/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ workspace: `bench-${rank}` }),
    });
    const body = (await res.json()) as { key: string; workspaceId: string };
    if (res.status !== 201 && res.status !== 200) throw new Error(`key creation answered ${res.status}: ${JSON.stringify(body)}`);
    created.set(rank, { key: body.key, workspaceId: body.workspaceId });
  }
  return created;
}

const VIGIL_ENV = { VIGIL_SERVICES: 'account,findings-api', VIGIL_RATE_LIMIT: '10000000/60s', VIGIL_MAX_CONNECTIONS: '10000' };

async function prepareStore(dataDir: string, options: Options): Promise<Manifest> {
  const manifestFile = path.join(dataDir, MANIFEST);
  if (fs.existsSync(manifestFile)) {
    console.log(`re-using the store in ${dataDir}`);
    return JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
  }
  const { walkers, pollers } = measuredRanks(options);
  const setup = await startVigil({ dataDir, env: VIGIL_ENV });
  let keys: Map<number, { key: string; workspaceId: string }>;
  try {
    keys = await createKeys(setup, [...walkers, ...pollers]);
  } finally {
    await setup.stop();
  }
  const workspaceIds = Array.from({ length: options.workspaces }, (_, i) => keys.get(i + 1)?.workspaceId ?? randomUUID());
  const findings = Math.ceil(options.records / 2);
  const manifest: Manifest = {
    records: { findings, alerts: options.records - findings },
    workspaceIds,
    keys: Object.fromEntries([...keys].map(([rank, k]) => [String(rank), k.key])),
    loadSeconds: 0,
    loadedAt: '',
  };
  console.log(`loading ${options.records.toLocaleString()} records over ${options.workspaces} workspaces into ${dataDir}`);
  const started = Date.now();
  const factory = new ChdbStoreFactory(path.join(dataDir, 'clickhouse'));
  try {
    const store = await factory.open(FINDINGS_DATABASE, FINDINGS_MIGRATIONS);
    await bulkLoad(store, manifest, options);
    manifest.loadSeconds = (Date.now() - started) / 1000;
    console.log(`loaded in ${manifest.loadSeconds.toFixed(0)} s; waiting for background merges (at most 10 min)`);
    await waitForMerges(store, 600);
  } finally {
    await factory.close();
  }
  manifest.loadedAt = new Date().toISOString();
  fs.writeFileSync(manifestFile, JSON.stringify(manifest));
  return manifest;
}

// ---------------------------------------------------------------------------------------------------------------
// Measurement over HTTP.

interface PageTiming {
  ms: number;
  items: number;
  more: boolean;
  follow: string;
}

/** One GET; the body is read in full but not parsed (the bookmark and `more` travel in headers). */
async function getPage(baseUrl: string, key: string, kind: Kind, maxAge: string, follow?: string): Promise<PageTiming> {
  const params = new URLSearchParams();
  if (kind === 'findings') params.set('schema', 'ocsf');
  if (maxAge) params.set('maxAge', maxAge);
  if (follow) params.set('follow', follow);
  const started = performance.now();
  const res = await fetch(`${baseUrl}/v1/${kind}?${params}`, {
    // identity: the page as the store serves it; gzip would add the HTTP platform's compression time.
    headers: { authorization: basicAuth(key), accept: 'application/json', 'accept-encoding': 'identity' },
  });
  const body = await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`GET /v1/${kind} answered ${res.status}: ${Buffer.from(body).toString().slice(0, 300)}`);
  const follow2 = res.headers.get('x-stream-follow') ?? '';
  const more = res.headers.get('x-stream-more') === 'true';
  // Items are counted cheaply: every finding and alert body starts its own object at the top of the list.
  const text = Buffer.from(body).toString('utf8');
  const items = kind === 'findings' ? count(text, '{"activity_id"') : count(text, '{"id":"');
  return { ms, items, more, follow: follow2 };
}

function count(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

const percentile = (values: number[], p: number) => (values.length ? [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)] : NaN);

interface Cell {
  samples: number[];
  items: number;
  walks: number;
}

/** Walks a workspace's backlog from the look-back start to the head, repeating until enough pages were timed. */
async function walk(baseUrl: string, keys: string[], kind: Kind, maxAge: string, options: Options): Promise<Cell & { heads: string[] }> {
  const cell: Cell & { heads: string[] } = { samples: [], items: 0, walks: 0, heads: [] };
  for (let round = 0; cell.samples.length < options.minSamples || round === 0; round++) {
    for (const key of keys) {
      let follow: string | undefined;
      for (let pages = 0; pages < options.maxPages; pages++) {
        const page = await getPage(baseUrl, key, kind, maxAge, follow);
        cell.samples.push(page.ms);
        cell.items += page.items;
        follow = page.follow;
        if (!page.more) break;
      }
      cell.walks++;
      if (round === 0) cell.heads.push(follow ?? '');
    }
  }
  return cell;
}

/** Polls at the head: each bookmark is the end of a finished walk, so pages are empty until something new comes. */
async function headPolls(baseUrl: string, keys: string[], heads: string[], kind: Kind, samples: number): Promise<Cell> {
  const cell: Cell = { samples: [], items: 0, walks: 0 };
  const follows = [...heads];
  for (let i = 0; i < samples; i++) {
    const k = i % keys.length;
    const page = await getPage(baseUrl, keys[k], kind, '', follows[k]);
    follows[k] = page.follow;
    cell.samples.push(page.ms);
    cell.items += page.items;
  }
  return cell;
}

/** `count` clients, each polling findings and alerts of its own workspace at the head every `intervalMs`. */
function startPollers(baseUrl: string, keys: string[], intervalMs: number): { stop(): Promise<number[]> } {
  let running = true;
  const latencies: number[] = [];
  const loops = keys.map(async (key, i) => {
    await new Promise((r) => setTimeout(r, (i * intervalMs) / Math.max(1, keys.length)));
    const follows: Record<Kind, string | undefined> = { findings: undefined, alerts: undefined };
    while (running) {
      for (const kind of KINDS) {
        let more = true;
        while (more && running) {
          const page = await getPage(baseUrl, key, kind, '1h', follows[kind]);
          latencies.push(page.ms);
          follows[kind] = page.follow;
          more = page.more;
        }
      }
      if (intervalMs > 0) await new Promise((r) => setTimeout(r, intervalMs));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return latencies;
    },
  };
}

interface Row {
  load: string;
  kind: Kind;
  what: string;
  cell: Cell;
}

async function measureAll(baseUrl: string, manifest: Manifest, options: Options, load: string): Promise<Row[]> {
  const { walkers } = measuredRanks(options);
  const walkerKeys = walkers.map((rank) => manifest.keys[String(rank)]);
  const rows: Row[] = [];
  for (const kind of KINDS) {
    let heads: string[] = [];
    for (const window of WINDOWS) {
      const cell = await walk(baseUrl, walkerKeys, kind, window[kind], options);
      heads = cell.heads;
      rows.push({ load, kind, what: `walk, maxAge ${window.label}`, cell });
      process.stdout.write('.');
    }
    rows.push({ load, kind, what: 'poll at the head', cell: await headPolls(baseUrl, walkerKeys, heads, kind, options.minSamples) });
  }
  process.stdout.write('\n');
  return rows;
}

function printRows(rows: Row[]): void {
  console.log('| load | endpoint | pages | p50 ms | p99 ms | max ms | pages timed | records served | walks |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const { load, kind, what, cell } of rows) {
    const s = cell.samples;
    console.log(
      `| ${load} | /v1/${kind} | ${what} | ${percentile(s, 50).toFixed(1)} | ${percentile(s, 99).toFixed(1)} | ${Math.max(...s).toFixed(1)} | ${s.length} | ${cell.items.toLocaleString()} | ${cell.walks} |`,
    );
  }
}

async function readSizes(dataDir: string): Promise<TableSize[]> {
  const factory = new ChdbStoreFactory(path.join(dataDir, 'clickhouse'));
  try {
    return await tableSizes(await factory.open(FINDINGS_DATABASE, FINDINGS_MIGRATIONS));
  } finally {
    await factory.close();
  }
}

function printSizes(sizes: TableSize[]): void {
  const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MiB`;
  console.log('\n| table | rows | active parts | on disk | on disk per million records | uncompressed |');
  console.log('|---|---|---|---|---|---|');
  for (const s of sizes) {
    console.log(`| ${s.table} | ${s.rows.toLocaleString()} | ${s.parts} | ${mb(s.bytesOnDisk)} | ${mb((s.bytesOnDisk / s.rows) * 1e6)} | ${mb(s.bodyBytes)} |`);
  }
}

async function measure(dataDir: string, manifest: Manifest, options: Options): Promise<void> {
  const vigil = await startVigil({
    dataDir,
    env: VIGIL_ENV,
    nodeArgs: options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [],
  });
  const rows: Row[] = [];
  let pollerLatencies: number[] = [];
  const { walkers, pollers } = measuredRanks(options);
  try {
    // Warm-up: one walk per walker with the default window, not timed.
    for (const rank of walkers) await walk(vigil.baseUrl, [manifest.keys[String(rank)]], 'findings', '', { ...options, minSamples: 1 });
    rows.push(...(await measureAll(vigil.baseUrl, manifest, options, 'alone')));
    if (options.pollers > 0) {
      const pollerSet = startPollers(vigil.baseUrl, pollers.map((rank) => manifest.keys[String(rank)]), options.pollIntervalMs);
      await new Promise((r) => setTimeout(r, Math.max(2000, options.pollIntervalMs * 2)));
      rows.push(...(await measureAll(vigil.baseUrl, manifest, options, `${pollers.length} pollers`)));
      pollerLatencies = await pollerSet.stop();
    }
  } finally {
    await vigil.stop();
  }
  const total = manifest.records.findings + manifest.records.alerts;
  const largest = Math.round(expectedShare(1, options.workspaces) * manifest.records.findings);
  console.log(`\n## Findings paging at volume: ${total.toLocaleString()} records (findings and alerts, half each), ${options.workspaces} workspaces\n`);
  console.log(`Walkers: workspaces of rank ${walkers.join(', ')} (the largest ≈ ${largest.toLocaleString()} records of each kind); pages of 1,000 through HTTP, no compression; at most ${options.maxPages} pages per walk.`);
  console.log(`Pollers: ${pollers.length} workspaces, each GET /v1/findings then /v1/alerts at its head every ${options.pollIntervalMs} ms (again at once while more=true).\n`);
  printRows(rows);
  if (pollerLatencies.length) {
    console.log(`\nPollers' own pages: ${pollerLatencies.length}, p50 ${percentile(pollerLatencies, 50).toFixed(1)} ms, p99 ${percentile(pollerLatencies, 99).toFixed(1)} ms`);
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const temporary = !options.dataDir;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-paging-bench-'));
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const manifest = await prepareStore(dataDir, options);
    if (!options.loadOnly) await measure(dataDir, manifest, options);
    printSizes(await readSizes(dataDir));
    console.log(`\nBulk load: ${manifest.loadSeconds.toFixed(0)} s (${manifest.loadedAt}).`);
  } finally {
    if (temporary && !options.keep) fs.rmSync(dataDir, { recursive: true, force: true });
    else console.log(`store kept in ${dataDir}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
