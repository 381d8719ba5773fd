import type { DnsEvent, Wisdom } from '@vigil/contracts';
import { registeredDomain } from '../../domain';
import { hostKeyOf } from '../../observed-event';
import type { DetectionDefinition, DetectionHit, ObservedEvent } from '../detection';
import { DistinctWindows } from './distinct-windows';
import { WindowedDetector, type WindowedState } from './windowed-detector';
import { formatDuration, isTcpLike, readFlow } from './flow';

export const SPAMBOT_SMTP: DetectionDefinition = {
  id: 'spambot_smtp',
  threat: 'spambot_smtp',
  title: 'Direct SMTP to many mail servers',
  severity: 4,
  flags: ['mail_server'],
  mitreAttack: ['TA0011:T1071.003'],
  analytic: { id: 2, name: 'Behavioral' },
  findingType: 'Spambot',
  keyDescription: 'destination port (tcp/25)',
};

export const MX_LOOKUP_VOLUME: DetectionDefinition = {
  id: 'mx_lookup_volume',
  threat: 'mx_lookup_volume',
  title: 'MX lookups from a workstation',
  severity: 3,
  flags: ['mx_lookup', 'mail_server'],
  mitreAttack: ['TA0011:T1071.003'],
  analytic: { id: 2, name: 'Behavioral' },
  findingType: 'Spambot',
  keyDescription: 'query type (MX)',
};

/**
 * Workstations hand mail to their organisation's relay (587/465 or an API); only mail servers look up MX
 * records and speak SMTP on port 25 to other organisations' servers. A spambot does both for every recipient
 * domain (the flightsim spambot module resolves the MX of popular mail domains until it has 10 servers, then
 * connects to each on port 25, all within seconds). Thresholds: 8 distinct Internet mail servers on port 25
 * within 10 minutes, or MX records of 8 distinct registered domains within 60 s; the rate matters for MX, as
 * the odd MX lookup of a diagnostic tool or mail client is spread over the day. Hosts that are mail servers
 * go in `mailServers` (source IPs).
 */
export interface SpambotOptions {
  windowMs: number;
  minDistinct: number;
  /** Source IPs of legitimate mail servers and relays, never reported. */
  mailServers: readonly string[];
  maxItemsPerKey: number;
  maxKeys: number;
  maxEvidence: number;
}

export const DEFAULT_SMTP_OPTIONS: SpambotOptions = { windowMs: 600_000, minDistinct: 8, mailServers: [], maxItemsPerKey: 64, maxKeys: 100_000, maxEvidence: 10 };
export const DEFAULT_MX_OPTIONS: SpambotOptions = { ...DEFAULT_SMTP_OPTIONS, windowMs: 60_000, minDistinct: 8 };

function checked(id: string, options: SpambotOptions): SpambotOptions {
  if (!Number.isInteger(options.minDistinct) || options.minDistinct < 1) throw new RangeError(`${id}: minDistinct must be a positive integer`);
  if (!Number.isInteger(options.maxItemsPerKey) || options.maxItemsPerKey < options.minDistinct) {
    throw new RangeError(`${id}: maxItemsPerKey must be an integer >= minDistinct`);
  }
  return options;
}

function sample(items: string[]): string {
  return `${items.slice(-6).join(', ')}${items.length > 6 ? ', ...' : ''}`;
}

/** Distinct Internet hosts one host connects to on TCP port 25. */
export class DirectSmtpDetector extends WindowedDetector {
  readonly definition = SPAMBOT_SMTP;
  readonly types = ['ip'] as const;
  private readonly options: SpambotOptions;
  private readonly mailServers: ReadonlySet<string>;
  private readonly windows: DistinctWindows;

  constructor(options: Partial<SpambotOptions> = {}) {
    super();
    this.options = checked(SPAMBOT_SMTP.id, { ...DEFAULT_SMTP_OPTIONS, ...options });
    this.mailServers = new Set(this.options.mailServers);
    this.windows = new DistinctWindows({ windowMs: this.options.windowMs, maxKeys: this.options.maxKeys, maxItemsPerKey: this.options.maxItemsPerKey });
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined || flow.destPort !== 25 || flow.destIP === undefined || !flow.destIsPublic || !isTcpLike(flow)) return undefined;
    if (this.mailServers.has(flow.srcIP)) return undefined;
    const key = flow.hostKey;
    const distinct = this.windows.record(key, flow.destIP, observed);
    if (distinct === undefined || distinct < this.options.minDistinct) return undefined;
    const servers = this.windows.items(key);
    const { weight, evidence } = this.windows.takePending(key, observed, this.options.maxEvidence);
    const wisdom: Wisdom = { flags: [...SPAMBOT_SMTP.flags] };
    const window = formatDuration(this.options.windowMs);
    return {
      detection: SPAMBOT_SMTP,
      key: 'tcp/25',
      weight,
      evidence: evidence.map((event) => ({ event, wisdom })),
      wisdom,
      observations: [`${distinct} mail servers on port 25 in ${window}`],
      desc: `SMTP connections from a non-mail-server host to ${distinct} distinct Internet mail servers within ${window} (${sample(servers)}): a spambot delivering mail directly`,
    };
  }

  protected windowedState(): WindowedState {
    return this.windows;
  }
}

/** Distinct registered domains whose MX records one host looks up. */
export class MxLookupDetector extends WindowedDetector {
  readonly definition = MX_LOOKUP_VOLUME;
  readonly types = ['dns'] as const;
  private readonly options: SpambotOptions;
  private readonly mailServers: ReadonlySet<string>;
  private readonly windows: DistinctWindows;

  constructor(options: Partial<SpambotOptions> = {}) {
    super();
    this.options = checked(MX_LOOKUP_VOLUME.id, { ...DEFAULT_MX_OPTIONS, ...options });
    this.mailServers = new Set(this.options.mailServers);
    this.windows = new DistinctWindows({ windowMs: this.options.windowMs, maxKeys: this.options.maxKeys, maxItemsPerKey: this.options.maxItemsPerKey });
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    if (observed.type !== 'dns' || observed.hostname === undefined || observed.endpoint.ip === '') return undefined;
    const qtype = (observed.event as DnsEvent).qtype;
    if (typeof qtype !== 'string' || qtype.trim().toUpperCase() !== 'MX') return undefined;
    if (this.mailServers.has(observed.endpoint.ip)) return undefined;
    const domain = registeredDomain(observed.hostname) ?? observed.hostname;
    const key = hostKeyOf(observed);
    const distinct = this.windows.record(key, domain, observed);
    if (distinct === undefined || distinct < this.options.minDistinct) return undefined;
    const domains = this.windows.items(key);
    const { weight, evidence } = this.windows.takePending(key, observed, this.options.maxEvidence);
    const wisdom: Wisdom = { flags: [...MX_LOOKUP_VOLUME.flags], domain };
    const window = formatDuration(this.options.windowMs);
    return {
      detection: MX_LOOKUP_VOLUME,
      key: 'MX',
      weight,
      evidence: evidence.map((event) => ({ event, wisdom })),
      wisdom,
      observations: [`MX lookups for ${distinct} domains in ${window}`],
      desc: `MX lookups for ${distinct} distinct domains within ${window} (${sample(domains)}) from a host that is not a mail server: looking up where to deliver spam`,
    };
  }

  protected windowedState(): WindowedState {
    return this.windows;
  }
}
