import type { Wisdom } from '@vigil/contracts';
import type { DetectionDefinition, DetectionHit, Detector, ObservedEvent } from '../detection';
import { formatEndpoint, isBlocked, readFlow } from './flow';
import { serviceOfPort } from './ports';

export const SSH_NON_STANDARD_PORT: DetectionDefinition = {
  id: 'ssh_non_standard_port',
  threat: 'ssh_mask',
  title: 'SSH on a non-standard port',
  severity: 4,
  flags: ['non_standard_port'],
  mitreAttack: ['TA0011:T1571', 'TA0011:T1572'],
  analytic: { id: 1, name: 'Rule' },
  findingType: 'Protocol Masquerading',
  keyDescription: 'destination IP:port',
};

/**
 * Fires on each SSH session (as identified by the sensor: `app` ssh) to a port other than 22: to any
 * Internet host, and to an internal host only when the port belongs to another service (SSH hidden on 443
 * or 53). Internal SSH daemons on 2222-style ports are common and left alone. Stateless.
 */
export class SshNonStandardPortDetector implements Detector {
  readonly definition = SSH_NON_STANDARD_PORT;
  readonly types = ['ip'] as const;

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined || flow.app !== 'ssh' || flow.destIP === undefined || flow.destPort === undefined) return undefined;
    if (flow.destPort === 22 || isBlocked(flow)) return undefined;
    const portService = serviceOfPort(flow.destPort);
    if (!flow.destIsPublic && portService === undefined) return undefined;
    const where = formatEndpoint(flow.destIP, flow.destPort);
    const wisdom: Wisdom = { flags: [...SSH_NON_STANDARD_PORT.flags] };
    const masquerade = portService === undefined ? '' : `, the port of ${portService}`;
    return {
      detection: SSH_NON_STANDARD_PORT,
      key: where,
      weight: 1,
      evidence: [{ event: observed, wisdom }],
      wisdom,
      observations: [`ssh on port ${flow.destPort}`],
      desc: `SSH session to ${where}${masquerade}, not the SSH port 22: a tunnel or remote shell hidden from port-based rules`,
    };
  }
}
