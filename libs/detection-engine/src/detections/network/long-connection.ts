import type { Wisdom } from '@vigil/contracts';
import type { SharedKeyTable } from '../../state/shared-keys';
import type { DetectionDefinition, DetectionHit, Detector, ObservedEvent } from '../detection';
import { WindowedDetector, type WindowedState } from './windowed-detector';
import { BucketedSums, ONE_CONNECTION } from './bucketed-sums';
import { formatDuration, formatEndpoint, readFlow } from './flow';

export const LONG_CONNECTION: DetectionDefinition = {
  id: 'long_connection',
  threat: 'long_connection',
  title: 'Long connection to an Internet host',
  severity: 2,
  flags: ['long_connection'],
  mitreAttack: ['TA0011:T1071'],
  analytic: { id: 1, name: 'Rule' },
  findingType: 'Long Connection',
  keyDescription: 'destination IP:port',
};

export const STROBE: DetectionDefinition = {
  id: 'strobe',
  threat: 'strobe_connections',
  title: 'Strobe: very many connections to one Internet host',
  severity: 2,
  flags: ['strobe'],
  mitreAttack: ['TA0011:T1071'],
  analytic: { id: 3, name: 'Statistical' },
  findingType: 'Strobe',
  keyDescription: 'destination IP',
};

/**
 * A connection (flow `duration`, seconds) to an Internet host lasting at least `minDurationS`, 1 h by default
 * (RITA's lowest long-connection level): interactive shells and tunnels stay open, web requests do not.
 * Stateless; a sensor that reports long flows in slices reports each slice's duration, so it fires once the
 * slices are long themselves.
 */
export class LongConnectionDetector implements Detector {
  readonly definition = LONG_CONNECTION;
  readonly types = ['ip'] as const;

  constructor(private readonly minDurationS = 3_600) {
    if (!(minDurationS > 0)) throw new RangeError(`long_connection: minDurationS must be positive, got ${minDurationS}`);
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined || flow.destIP === undefined || !flow.destIsPublic) return undefined;
    if (flow.durationS === undefined || flow.durationS < this.minDurationS) return undefined;
    const where = formatEndpoint(flow.destIP, flow.destPort);
    const hours = (flow.durationS / 3_600).toFixed(1);
    const wisdom: Wisdom = { flags: [...LONG_CONNECTION.flags] };
    return {
      detection: LONG_CONNECTION,
      key: where,
      weight: 1,
      evidence: [{ event: observed, wisdom }],
      wisdom,
      observations: [`duration ${hours} h`],
      desc: `Connection to ${where}${flow.app === undefined ? '' : ` (${flow.app})`} open for ${hours} h (threshold ${(this.minDurationS / 3_600).toFixed(1)} h): a persistent channel such as a tunnel or remote shell`,
    };
  }
}

/**
 * RITA calls a pair with a huge connection count a strobe (default: 86,400 a day, one a second). Here: 3,600
 * connections from one host to one Internet host within an hour, DNS and NTP excepted.
 */
export interface StrobeOptions {
  windowMs: number;
  minConnections: number;
  maxKeys: number;
  maxEvidence: number;
  ignorePorts: readonly number[];
  /** The engine's table of (host, destination) keys, shared by the per-pair detections; else a table of its own. */
  pairKeys?: SharedKeyTable;
}

export const DEFAULT_STROBE_OPTIONS: StrobeOptions = { windowMs: 3_600_000, minConnections: 3_600, maxKeys: 100_000, maxEvidence: 10, ignorePorts: [53, 123] };

export class StrobeDetector extends WindowedDetector {
  readonly definition = STROBE;
  readonly types = ['ip'] as const;
  private readonly options: StrobeOptions;
  private readonly sums: BucketedSums;
  private readonly ignorePorts: ReadonlySet<number>;

  constructor(options: Partial<StrobeOptions> = {}) {
    super();
    this.options = { ...DEFAULT_STROBE_OPTIONS, ...options };
    if (!Number.isInteger(this.options.minConnections) || this.options.minConnections < 2) {
      throw new RangeError(`strobe: minConnections must be an integer >= 2, got ${this.options.minConnections}`);
    }
    this.ignorePorts = new Set(this.options.ignorePorts);
    // The evidence of a hit is the pair's latest maxEvidence connections: none before that count can be one.
    const evidenceFrom = this.options.minConnections - this.options.maxEvidence;
    this.sums = new BucketedSums({ windowMs: this.options.windowMs, buckets: 12, measures: 1, maxKeys: this.options.maxKeys, maxEvidence: this.options.maxEvidence, evidenceFrom, keySlots: this.options.pairKeys?.member() });
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined || flow.destIP === undefined || !flow.destIsPublic) return undefined;
    if (flow.destPort !== undefined && this.ignorePorts.has(flow.destPort)) return undefined;
    const key = flow.pairKey;
    const totals = this.sums.add(key, ONE_CONNECTION, observed);
    if (totals === undefined || totals[0] < this.options.minConnections) return undefined;
    const { weight, evidence } = this.sums.takePending(key, observed, this.options.maxEvidence);
    const wisdom: Wisdom = { flags: [...STROBE.flags] };
    const window = formatDuration(this.options.windowMs);
    return {
      detection: STROBE,
      key: flow.destIP,
      weight,
      evidence: evidence.map((event) => ({ event, wisdom })),
      wisdom,
      observations: [`${totals[0]} connections in ${window}`],
      desc: `${totals[0]} connections to ${flow.destIP} within ${window} (threshold ${this.options.minConnections}): a strobe, far more than any user-driven traffic`,
    };
  }

  protected windowedState(): WindowedState {
    return this.sums;
  }
}
