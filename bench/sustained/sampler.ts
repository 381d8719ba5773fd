/**
 * Reads the deployment's counters and memory: accepted and scored events from /metrics, RSS from /proc, heap and
 * detection state from /metrics, summed over every process (one for the all-in-one; gateways, scoring engines,
 * the other services, the broker and Redis for the split deployment).
 */
import * as fs from 'node:fs';
import { api } from '@vigil/testing';
import { addBuckets, histogramBuckets, type Buckets } from './histogram';
import { CLOCK_TICKS_PER_SECOND, niceOf, ticksOf } from './proc-stat';

export interface Sample {
  atMs: number;
  accepted: number;
  scored: number;
  /** Finding records (creates and updates) the scoring engines emitted. */
  findingRecords: number;
  rssBytes: number;
  /**
   * The file-backed part of rssBytes: pages of mapped files (the node binary, the embedded ClickHouse library),
   * shared with other processes mapping them and given back under memory pressure without swapping.
   */
  rssFileBytes: number;
  /** RSS summed per role (e.g. `ingest-gateway` over both replicas). */
  rssByRole: Map<string, number>;
  heapUsedBytes: number;
  /** V8 heap used by the scoring worker threads together. */
  threadHeapUsedBytes?: number;
  /** Memory outside the main V8 heap that Node accounts for (Buffers and other external allocations). */
  externalBytes?: number;
  /** Memory the embedded ClickHouse engine tracks. */
  storeEngineBytes?: number;
  /** The part of storeEngineBytes that merges, inserts and queries running at the time hold. */
  storeActivityBytes?: { merges: number; inserts: number; queries: number };
  stateBytes?: number;
  evictions?: number;
  /** Partition state checkpoints so far, and the seconds of work they cost (snapshot, compression, publication). */
  checkpoints?: { count: number; seconds: number };
  /**
   * The stages of the way to a visible finding so far (seconds): telemetry appended to the events topic → scored and its findings published;
   * a finding appended to the findings topic → stored and servable.
   */
  stageDelays: { scoring?: Buckets; store?: Buckets };
  /** CPU seconds used so far, summed over every process, by who used them. */
  cpuSeconds: CpuSeconds;
  /** The `node` part of cpuSeconds by thread (see {@link NodeThreadGroup}); threads that have exited no longer count. */
  nodeCpuSeconds: Map<NodeThreadGroup, number>;
}

/**
 * Node.js threads told apart: `main` is each process's event loop; the others by nice value, since Vigil's
 * worker threads lower their own priority (scoring VIGIL_SCORING_NICE, ingest VIGIL_INGEST_NICE) while the
 * worker threads of V8 (garbage collection, compilation) and libuv's pool (zlib, file I/O) keep the process's: `nice 0`.
 */
export type NodeThreadGroup = 'main' | `nice ${number}`;

/**
 * CPU time by thread group. Node.js threads (the event loops, worker threads and V8's helpers) are all named `node`;
 * ClickHouse's merges (the embedded engine's, or a server's) run on `MergeMutate` threads; `other` is everything
 * else, threads that have exited included: in the all-in-one, the embedded engine's insert and query threads; in
 * the split deployment also the Kafka broker and Redis.
 */
export interface CpuSeconds {
  node: number;
  merges: number;
  other: number;
}

function readOrUndefined(path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** CPU seconds of `pid` by thread group, and its Node.js threads' by {@link NodeThreadGroup}; zeros when the process is gone. */
export function threadCpuOf(pid: number | undefined): { cpu: CpuSeconds; node: Map<NodeThreadGroup, number> } {
  const cpu: CpuSeconds = { node: 0, merges: 0, other: 0 };
  const node = new Map<NodeThreadGroup, number>();
  const processStat = pid === undefined ? undefined : readOrUndefined(`/proc/${pid}/stat`);
  if (processStat === undefined) return { cpu, node };
  let tasks: string[] = [];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return { cpu, node };
  }
  let named = 0;
  for (const tid of tasks) {
    const comm = readOrUndefined(`/proc/${pid}/task/${tid}/comm`)?.trim();
    const stat = readOrUndefined(`/proc/${pid}/task/${tid}/stat`);
    if (comm === undefined || stat === undefined) continue;
    const ticks = ticksOf(stat);
    if (comm === 'node') {
      cpu.node += ticks;
      const group: NodeThreadGroup = Number(tid) === pid ? 'main' : `nice ${niceOf(stat)}`;
      node.set(group, (node.get(group) ?? 0) + ticks / CLOCK_TICKS_PER_SECOND);
    } else if (comm === 'MergeMutate') cpu.merges += ticks;
    else continue;
    named += ticks;
  }
  cpu.other = Math.max(0, ticksOf(processStat) - named);
  for (const key of Object.keys(cpu) as (keyof CpuSeconds)[]) cpu[key] /= CLOCK_TICKS_PER_SECOND;
  return { cpu, node };
}

/** CPU seconds of `pid` by thread group; zeros when the process is gone. */
export function cpuOf(pid: number | undefined): CpuSeconds {
  return threadCpuOf(pid).cpu;
}

export type Counted = 'accepted' | 'scored';

/** One process of the deployment: its pid for RSS and, for a Vigil service, where its /metrics are. */
export interface SampledProcess {
  role: string;
  pid(): number | undefined;
  metrics?: {
    baseUrl: string;
    /** Which event counters this process contributes (the gateways accept, the scoring engines score). */
    counts: readonly Counted[];
  };
}

/** Sum of a metric's samples, only those whose labels contain `labels` when given. */
function metricSum(text: string, name: string, labels?: string): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
    if (labels !== undefined && !line.includes(labels)) continue;
    sum = (sum ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** Resident set size of `pid`; 0 when the process is gone. */
export function rssOf(pid: number | undefined): number {
  return residentOf(pid).rss;
}

/** Resident set size of `pid` and its file-backed part (see Sample.rssFileBytes); zeros when the process is gone. */
export function residentOf(pid: number | undefined): { rss: number; rssFile: number } {
  if (pid === undefined) return { rss: 0, rssFile: 0 };
  let status: string;
  try {
    status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return { rss: 0, rssFile: 0 };
  }
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), rssFile: kb('RssFile') };
}

export function totalRss(processes: readonly SampledProcess[]): number {
  return processes.reduce((n, p) => n + rssOf(p.pid()), 0);
}

/** Adds optional figures: undefined only when no process reported the metric. */
const addOptional = (a: number | undefined, b: number | undefined) => (a === undefined ? b : b === undefined ? a : a + b);

export async function sample(processes: readonly SampledProcess[], started: number): Promise<Sample> {
  const texts = await Promise.all(
    processes.map(async (p) => (p.metrics ? (await api({ baseUrl: p.metrics.baseUrl, key: '' }, 'GET', '/metrics', { key: null, headers: { accept: 'text/plain' } })).text : undefined)),
  );
  const result: Sample = {
    atMs: Date.now() - started,
    accepted: 0,
    scored: 0,
    findingRecords: 0,
    rssBytes: 0,
    rssFileBytes: 0,
    rssByRole: new Map(),
    heapUsedBytes: 0,
    cpuSeconds: { node: 0, merges: 0, other: 0 },
    nodeCpuSeconds: new Map(),
    stageDelays: {},
  };
  processes.forEach((p, i) => {
    const { rss, rssFile } = residentOf(p.pid());
    const { cpu, node } = threadCpuOf(p.pid());
    result.cpuSeconds.node += cpu.node;
    result.cpuSeconds.merges += cpu.merges;
    result.cpuSeconds.other += cpu.other;
    for (const [group, seconds] of node) result.nodeCpuSeconds.set(group, (result.nodeCpuSeconds.get(group) ?? 0) + seconds);
    result.rssBytes += rss;
    result.rssFileBytes += rssFile;
    result.rssByRole.set(p.role, (result.rssByRole.get(p.role) ?? 0) + rss);
    const text = texts[i];
    if (text === undefined || !p.metrics) return;
    if (p.metrics.counts.includes('accepted')) result.accepted += metricSum(text, 'vigil_events_accepted_total') ?? 0;
    if (p.metrics.counts.includes('scored')) {
      result.scored += metricSum(text, 'vigil_events_scored_total') ?? 0;
      result.findingRecords += metricSum(text, 'vigil_finding_records_total') ?? 0;
    }
    result.heapUsedBytes += metricSum(text, 'vigil_nodejs_heap_size_used_bytes') ?? 0;
    result.threadHeapUsedBytes = addOptional(result.threadHeapUsedBytes, metricSum(text, 'vigil_scoring_thread_heap_bytes', 'kind="used"'));
    result.externalBytes = addOptional(result.externalBytes, metricSum(text, 'vigil_nodejs_external_memory_bytes'));
    result.storeEngineBytes = addOptional(result.storeEngineBytes, metricSum(text, 'vigil_store_engine_memory_bytes'));
    const activity = (name: string) => metricSum(text, 'vigil_store_engine_activity_memory_bytes', `activity="${name}"`);
    const [merges, inserts, queries] = [activity('merges'), activity('inserts'), activity('queries')];
    if (merges !== undefined && inserts !== undefined && queries !== undefined) {
      const sum = result.storeActivityBytes ?? { merges: 0, inserts: 0, queries: 0 };
      result.storeActivityBytes = { merges: sum.merges + merges, inserts: sum.inserts + inserts, queries: sum.queries + queries };
    }
    result.stateBytes = addOptional(result.stateBytes, metricSum(text, 'vigil_scoring_state_bytes'));
    result.evictions = addOptional(result.evictions, metricSum(text, 'vigil_scoring_state_evictions_total'));
    const checkpoints = metricSum(text, 'vigil_scoring_checkpoint_seconds_count');
    const checkpointSeconds = metricSum(text, 'vigil_scoring_checkpoint_seconds_sum');
    if (checkpoints !== undefined && checkpointSeconds !== undefined) {
      const sum = result.checkpoints ?? { count: 0, seconds: 0 };
      result.checkpoints = { count: sum.count + checkpoints, seconds: sum.seconds + checkpointSeconds };
    }
    const stages = result.stageDelays;
    stages.scoring = addBuckets(stages.scoring, histogramBuckets(text, 'vigil_scoring_delay_seconds'));
    stages.store = addBuckets(stages.store, histogramBuckets(text, 'vigil_results_store_delay_seconds', 'kind="findings"'));
  });
  return result;
}
