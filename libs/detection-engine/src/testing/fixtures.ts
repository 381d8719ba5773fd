import { createRng, sharedDir } from '@vigil/testing';
import { readFileSync } from 'node:fs';
import type { DnsEvent, HttpEvent, TelemetryBatch, TelemetryEvent, TelemetryType } from '@vigil/contracts';

export const DATA_DIR = sharedDir('data');

const tunnelCache = new Map<string, string[]>();

/** Label-1 (tunnel tool) query names of the shared tunnel data, in file order, trailing dot kept. */
export function tunnelQueries(file: 'train.csv' | 'validate.csv' = 'train.csv'): string[] {
  let queries = tunnelCache.get(file);
  if (queries === undefined) {
    queries = readFileSync(`${DATA_DIR}/tunnel/${file}`, 'utf8')
      .split('\n')
      .slice(1)
      .filter((line) => line.startsWith('1,'))
      .map((line) => line.slice(2));
    tunnelCache.set(file, queries);
  }
  return [...queries];
}

export function benignNames(file: 'cisco-top20k.txt' | 'tranco10k.txt' | 'majestic-top10k.txt' | 'cloudflare-top100k.txt'): string[] {
  return readFileSync(`${DATA_DIR}/benign/${file}`, 'utf8').split('\n').filter((line) => line.length > 0);
}

/** Seeded random numbers so that shuffles and timings are the same on every run. */
export function seededRandom(seed: number): () => number {
  const rng = createRng(seed);
  return () => rng.next();
}

export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const random = seededRandom(seed);
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export const T0 = Date.parse('2026-11-21T10:00:00Z');

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

export function dnsEvent(query: string, timeMs: number, srcIP = '10.0.0.5', extra: Partial<DnsEvent> = {}): DnsEvent {
  return { ts: iso(timeMs), srcIP, srcPort: 53000, query, qtype: 'A', ...extra };
}

export function httpEvent(url: string, timeMs: number, srcIP = '10.0.0.5', extra: Partial<HttpEvent> = {}): HttpEvent {
  return { ts: iso(timeMs), srcIP, srcPort: 41000, url, method: 'GET', ...extra };
}

export function batch(
  batchId: string,
  type: TelemetryType,
  events: TelemetryEvent[],
  opts: { workspaceId?: string; receivedAt?: number } = {},
): TelemetryBatch {
  return {
    v: 1,
    workspaceId: opts.workspaceId ?? 'ws-test',
    type,
    batchId,
    receivedAt: opts.receivedAt ?? T0 + 5 * 60_000,
    events,
  };
}
