import type { Wisdom } from '@vigil/contracts';
import { matchZone, zoneSet, type ZoneSet } from '../../domain';
import type { DetectionDefinition, DetectionHit, Detector, ObservedEvent } from '../detection';
import { OAST_SERVICES } from './oast-services';

export const OAST_DOMAIN: DetectionDefinition = {
  id: 'oast_domain',
  threat: 'oast_interaction',
  title: 'Out-of-band testing service contacted',
  severity: 4,
  flags: ['oast'],
  mitreAttack: ['TA0001:T1190', 'TA0011:T1071'],
  analytic: { id: 1, name: 'Rule' },
  findingType: 'OAST Interaction',
  keyDescription: 'OAST registered domain',
};

/**
 * The service's own site: its registered domain and `www`. Rankings list these names (they aggregate callback
 * traffic to the registered domain, and testers read the docs), but a callback always carries an id label.
 */
function isServiceSite(hostname: string, domain: string): boolean {
  return hostname === domain || hostname === `www.${domain}`;
}

/** Fires on every DNS query or HTTP request to a callback host (a name below an OAST service domain). Stateless. */
export class OastDomainDetector implements Detector {
  readonly definition = OAST_DOMAIN;
  readonly types = ['dns', 'http'] as const;
  private readonly zones: ZoneSet;

  constructor(private readonly services: Readonly<Record<string, string>> = OAST_SERVICES) {
    this.zones = zoneSet(Object.keys(services));
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    if (observed.hostname === undefined) return undefined;
    const domain = matchZone(observed.hostname, this.zones);
    if (domain === undefined || isServiceSite(observed.hostname, domain)) return undefined;
    const service = this.services[domain];
    const wisdom: Wisdom = { flags: [...OAST_DOMAIN.flags], labels: [`oast:${service}`], domain };
    const how = observed.type === 'dns' ? 'DNS query for' : 'HTTP request to';
    return {
      detection: OAST_DOMAIN,
      key: domain,
      weight: 1,
      evidence: [{ event: observed, wisdom }],
      wisdom,
      observations: [`service ${service}`, `${observed.type} ${observed.hostname}`],
      desc:
        `${how} ${observed.hostname}, a name of the ${service} out-of-band testing service (${domain}): ` +
        'a scanner payload or an exploited application called back to a tester',
    };
  }
}
