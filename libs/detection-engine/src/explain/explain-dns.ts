import type { TelemetryBatch } from '@vigil/contracts';
import { assessDga, defaultDgaModel } from '../detections/dga/dga-score';
import { assessSubdomain, DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS } from '../detections/dns-tunnel/subdomain-features';
import { registeredDomain } from '../domain';
import { DetectionEngine } from '../engine';
import type { IndicatorStore } from '../intel/indicator-store';

/** Everything the engine thinks about one DNS name queried once, for analysts and evaluation. */
export interface DnsNameExplanation {
  name: string;
  registeredDomain?: string;
  popularity?: string;
  dga?: {
    label: string;
    score: number;
    threshold: number;
    burstThreshold: number;
    aboveThreshold: boolean;
    /** Share of benign (validation) labels scoring at least as high: what the per-host decision weighs. */
    benignTail: number;
    /** English words the label was cut into. */
    words: string[];
    /** Cloud/CDN zone whose provider generated the label: not judged. */
    providerZone?: string;
  };
  tunnel?: {
    subdomain: string;
    randomLooking: boolean;
    /** Why it looks like tunnel traffic (encoded payload, non-host characters, counter label). */
    signal?: string;
    payloadLength: number;
    randomness: number;
    charset: string;
    thresholds: { minPayloadLength: number; minRandomness: number };
  };
  intel: { indicator: string; kind: string; label: string; source: string }[];
  /** Detections that fire on this single query (windowed ones — tunnel, DGA burst — need a run of queries). */
  detections: { id: string; threat: string; severity: number }[];
  flags: string[];
  labels: string[];
}

/**
 * Explains DNS names with the engine's own code: the DGA and tunnelling per-query scores with the thresholds in
 * force, intel matches, and what a real engine run over one query of each name raises.
 */
export class DnsExplainer {
  constructor(private readonly intel?: IndicatorStore) {}

  explain(rawName: string): DnsNameExplanation {
    const name = rawName.trim().toLowerCase().replace(/\.$/, '');
    const domain = registeredDomain(name);
    const dga = assessDga(name);
    const subdomain = domain && name.length > domain.length ? name.slice(0, name.length - domain.length - 1) : '';
    const tunnel = subdomain ? assessSubdomain(subdomain) : undefined;
    const engine = new DetectionEngine({ intel: this.intel });
    const batch: TelemetryBatch = {
      v: 1,
      workspaceId: 'explain',
      type: 'dns',
      batchId: `explain:${name}`,
      receivedAt: Date.now(),
      events: [{ ts: new Date().toISOString(), srcIP: '192.0.2.1', query: name, qtype: 'A' }],
    };
    const { findings, alerts } = engine.process(batch);
    const alert = alerts[0]?.alert;
    return {
      name,
      ...(domain ? { registeredDomain: domain } : {}),
      ...(dga?.popularity ? { popularity: dga.popularity } : {}),
      ...(dga
        ? {
            dga: {
              label: dga.label,
              score: round(dga.score),
              threshold: round(dga.threshold),
              burstThreshold: round(dga.burstThreshold),
              aboveThreshold: dga.aboveThreshold,
              benignTail: Number(defaultDgaModel().benignTail(dga.score).toPrecision(3)),
              words: dga.words,
              ...(dga.providerZone !== undefined ? { providerZone: dga.providerZone } : {}),
            },
          }
        : {}),
      ...(tunnel
        ? {
            tunnel: {
              subdomain,
              randomLooking: tunnel.randomLooking,
              ...(tunnel.signal !== undefined ? { signal: tunnel.signal } : {}),
              payloadLength: tunnel.payload.length,
              randomness: round(tunnel.payload.randomness),
              charset: tunnel.payload.charset,
              thresholds: { minPayloadLength: DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS.minPayloadLength, minRandomness: DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS.minRandomness },
            },
          }
        : {}),
      intel: (this.intel?.matchDomain(name) ?? []).map((m) => ({ indicator: m.indicator, kind: m.kind, label: m.label, source: m.source })),
      detections: findings.map((f) => {
        const detection = (f.finding.enrichments as { data: { aggregation: { key: { detections: { id: string; threat: string; severity: number }[] } } } }[])[0].data.aggregation.key.detections[0];
        return { id: detection.id, threat: detection.threat, severity: detection.severity };
      }),
      flags: alert?.wisdom.flags ?? [],
      labels: alert?.wisdom.labels ?? [],
    };
  }
}

function pctText(share: number): string {
  return share >= 0.01 ? `${(100 * share).toFixed(1)} %` : `${(100 * share).toPrecision(2)} %`;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The text form of an explanation, one block per name. */
export function formatExplanation(e: DnsNameExplanation): string {
  const lines = [`${e.name}`];
  lines.push(`  registered domain: ${e.registeredDomain ?? '-'}${e.popularity ? ` (popularity ${e.popularity})` : ''}`);
  if (e.dga) {
    const d = e.dga;
    lines.push(
      d.providerZone !== undefined
        ? `  DGA: label "${d.label}" is generated by the provider of ${d.providerZone}: not judged (score ${d.score})`
        : `  DGA: label "${d.label}" score ${d.score} (threshold ${d.threshold}, burst ${d.burstThreshold})${d.aboveThreshold ? ' ABOVE' : ''}; ` +
            `${pctText(d.benignTail)} of benign labels score as high; words: ${d.words.length > 0 ? d.words.join(' + ') : 'none'}`,
    );
  }
  if (e.tunnel) {
    lines.push(
      `  tunnel: subdomain payload ${e.tunnel.payloadLength} chars, randomness ${e.tunnel.randomness}, charset ${e.tunnel.charset} ` +
        `(an encoded payload needs >= ${e.tunnel.thresholds.minPayloadLength} chars and randomness >= ${e.tunnel.thresholds.minRandomness}; ` +
        `short labels with '+', '/' or '=' and counter labels like r12345 also count): ${e.tunnel.randomLooking ? `RANDOM-LOOKING (${e.tunnel.signal})` : 'no'}`,
    );
  }
  lines.push(`  intel: ${e.intel.length ? e.intel.map((m) => `${m.indicator} ${m.label} (${m.source})`).join('; ') : 'no match'}`);
  lines.push(`  detections on one query: ${e.detections.length ? e.detections.map((d) => `${d.id} → ${d.threat} (severity ${d.severity})`).join('; ') : 'none'}`);
  lines.push(`  flags: ${e.flags.length ? e.flags.join(', ') : '-'}${e.labels.length ? `  labels: ${e.labels.join(', ')}` : ''}`);
  return lines.join('\n');
}
