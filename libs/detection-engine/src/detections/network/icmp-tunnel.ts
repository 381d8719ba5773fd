import type { Wisdom } from '@vigil/contracts';
import type { SharedKeyTable } from '../../state/shared-keys';
import type { DetectionDefinition, DetectionHit, ObservedEvent } from '../detection';
import { WindowedDetector, type WindowedState } from './windowed-detector';
import { BucketedSums } from './bucketed-sums';
import { formatBytes, formatDuration, isIcmp, readFlow } from './flow';

export const ICMP_TUNNEL: DetectionDefinition = {
  id: 'icmp_tunnel',
  threat: 'icmp_tunneling',
  title: 'ICMP tunneling',
  severity: 3,
  flags: ['large_icmp_payload'],
  mitreAttack: ['TA0011:T1095', 'TA0010:T1048'],
  analytic: { id: 3, name: 'Statistical' },
  findingType: 'ICMP Tunneling',
  keyDescription: 'destination IP',
};

/**
 * Thresholds: a ping carries 32-56 bytes of payload (60-84 bytes on the wire) and path-MTU probes send a
 * handful of large packets; tunnels (icmptunnel, ptunnel, the flightsim module: 80 echoes of 1,400 bytes)
 * fill packets towards the MTU for as long as data flows. Fires on 40 packets averaging over 1,000 bytes, or
 * on 1 MB of ICMP whatever the size, sent to one Internet host within 2 minutes.
 */
export interface IcmpTunnelOptions {
  windowMs: number;
  /** Bytes per packet (bytesOut / packetsOut) above which a flow's packets count as large. */
  largePacketBytes: number;
  minLargePackets: number;
  minBytes: number;
  maxKeys: number;
  maxEvidence: number;
  /** The engine's table of (host, destination) keys, shared by the per-pair detections; else a table of its own. */
  pairKeys?: SharedKeyTable;
}

export const DEFAULT_ICMP_TUNNEL_OPTIONS: IcmpTunnelOptions = {
  windowMs: 120_000,
  largePacketBytes: 1_000,
  minLargePackets: 40,
  minBytes: 1_000_000,
  maxKeys: 100_000,
  maxEvidence: 10,
};

const LARGE_PACKETS = 0;
const BYTES = 1;
const PACKETS = 2;

/** Sums outbound ICMP packets and bytes per (host, Internet destination); a flow without packetsOut counts as one packet. */
export class IcmpTunnelDetector extends WindowedDetector {
  readonly definition = ICMP_TUNNEL;
  readonly types = ['ip'] as const;
  private readonly options: IcmpTunnelOptions;
  private readonly sums: BucketedSums;

  constructor(options: Partial<IcmpTunnelOptions> = {}) {
    super();
    this.options = { ...DEFAULT_ICMP_TUNNEL_OPTIONS, ...options };
    const { largePacketBytes, minLargePackets, minBytes } = this.options;
    if (!(largePacketBytes > 0) || !(minLargePackets >= 1) || !(minBytes >= 1)) {
      throw new RangeError('icmp_tunnel: largePacketBytes, minLargePackets and minBytes must be positive');
    }
    this.sums = new BucketedSums({ windowMs: this.options.windowMs, buckets: 12, measures: 3, maxKeys: this.options.maxKeys, maxEvidence: this.options.maxEvidence, keySlots: this.options.pairKeys?.member() });
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined || flow.destIP === undefined || !flow.destIsPublic || !isIcmp(flow)) return undefined;
    const bytes = flow.bytesOut ?? 0;
    if (bytes === 0) return undefined;
    const packets = Math.max(1, flow.packetsOut ?? 1);
    const large = bytes / packets > this.options.largePacketBytes ? packets : 0;
    const key = flow.pairKey;
    const totals = this.sums.add(key, [large, bytes, packets], observed);
    if (totals === undefined) return undefined;
    if (totals[LARGE_PACKETS] < this.options.minLargePackets && totals[BYTES] < this.options.minBytes) return undefined;

    const { weight, evidence } = this.sums.takePending(key, observed, this.options.maxEvidence);
    const wisdom: Wisdom = { flags: [...ICMP_TUNNEL.flags] };
    const window = formatDuration(this.options.windowMs);
    const perPacket = Math.round(totals[BYTES] / totals[PACKETS]);
    return {
      detection: ICMP_TUNNEL,
      key: flow.destIP,
      weight,
      evidence: evidence.map((event) => ({ event, wisdom })),
      wisdom,
      observations: [`${totals[PACKETS]} ICMP packets in ${window}`, `${perPacket} bytes per packet`, `${formatBytes(totals[BYTES])} sent`],
      desc:
        `${totals[PACKETS]} ICMP packets (${totals[LARGE_PACKETS]} over ${this.options.largePacketBytes} bytes) carrying ` +
        `${formatBytes(totals[BYTES])} to ${flow.destIP} within ${window}, ${perPacket} bytes per packet on average ` +
        `where a ping carries under 100: data tunnelled over ICMP`,
    };
  }

  protected windowedState(): WindowedState {
    return this.sums;
  }
}
