/**
 * DNS tunnelling by tool: sessions of six tunnel tools the shared data does not hold (generated from their
 * protocol descriptions, libs/testing/src/generators/dns-*.ts), each judged by the `dns_tunnel` detection when it
 * was left out of every tuning step (leave-one-tool-out), and the per-query false-positive rate on benign names
 * the tuning never saw (the held-out benign slice of tools/dga/dataset.ts, cloud/CDN names, AV-reputation,
 * DNS block list and mail-authentication names).
 *
 * Tuning: a small grid over the detection's free parameters (short-token weight and length, the weighted
 * threshold, the vowel share of letters-only payloads). For each left-out tool, the setting is chosen on the
 * other tools plus the tunnel zones of the shared train.csv, under the constraint of at most 0.1 % per-query
 * false positives and no alert on the tuning benign names (the train/validation slices of the rankings and a
 * tuning seed of the service names); then the left-out tool is measured with it. The note under the table gives
 * the setting chosen with every tool in next to the shipped defaults (they differ: the shipped ones are less
 * cautious; the benign table below measures them).
 *
 * Alone: node -r ./tools/register.cjs tools/eval/tunnels.ts [<shared dir>]
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { DnsEvent, TelemetryBatch } from '@vigil/contracts';
import {
  DEFAULT_DNS_TUNNEL_OPTIONS,
  DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS,
  DnsTunnelDetector,
  observeEvent,
  type DnsTunnelOptions,
  type ObservedEvent,
} from '@vigil/detection-engine';
import { parseTelemetryBatch } from '@vigil/ingest';
import {
  cdnHostname,
  cobaltStrikeDnsEvents,
  createRng,
  dns2tcpDnsEvents,
  dnscat2DnsEvents,
  dnsExfiltratorDnsEvents,
  encodedServiceHostname,
  flightsimTunnelDnsEvents,
  iodineDnsEvents,
  sharedDir,
} from '@vigil/testing';
import { registrableLabel } from '../../libs/detection-engine/src/detections/dga/registrable-label';
import { benignLabels } from '../dga/dataset';
import { pct, type EvalSection, type EvalTable } from './table';

const SESSION_QUERIES = 200;
const SEEDS = 10;
const QUICK_SEEDS = 4;
/** The goal: every tool detected within this many queries of its session. */
const GOAL_QUERIES = 50;
const MAX_PER_QUERY_FPR = 0.001;

interface Scenario {
  tool: string;
  variant: string;
  make(seed: number): DnsEvent[];
}

const host = { srcIP: '10.30.0.7' };

export const TUNNEL_SCENARIOS: Scenario[] = [
  { tool: 'dnscat2', variant: 'encrypted shell, domain', make: (seed) => dnscat2DnsEvents(SESSION_QUERIES, { ...host, seed, domain: 'c2.skullseclabs.org' }) },
  { tool: 'dnscat2', variant: 'encrypted shell, direct (dnscat.)', make: (seed) => dnscat2DnsEvents(SESSION_QUERIES, { ...host, seed }) },
  { tool: 'dnscat2', variant: 'cleartext idle, direct', make: (seed) => dnscat2DnsEvents(SESSION_QUERIES, { ...host, seed, encrypted: false, activity: 'idle' }) },
  { tool: 'dns2tcp', variant: 'ssh, TXT', make: (seed) => dns2tcpDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 'dns2tcp.hsc.fr' }) },
  { tool: 'dns2tcp', variant: 'idle, KEY', make: (seed) => dns2tcpDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 'dns2tcp.hsc.fr', qtype: 'KEY', activity: 'idle' }) },
  { tool: 'iodine', variant: 'ssh, base128 up, raw down, NULL', make: (seed) => iodineDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 't.vpn-relay.net' }) },
  { tool: 'iodine', variant: 'ssh, base32 up, base32 down, TXT', make: (seed) => iodineDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 't.vpn-relay.net', upstream: 'base32', downstream: 'base32' }) },
  { tool: 'iodine', variant: 'upload, base64 up, base64 down, TXT', make: (seed) => iodineDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 't.vpn-relay.net', upstream: 'base64', downstream: 'base64', activity: 'upload' }) },
  { tool: 'iodine', variant: 'idle, base64u up, raw down, PRIVATE', make: (seed) => iodineDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 't.vpn-relay.net', upstream: 'base64u', qtype: 'PRIVATE', activity: 'idle' }) },
  { tool: 'DNSExfiltrator', variant: 'base64url', make: (seed) => dnsExfiltratorDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 'exfil-drop.com' }) },
  { tool: 'DNSExfiltrator', variant: 'base32, 30-char labels, 1 s throttle', make: (seed) => dnsExfiltratorDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 'exfil-drop.com', encoding: 'base32', labelMaxSize: 30, throttleMs: 1000 }) },
  { tool: 'Cobalt Strike DNS', variant: 'dns-txt', make: (seed) => cobaltStrikeDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 'ns1.update-cdn.com' }) },
  { tool: 'Cobalt Strike DNS', variant: 'dns (A)', make: (seed) => cobaltStrikeDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 'ns1.update-cdn.com', channel: 'dns' }) },
  { tool: 'Cobalt Strike DNS', variant: 'dns6 (AAAA)', make: (seed) => cobaltStrikeDnsEvents(SESSION_QUERIES, { ...host, seed, domain: 'ns1.update-cdn.com', channel: 'dns6' }) },
  { tool: 'flightsim tunnel-dns', variant: 'default', make: (seed) => flightsimTunnelDnsEvents(SESSION_QUERIES, { ...host, seed }) },
];

/** Events through the gateway's parser (query names lower-cased, limits enforced), as the engine sees them. */
function observed(events: { query: string; qtype?: string; ts?: string; srcIP?: string }[], batchId: string): ObservedEvent[] {
  const body = Buffer.from(events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const parsed = parseTelemetryBatch('dns', body, new Date('2026-11-21T12:00:00Z'));
  const batch: TelemetryBatch = { v: 1, workspaceId: 'eval', type: 'dns', batchId, receivedAt: Date.parse('2026-11-21T12:00:00Z'), events: parsed.events };
  return parsed.events.flatMap((_, i) => observeEvent(batch, i) ?? []);
}

/** 1-based index of the query at which a fresh detector first fires, or undefined. */
function queriesToDetection(options: Partial<DnsTunnelOptions>, session: ObservedEvent[]): number | undefined {
  const detector = new DnsTunnelDetector(options);
  for (let i = 0; i < session.length; i++) if (detector.inspect(session[i]) !== undefined) return i + 1;
  return undefined;
}

/** Benign host names, split so that tuning never sees the names it is measured on. */
interface BenignNames {
  tuning: { query: string; qtype: string }[];
  heldOut: { query: string; qtype: string }[];
  heldOutParts: Record<string, number>;
}

function benignNames(dataDir: string): BenignNames {
  const sliceOf = new Map(benignLabels(dataDir).map((b) => [b.label, b.slice] as const));
  const tuning: { query: string; qtype: string }[] = [];
  const heldOut: { query: string; qtype: string }[] = [];
  const parts: Record<string, number> = {};
  for (const list of ['cisco-top20k', 'cloudflare-top100k', 'tranco10k', 'majestic-top10k']) {
    for (const query of readFileSync(path.join(dataDir, 'benign', `${list}.txt`), 'utf8').split('\n').filter(Boolean)) {
      // The registrable label decides the slice (the same rule as the dataset: a label's hash).
      const slice = sliceOf.get(registrableLabel(query)?.label ?? '');
      if (slice === 'heldout') heldOut.push({ query, qtype: 'A' });
      else tuning.push({ query, qtype: 'A' });
    }
  }
  parts['held-out ranking names'] = heldOut.length;
  for (const row of readFileSync(path.join(dataDir, 'tunnel', 'train.csv'), 'utf8').trim().split('\n').slice(1)) {
    const [label, qname] = row.split(',');
    if (label === '0') tuning.push({ query: qname, qtype: 'A' });
  }
  const tuneRng = createRng('tunnel-benign-tuning');
  const testRng = createRng('tunnel-benign-heldout');
  const service = (rng: ReturnType<typeof createRng>) => {
    const { name, qtype } = encodedServiceHostname(rng);
    return { query: name, qtype };
  };
  for (let i = 0; i < 10_000; i++) tuning.push(service(tuneRng), { query: cdnHostname(tuneRng), qtype: 'A' });
  for (let i = 0; i < 10_000; i++) heldOut.push(service(testRng));
  parts['AV-reputation, DNSBL, mail-auth, edge names'] = 10_000;
  for (let i = 0; i < 10_000; i++) heldOut.push({ query: cdnHostname(testRng), qtype: rng4(testRng) });
  parts['cloud/CDN names'] = 10_000;
  return { tuning, heldOut, heldOutParts: parts };
}

function rng4(rng: ReturnType<typeof createRng>): string {
  return rng.pick(['A', 'A', 'AAAA', 'HTTPS']);
}

/** Per-query rates: strong signals, and the weighted rate (short tokens count their weight). */
function perQueryRates(names: readonly ObservedEvent[], options: Partial<DnsTunnelOptions>): { strong: number; weighted: number; n: number } {
  const detector = new DnsTunnelDetector(options);
  let strong = 0;
  let weighted = 0;
  for (const name of names) {
    const a = detector.assess(name);
    if (a === undefined) continue;
    if (a.randomLooking) strong++;
    else if (a.signal === 'short-token') weighted += options.shortTokenWeight ?? DEFAULT_DNS_TUNNEL_OPTIONS.shortTokenWeight;
  }
  return { strong, weighted: strong + weighted, n: names.length };
}

/** Benign names resolved by 200 hosts, each name once, a few seconds apart per host (parsed once). */
function benignReplay(names: { query: string; qtype: string }[], tag: string): ObservedEvent[] {
  const t0 = Date.parse('2026-11-21T09:00:00Z');
  const events = names.map((n, i) => ({ ...n, ts: new Date(t0 + Math.floor(i / 200) * 3000 + (i % 200)).toISOString(), srcIP: `10.40.0.${(i % 200) + 1}` }));
  const out: ObservedEvent[] = [];
  for (let i = 0; i < events.length; i += 5000) out.push(...observed(events.slice(i, i + 5000), `${tag}-${i}`));
  return out;
}

function benignHits(replay: readonly ObservedEvent[], options: Partial<DnsTunnelOptions>): number {
  const detector = new DnsTunnelDetector(options);
  let hits = 0;
  for (const e of replay) if (detector.inspect(e) !== undefined) hits++;
  return hits;
}

interface Candidate {
  label: string;
  options: Partial<DnsTunnelOptions>;
}

function grid(): Candidate[] {
  const out: Candidate[] = [];
  for (const shortTokenWeight of [0, 0.34, 0.5, 1])
    for (const minDistinctSubdomains of [8, 10, 12, 15])
      for (const minShortTokenLength of [8, 10, 12])
        for (const maxLettersVowelShare of [0.25, 0.3, 0.35]) {
          if (shortTokenWeight === 0 && minShortTokenLength !== 10) continue;
          out.push({
            label: `weight ${shortTokenWeight}, threshold ${minDistinctSubdomains}, token ≥ ${minShortTokenLength}, vowels ≤ ${maxLettersVowelShare}`,
            options: { shortTokenWeight, minDistinctSubdomains, thresholds: { ...DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS, minShortTokenLength, maxLettersVowelShare } },
          });
        }
  return out;
}

/** Sessions of the shared train.csv tunnel zones, in capture order, 20 queries a second. */
function trainCsvSessions(dataDir: string): ObservedEvent[][] {
  const byZone = new Map<string, string[]>();
  for (const row of readFileSync(path.join(dataDir, 'tunnel', 'train.csv'), 'utf8').trim().split('\n').slice(1)) {
    const [label, qname] = row.split(',');
    if (label !== '1') continue;
    const zone = qname.replace(/\.$/, '').split('.').slice(-2).join('.');
    byZone.set(zone, [...(byZone.get(zone) ?? []), qname]);
  }
  const t0 = Date.parse('2026-11-21T10:00:00Z');
  return [...byZone.values()].filter((q) => q.length >= 100).flatMap((queries, z) =>
    Array.from({ length: 5 }, (_, k) =>
      observed(queries.slice(k * 200, k * 200 + SESSION_QUERIES).map((query, i) => ({ query, qtype: 'TXT', ts: new Date(t0 + i * 50).toISOString(), srcIP: '10.30.0.8' })), `train-${z}-${k}`),
    ),
  );
}


export const tunnelTools: EvalSection = {
  name: 'DNS tunnelling by tool',
  async run(context) {
    const seeds = context.quick ? QUICK_SEEDS : SEEDS;
    const sessions = new Map<string, ObservedEvent[][]>();
    for (const scenario of TUNNEL_SCENARIOS) {
      const list = sessions.get(scenario.tool) ?? [];
      for (let seed = 1; seed <= seeds; seed++) list.push(observed(scenario.make(seed), `${scenario.tool}-${scenario.variant}-${seed}`));
      sessions.set(scenario.tool, list);
    }
    const trainCsv = trainCsvSessions(context.dataDir);
    const benign = benignNames(context.dataDir);
    const tuningReplay = benignReplay(benign.tuning, 'tune');

    // Which settings the tuning benign names allow (they do not depend on the tools).
    const allowed = grid().filter((c) => {
      const r = perQueryRates(tuningReplay, c.options);
      return r.weighted / r.n <= MAX_PER_QUERY_FPR && benignHits(tuningReplay, c.options) === 0;
    });
    context.log(`tunnels: ${allowed.length} settings allowed by the tuning benign names`);
    // Among the allowed settings, those that meet the goal on the most tuning sessions; of them the most cautious
    // (highest threshold, lowest short-token weight, longest tokens, fewest vowels), so that the margin goes to
    // false positives.
    const caution = (c: Candidate): number[] => {
      const o = c.options;
      return [o.minDistinctSubdomains!, -o.shortTokenWeight!, o.thresholds!.minShortTokenLength, -o.thresholds!.maxLettersVowelShare];
    };
    const choose = (tools: string[]): Candidate => {
      const pool = [...tools.flatMap((t) => sessions.get(t)!), ...trainCsv];
      const met = allowed.map((c) => ({ c, met: pool.filter((session) => (queriesToDetection(c.options, session) ?? Infinity) <= GOAL_QUERIES).length }));
      const most = Math.max(...met.map((m) => m.met));
      return met
        .filter((m) => m.met === most)
        .map((m) => m.c)
        .sort((a, b) => {
          const x = caution(a), y = caution(b);
          for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return y[i] - x[i];
          return 0;
        })[0];
    };

    const tools = [...sessions.keys()];
    const rows: (string | number)[][] = [];
    for (const tool of tools) {
      const chosen = choose(tools.filter((t) => t !== tool));
      for (const scenario of TUNNEL_SCENARIOS.filter((s) => s.tool === tool)) {
        const firsts: (number | undefined)[] = [];
        for (let seed = 1; seed <= seeds; seed++) firsts.push(queriesToDetection(chosen.options, observed(scenario.make(seed), `${tool}-${scenario.variant}-${seed}-loto`)));
        const found = firsts.filter((f): f is number => f !== undefined).sort((a, b) => a - b);
        const within = found.filter((f) => f <= GOAL_QUERIES).length;
        rows.push([
          tool,
          scenario.variant,
          `${within}/${seeds} within ${GOAL_QUERIES}`,
          found.length === 0 ? '-' : `${found[Math.floor((found.length - 1) / 2)]} / ${found[found.length - 1]}`,
          chosen.label,
        ]);
      }
    }

    const all = choose(tools);
    const heldOutReplay = benignReplay(benign.heldOut, 'held');
    const shipped = { ...DEFAULT_DNS_TUNNEL_OPTIONS };
    const rates = perQueryRates(heldOutReplay, shipped);
    const alerts = benignHits(heldOutReplay, shipped);
    const tables: EvalTable[] = [
      {
        title: `DNS tunnelling by tool (leave-one-tool-out; ${seeds} sessions of ${SESSION_QUERIES} queries per variant, through the gateway parser)`,
        columns: ['tool (left out)', 'variant', 'detected', 'queries to detection (median / max)', 'setting tuned without this tool'],
        rows,
        notes: [
          `Goal: every session detected within ${GOAL_QUERIES} queries. Setting chosen with every tool in: ${all.label}; shipped: ` +
            `weight ${shipped.shortTokenWeight}, threshold ${shipped.minDistinctSubdomains}, token ≥ ${shipped.thresholds.minShortTokenLength}, vowels ≤ ${shipped.thresholds.maxLettersVowelShare}.`,
        ],
      },
      {
        title: 'DNS tunnelling: benign names never used in tuning (shipped defaults)',
        columns: ['names', 'per-query strong signals', 'per-query weighted (short tokens count their weight)', 'dns_tunnel hits, 200 hosts', 'goal'],
        rows: [[
          `${rates.n.toLocaleString('en-US')} (${Object.entries(benign.heldOutParts).map(([k, v]) => `${k} ${v.toLocaleString('en-US')}`).join(', ')})`,
          `${pct(rates.strong, rates.n, 3)} (${rates.strong})`,
          pct(rates.weighted, rates.n, 3),
          alerts,
          'per-query FPR ≤ 0.1 %, no hit',
        ]],
      },
    ];
    return tables;
  },
};

async function main(): Promise<void> {
  const { formatTable } = await import('./table');
  const shared = process.argv[2] ?? sharedDir();
  const context = { sharedDir: shared, dataDir: path.join(shared, 'data'), quick: false, workers: 1, log: (l: string) => void process.stderr.write(`${l}\n`), t0: Date.now() } as Parameters<EvalSection['run']>[0];
  for (const table of await tunnelTools.run(context)) console.log(`${formatTable(table)}\n`);
}

if (require.main === module) void main();
