import type { TelemetryType, Wisdom } from '@vigil/contracts';
import { registeredDomain } from '../../domain';
import type { DetectionDefinition, DetectionHit, Detector, ObservedEvent } from '../detection';
import type { EventIntel, EventIntelLookup } from './event-intel';

/** What an intel rule found in one event. */
export interface IntelVerdict {
  /** Aggregation key: the indicator (zone, address, hash) or the service that matched. */
  key: string;
  labels: string[];
  /** Flags beyond the definition's own (e.g. `dot` vs `doh`). */
  extraFlags?: string[];
  observations: string[];
  /** The "why" after the event description, e.g. "matches C2 indicator evil.com (c2:Emotet, maltrail:malware)". */
  reason: string;
}

/** A per-event rule over the event's intel matches and fields. */
export interface IntelRule {
  readonly definition: DetectionDefinition;
  readonly types: readonly TelemetryType[];
  judge(intel: EventIntel, observed: ObservedEvent): IntelVerdict | undefined;
}

/** Adapts an {@link IntelRule} to the engine's {@link Detector} interface. Stateless. */
export class IntelRuleDetector implements Detector {
  readonly definition: DetectionDefinition;
  readonly types: readonly TelemetryType[];

  constructor(
    private readonly rule: IntelRule,
    private readonly lookup: EventIntelLookup,
  ) {
    this.definition = rule.definition;
    this.types = rule.types;
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    if (!this.types.includes(observed.type)) return undefined;
    const intel = this.lookup.of(observed);
    const verdict = this.rule.judge(intel, observed);
    if (verdict === undefined) return undefined;
    const flags = [...this.definition.flags];
    for (const flag of verdict.extraFlags ?? []) if (!flags.includes(flag)) flags.push(flag);
    const wisdom: Wisdom = { flags, labels: verdict.labels };
    const domain = intel.hostname === undefined ? undefined : registeredDomain(intel.hostname);
    if (domain !== undefined) wisdom.domain = domain;
    return {
      detection: this.definition,
      key: verdict.key,
      weight: 1,
      evidence: [{ event: observed, wisdom }],
      wisdom,
      observations: verdict.observations,
      desc: `${describeEvent(observed, intel)} ${verdict.reason}`,
    };
  }
}

/** "DNS query for x", "HTTP request to x", "TLS connection to 1.2.3.4:443", "connection to 1.2.3.4:53/udp". */
export function describeEvent(observed: ObservedEvent, intel: EventIntel): string {
  const where = intel.destIp === undefined ? '' : intel.destPort === undefined ? intel.destIp : `${intel.destIp}:${intel.destPort}`;
  switch (observed.type) {
    case 'dns':
      return `DNS query for ${intel.hostname ?? '?'}`;
    case 'http':
      return `HTTP request to ${intel.hostname ?? '?'}`;
    case 'tls':
      return `TLS session with ${where || '?'}${intel.hostname === undefined ? '' : ` (certificate for ${intel.hostname})`}`;
    default: {
      const proto = (observed.event as { proto?: unknown }).proto;
      return `Connection to ${where || '?'}${typeof proto === 'string' && proto.length > 0 ? `/${proto.toLowerCase()}` : ''}`;
    }
  }
}
