import { gzipSync } from 'node:zlib';

/** Deterministic random-looking base32 label (what DNS tunnelling tools put in subdomains). */
export function base32Label(seed: number, length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  let state = seed * 2654435761 + 12345;
  let label = '';
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648;
    label += alphabet[state % 32];
  }
  return label;
}

/** A burst of tunnel-like DNS queries from one host: distinct long random labels under one domain. */
export function tunnelQueries(srcIP: string, domain: string, count: number, startMs = Date.now() - 30_000): object[] {
  return Array.from({ length: count }, (_, i) => ({
    ts: new Date(startMs + i * 500).toISOString(),
    srcIP,
    srcHost: 'wks-' + srcIP.split('.').pop(),
    query: `${base32Label(i + 1, 52)}.${domain}`,
    qtype: 'TXT',
  }));
}

export function ndjson(events: object[]): Buffer {
  return Buffer.from(events.map((e) => JSON.stringify(e) + '\n').join(''));
}

export function gzipped(events: object[]): Buffer {
  return gzipSync(ndjson(events));
}
