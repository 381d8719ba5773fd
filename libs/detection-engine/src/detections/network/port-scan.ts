import type { Wisdom } from '@vigil/contracts';
import type { DetectionDefinition, DetectionHit, ObservedEvent } from '../detection';
import { DistinctWindows } from './distinct-windows';
import { WindowedDetector, type WindowedState } from './windowed-detector';
import { formatDuration, isTcpLike, isUnanswered, readFlow } from './flow';

export const PORT_SCAN_VERTICAL: DetectionDefinition = {
  id: 'port_scan_vertical',
  threat: 'outbound_port_scan',
  title: 'Port scan of one host (vertical)',
  severity: 4,
  flags: ['port_scan'],
  mitreAttack: ['TA0007:T1046'],
  analytic: { id: 2, name: 'Behavioral' },
  findingType: 'Port Scan',
  keyDescription: 'scanned destination IP',
};

export const PORT_SCAN_HORIZONTAL: DetectionDefinition = {
  id: 'port_scan_horizontal',
  threat: 'outbound_port_scan',
  title: 'Sweep of one port across many hosts (horizontal scan)',
  severity: 4,
  flags: ['port_scan'],
  mitreAttack: ['TA0007:T1046'],
  analytic: { id: 2, name: 'Behavioral' },
  findingType: 'Port Scan',
  keyDescription: 'scanned destination port (tcp/<port>)',
};

/**
 * Thresholds: a scanner probes a host's common ports (nmap's default run: 1,000 ports in seconds; the
 * flightsim scan module 21 service ports on each of 10 hosts in 30 s) or one port over a network (worms on
 * 445/22/23). A client whose connections fail retries the same few ports and hosts, so 15 distinct ports on
 * one host, or 20 distinct hosts on one port, all unanswered within 60 s, are far outside it.
 */
export interface PortScanOptions {
  windowMs: number;
  minDistinct: number;
  /** Distinct ports (vertical) or hosts (horizontal) remembered per key; >= minDistinct. */
  maxItemsPerKey: number;
  maxKeys: number;
  maxEvidence: number;
}

export const DEFAULT_PORT_SCAN_OPTIONS: Record<'vertical' | 'horizontal', PortScanOptions> = {
  vertical: { windowMs: 60_000, minDistinct: 15, maxItemsPerKey: 64, maxKeys: 100_000, maxEvidence: 10 },
  horizontal: { windowMs: 60_000, minDistinct: 20, maxItemsPerKey: 64, maxKeys: 100_000, maxEvidence: 10 },
};

/** Counts unanswered TCP connection attempts per (host, destination) by port, or per (host, port) by destination. */
export class PortScanDetector extends WindowedDetector {
  readonly definition: DetectionDefinition;
  readonly types = ['ip'] as const;
  private readonly options: PortScanOptions;
  private readonly windows: DistinctWindows;

  constructor(
    private readonly direction: 'vertical' | 'horizontal',
    options: Partial<PortScanOptions> = {},
  ) {
    super();
    this.definition = direction === 'vertical' ? PORT_SCAN_VERTICAL : PORT_SCAN_HORIZONTAL;
    this.options = { ...DEFAULT_PORT_SCAN_OPTIONS[direction], ...options };
    const { minDistinct, maxItemsPerKey, maxEvidence } = this.options;
    if (!Number.isInteger(minDistinct) || minDistinct < 2) throw new RangeError(`${this.definition.id}: minDistinct must be an integer >= 2, got ${minDistinct}`);
    if (!Number.isInteger(maxItemsPerKey) || maxItemsPerKey < minDistinct) {
      throw new RangeError(`${this.definition.id}: maxItemsPerKey must be an integer >= minDistinct, got ${maxItemsPerKey}`);
    }
    if (!Number.isInteger(maxEvidence) || maxEvidence < 1) throw new RangeError(`${this.definition.id}: maxEvidence must be a positive integer`);
    this.windows = new DistinctWindows({ windowMs: this.options.windowMs, maxKeys: this.options.maxKeys, maxItemsPerKey });
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined || flow.destIP === undefined || flow.destPort === undefined) return undefined;
    if (!isTcpLike(flow) || !isUnanswered(flow)) return undefined;
    const vertical = this.direction === 'vertical';
    const key = vertical ? flow.destIP : `tcp/${flow.destPort}`;
    // A vertical scan's window is the pair's: the flow's pair key is that string already, its hash worked out.
    const windowKey = vertical ? flow.pairKey : `${flow.hostKey}\u0000${key}`;
    const distinct = this.windows.record(windowKey, vertical ? String(flow.destPort) : flow.destIP, observed);
    if (distinct === undefined || distinct < this.options.minDistinct) return undefined;

    const items = this.windows.items(windowKey);
    const { weight, evidence } = this.windows.takePending(windowKey, observed, this.options.maxEvidence);
    const wisdom: Wisdom = { flags: [...this.definition.flags] };
    const window = formatDuration(this.options.windowMs);
    const shown = vertical ? [...items].map(Number).sort((a, b) => a - b) : items;
    const sample = `${shown.slice(0, 12).join(', ')}${shown.length > 12 ? ', ...' : ''}`;
    const desc = vertical
      ? `${distinct} distinct TCP ports of ${flow.destIP} tried within ${window} without an answer (ports ${sample}): a vertical port scan`
      : `${distinct} distinct hosts tried on TCP port ${flow.destPort} within ${window} without an answer (${sample}): a horizontal scan`;
    return {
      detection: this.definition,
      key,
      weight,
      evidence: evidence.map((event) => ({ event, wisdom })),
      wisdom,
      observations: [vertical ? `${distinct} unanswered ports in ${window}` : `${distinct} unanswered hosts in ${window}`],
      desc,
    };
  }

  protected windowedState(): WindowedState {
    return this.windows;
  }
}
