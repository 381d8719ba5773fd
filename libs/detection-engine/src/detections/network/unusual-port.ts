import type { Wisdom } from '@vigil/contracts';
import type { DetectionDefinition, DetectionHit, Detector, ObservedEvent } from '../detection';
import { WindowedDetector, type WindowedState } from './windowed-detector';
import { BucketedSums, ONE_CONNECTION } from './bucketed-sums';
import { type Flow, formatDuration, formatEndpoint, isBlocked, isTcpLike, readFlow } from './flow';
import { serviceOfPort } from './ports';

export const UNUSUAL_NETWORK_PORT: DetectionDefinition = {
  id: 'unusual_network_port',
  threat: 'unusual_network_port',
  title: 'Connection to an unusual server port',
  severity: 2,
  flags: ['unusual_port'],
  mitreAttack: ['TA0011:T1571'],
  analytic: { id: 1, name: 'Rule' },
  findingType: 'Unusual Port',
  keyDescription: 'destination IP:port',
};

export const UNUSUAL_PORT_VOLUME: DetectionDefinition = {
  id: 'unusual_port_volume',
  threat: 'conn_unusual_port_volume',
  title: 'Repeated connections to an unusual server port',
  severity: 3,
  flags: ['unusual_port'],
  mitreAttack: ['TA0011:T1571'],
  analytic: { id: 3, name: 'Statistical' },
  findingType: 'Unusual Port',
  keyDescription: 'destination IP:port',
};

/** Ports from here up are the dynamic range that peer-to-peer and real-time media use; not judged. */
const DYNAMIC_PORTS_FROM = 49_152;

/** An allowed TCP connection to an Internet host on a registered port no common client service uses. */
function unusualPort(flow: Flow): number | undefined {
  if (flow.destIP === undefined || flow.destPort === undefined || flow.destPort === 0 || !flow.destIsPublic) return undefined;
  if (!isTcpLike(flow) || isBlocked(flow) || flow.destPort >= DYNAMIC_PORTS_FROM) return undefined;
  return serviceOfPort(flow.destPort) === undefined ? flow.destPort : undefined;
}

/** Each answered connection to an unusual port (see {@link SERVICE_PORTS}). Stateless. */
export class UnusualPortDetector implements Detector {
  readonly definition = UNUSUAL_NETWORK_PORT;
  readonly types = ['ip'] as const;

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined) return undefined;
    const port = unusualPort(flow);
    if (port === undefined || ((flow.bytesIn ?? 0) === 0 && (flow.packetsIn ?? 0) === 0)) return undefined;
    const where = formatEndpoint(flow.destIP as string, port);
    const wisdom: Wisdom = { flags: [...UNUSUAL_NETWORK_PORT.flags] };
    return {
      detection: UNUSUAL_NETWORK_PORT,
      key: where,
      weight: 1,
      evidence: [{ event: observed, wisdom }],
      wisdom,
      observations: [`tcp port ${port}`],
      desc: `TCP connection to ${where} on the Internet: port ${port} belongs to no service ordinary clients use (custom C2 and backdoors listen on such ports)`,
    };
  }
}

/**
 * 10 connections (answered or not) to one unusual Internet port within 10 minutes: a program talking to its
 * server on a port of its own, as RATs and bots do.
 */
export interface UnusualPortVolumeOptions {
  windowMs: number;
  minConnections: number;
  maxKeys: number;
  maxEvidence: number;
}

export const DEFAULT_UNUSUAL_PORT_VOLUME_OPTIONS: UnusualPortVolumeOptions = { windowMs: 600_000, minConnections: 10, maxKeys: 100_000, maxEvidence: 10 };

export class UnusualPortVolumeDetector extends WindowedDetector {
  readonly definition = UNUSUAL_PORT_VOLUME;
  readonly types = ['ip'] as const;
  private readonly options: UnusualPortVolumeOptions;
  private readonly sums: BucketedSums;

  constructor(options: Partial<UnusualPortVolumeOptions> = {}) {
    super();
    this.options = { ...DEFAULT_UNUSUAL_PORT_VOLUME_OPTIONS, ...options };
    if (!Number.isInteger(this.options.minConnections) || this.options.minConnections < 2) {
      throw new RangeError(`unusual_port_volume: minConnections must be an integer >= 2, got ${this.options.minConnections}`);
    }
    this.sums = new BucketedSums({ windowMs: this.options.windowMs, buckets: 10, measures: 1, maxKeys: this.options.maxKeys, maxEvidence: this.options.maxEvidence });
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined) return undefined;
    const port = unusualPort(flow);
    if (port === undefined) return undefined;
    const where = formatEndpoint(flow.destIP as string, port);
    const key = `${flow.hostKey}\u0000${where}`;
    const totals = this.sums.add(key, ONE_CONNECTION, observed);
    if (totals === undefined || totals[0] < this.options.minConnections) return undefined;
    const { weight, evidence } = this.sums.takePending(key, observed, this.options.maxEvidence);
    const wisdom: Wisdom = { flags: [...UNUSUAL_PORT_VOLUME.flags] };
    const window = formatDuration(this.options.windowMs);
    return {
      detection: UNUSUAL_PORT_VOLUME,
      key: where,
      weight,
      evidence: evidence.map((event) => ({ event, wisdom })),
      wisdom,
      observations: [`${totals[0]} connections in ${window}`],
      desc: `${totals[0]} TCP connections to ${where} within ${window}: repeated traffic to a port no common service uses`,
    };
  }

  protected windowedState(): WindowedState {
    return this.sums;
  }
}
