import type { Wisdom } from '@vigil/contracts';
import type { SharedKeyTable } from '../../state/shared-keys';
import type { DetectionDefinition, DetectionHit, ObservedEvent } from '../detection';
import { WindowedDetector, type WindowedState } from './windowed-detector';
import { BucketedSums } from './bucketed-sums';
import { type Flow, formatBytes, formatDuration, isBlocked, readFlow } from './flow';

export const LARGE_SSH_TRANSFER: DetectionDefinition = {
  id: 'large_ssh_transfer',
  threat: 'large_ssh_transfer',
  title: 'Large outbound transfer over SSH',
  severity: 4,
  flags: ['large_upload'],
  mitreAttack: ['TA0010:T1048'],
  analytic: { id: 3, name: 'Statistical' },
  findingType: 'Data Exfiltration',
  keyDescription: 'destination IP',
};

export const HIGH_VOLUME_FTP: DetectionDefinition = {
  id: 'high_volume_ftp',
  threat: 'high_volume_ftp',
  title: 'High volume of outbound FTP traffic',
  severity: 3,
  flags: ['large_upload', 'cleartext'],
  mitreAttack: ['TA0010:T1048.003'],
  analytic: { id: 3, name: 'Statistical' },
  findingType: 'Data Exfiltration',
  keyDescription: 'destination IP',
};

export const LARGE_OUTBOUND_TRANSFER: DetectionDefinition = {
  id: 'large_outbound_transfer',
  threat: 'large_outbound_transfer',
  title: 'Large outbound data transfer',
  severity: 2,
  flags: ['large_upload'],
  mitreAttack: ['TA0010:T1048'],
  analytic: { id: 3, name: 'Statistical' },
  findingType: 'Data Exfiltration',
  keyDescription: 'destination IP',
};

export interface LargeTransferOptions {
  windowMs: number;
  /** Bytes sent to one destination within the window that make the transfer large. */
  minBytesOut: number;
  maxKeys: number;
  maxEvidence: number;
  /** The engine's table of (host, destination) keys, shared by the per-pair detections; else a table of its own. */
  pairKeys?: SharedKeyTable;
}

interface TransferKind {
  definition: DetectionDefinition;
  /** Which flows count, e.g. SSH sessions. */
  matches(flow: Flow): boolean;
  /** How the protocol is named in the description. */
  protocol: string;
  defaults: LargeTransferOptions;
}

const FTP_PORTS = new Set([20, 21]);

/**
 * Thresholds (bytes sent to one Internet host within an hour): interactive SSH sends kilobytes and git over
 * SSH a few megabytes, so 50 MB is a bulk copy out (the flightsim ssh-exfil module sends 200 MB); the same
 * holds for FTP. Any protocol: 1 GB, above cloud-sync and video-call uploads of an ordinary hour.
 */
export const TRANSFER_KINDS = {
  ssh: {
    definition: LARGE_SSH_TRANSFER,
    matches: (flow: Flow) => flow.app === 'ssh' || (flow.app === undefined && flow.destPort === 22),
    protocol: 'SSH',
    defaults: { windowMs: 3_600_000, minBytesOut: 50_000_000, maxKeys: 100_000, maxEvidence: 10 },
  },
  ftp: {
    definition: HIGH_VOLUME_FTP,
    matches: (flow: Flow) =>
      flow.app === 'ftp' || flow.app === 'ftp-data' || (flow.app === undefined && flow.destPort !== undefined && FTP_PORTS.has(flow.destPort)),
    protocol: 'FTP',
    defaults: { windowMs: 3_600_000, minBytesOut: 50_000_000, maxKeys: 100_000, maxEvidence: 10 },
  },
  any: {
    definition: LARGE_OUTBOUND_TRANSFER,
    matches: () => true,
    protocol: 'any protocol',
    defaults: { windowMs: 3_600_000, minBytesOut: 1_000_000_000, maxKeys: 100_000, maxEvidence: 10 },
  },
} satisfies Record<string, TransferKind>;

/** Sums bytes sent per (host, Internet destination) over flows of one protocol and fires past a volume. */
export class LargeTransferDetector extends WindowedDetector {
  readonly definition: DetectionDefinition;
  readonly types = ['ip'] as const;
  private readonly kind: TransferKind;
  private readonly options: LargeTransferOptions;
  private readonly sums: BucketedSums;
  /** The flow's [bytes out, bytes in], reused: {@link BucketedSums.add} reads it at once. */
  private readonly measures: number[] = [0, 0];

  constructor(kind: keyof typeof TRANSFER_KINDS, options: Partial<LargeTransferOptions> = {}) {
    super();
    this.kind = TRANSFER_KINDS[kind];
    this.definition = this.kind.definition;
    this.options = { ...this.kind.defaults, ...options };
    if (!(this.options.minBytesOut > 0)) throw new RangeError(`${this.definition.id}: minBytesOut must be positive, got ${this.options.minBytesOut}`);
    // Flows are kept as evidence once the pair has sent half the threshold: the transfers that make a pair large
    // come after that, and the many pairs that never get near it keep no events.
    const evidenceFrom = this.options.minBytesOut / 2;
    this.sums = new BucketedSums({ windowMs: this.options.windowMs, buckets: 12, measures: 2, maxKeys: this.options.maxKeys, maxEvidence: this.options.maxEvidence, evidenceFrom, keySlots: this.options.pairKeys?.member() });
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined || flow.destIP === undefined || !flow.destIsPublic || isBlocked(flow)) return undefined;
    const bytesOut = flow.bytesOut ?? 0;
    if (bytesOut === 0 || !this.kind.matches(flow)) return undefined;
    const key = flow.pairKey;
    const measures = this.measures;
    measures[0] = bytesOut;
    measures[1] = flow.bytesIn ?? 0;
    const totals = this.sums.add(key, measures, observed);
    if (totals === undefined || totals[0] < this.options.minBytesOut) return undefined;

    const { weight, evidence } = this.sums.takePending(key, observed, this.options.maxEvidence);
    const wisdom: Wisdom = { flags: [...this.definition.flags] };
    const window = formatDuration(this.options.windowMs);
    const port = flow.destPort === undefined ? '' : ` port ${flow.destPort}`;
    const ratio = totals[1] > 0 ? `, ${Math.round(totals[0] / totals[1])} times what came back` : ', nothing came back';
    return {
      detection: this.definition,
      key: flow.destIP,
      weight,
      evidence: evidence.map((event) => ({ event, wisdom })),
      wisdom,
      observations: [`${formatBytes(totals[0])} sent in ${window}`, `${formatBytes(totals[1])} received`],
      desc:
        `${formatBytes(totals[0])} sent over ${this.kind.protocol} to ${flow.destIP}${port} within ${window}${ratio} ` +
        `(threshold ${formatBytes(this.options.minBytesOut)}): bulk data leaving the network`,
    };
  }

  protected windowedState(): WindowedState {
    return this.sums;
  }
}
