/** Reads the server's counters and memory: scored events from /metrics, RSS and heap from /proc and /metrics. */
import * as fs from 'node:fs';
import { api, type VigilProcess } from '@vigil/testing';

export interface Sample {
  atMs: number;
  accepted: number;
  scored: number;
  rssBytes: number;
  heapUsedBytes: number;
  /** V8 heap used by the scoring worker threads together. */
  threadHeapUsedBytes?: number;
  /** Memory outside the main V8 heap that Node accounts for (Buffers and other external allocations). */
  externalBytes?: number;
  /** Memory the embedded ClickHouse engine tracks. */
  storeEngineBytes?: number;
  stateBytes?: number;
  evictions?: number;
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

export function rssOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

export async function sample(vigil: VigilProcess, started: number): Promise<Sample> {
  const metrics = await api(vigil, 'GET', '/metrics', { key: null, headers: { accept: 'text/plain' } });
  return {
    atMs: Date.now() - started,
    accepted: metricSum(metrics.text, 'vigil_events_accepted_total') ?? 0,
    scored: metricSum(metrics.text, 'vigil_events_scored_total') ?? 0,
    rssBytes: rssOf(vigil.child.pid!),
    heapUsedBytes: metricSum(metrics.text, 'vigil_nodejs_heap_size_used_bytes') ?? 0,
    threadHeapUsedBytes: metricSum(metrics.text, 'vigil_scoring_thread_heap_bytes', 'kind="used"'),
    externalBytes: metricSum(metrics.text, 'vigil_nodejs_external_memory_bytes'),
    storeEngineBytes: metricSum(metrics.text, 'vigil_store_engine_memory_bytes'),
    stateBytes: metricSum(metrics.text, 'vigil_scoring_state_bytes'),
    evictions: metricSum(metrics.text, 'vigil_scoring_state_evictions_total'),
  };
}
