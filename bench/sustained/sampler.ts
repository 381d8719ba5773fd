/** Reads the server's counters and memory: scored events from /metrics, RSS and heap from /proc and /metrics. */
import * as fs from 'node:fs';
import { api, type VigilProcess } from '@vigil/testing';

export interface Sample {
  atMs: number;
  accepted: number;
  scored: number;
  rssBytes: number;
  heapUsedBytes: number;
  stateBytes?: number;
  evictions?: number;
}

function metricSum(text: string, name: string): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith(name) && (line[name.length] === ' ' || line[name.length] === '{')) sum = (sum ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
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
    stateBytes: metricSum(metrics.text, 'vigil_scoring_state_bytes'),
    evictions: metricSum(metrics.text, 'vigil_scoring_state_evictions_total'),
  };
}
