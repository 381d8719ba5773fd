import type { Wisdom } from '@vigil/contracts';
import type { DetectionDefinition, DetectionHit, Detector, ObservedEvent } from '../detection';
import { type Flow, isBlocked, readFlow } from './flow';

export const CLEARTEXT_PROTOCOL: DetectionDefinition = {
  id: 'cleartext_protocol',
  threat: 'cleartext_protocol',
  title: 'Cleartext protocol to the Internet',
  severity: 1,
  flags: ['cleartext'],
  mitreAttack: ['TA0010:T1048.003'],
  analytic: { id: 1, name: 'Rule' },
  findingType: 'Policy Violation',
  keyDescription: 'protocol',
};

/** Protocols that send credentials and data unencrypted, by port and by the name sensors give them. */
const CLEARTEXT_BY_PORT: Readonly<Record<number, string>> = { 21: 'ftp', 23: 'telnet', 110: 'pop3', 143: 'imap', 873: 'rsync' };
const CLEARTEXT_APPS = new Set(Object.values(CLEARTEXT_BY_PORT));

function cleartextProtocol(flow: Flow): string | undefined {
  // The sensor's protocol identification wins over the port (TLS on 143, telnet on 2323).
  if (flow.app !== undefined) return CLEARTEXT_APPS.has(flow.app) ? flow.app : undefined;
  return flow.destPort === undefined ? undefined : CLEARTEXT_BY_PORT[flow.destPort];
}

/**
 * Policy: each allowed FTP, Telnet, POP3, IMAP or rsync connection to an Internet host (private and reserved
 * destinations are ignored). Low severity: it exposes credentials, it is not itself an attack. Stateless.
 */
export class CleartextProtocolDetector implements Detector {
  readonly definition = CLEARTEXT_PROTOCOL;
  readonly types = ['ip'] as const;

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const flow = readFlow(observed);
    if (flow === undefined || flow.destIP === undefined || !flow.destIsPublic || isBlocked(flow)) return undefined;
    const protocol = cleartextProtocol(flow);
    if (protocol === undefined) return undefined;
    const wisdom: Wisdom = { flags: [...CLEARTEXT_PROTOCOL.flags] };
    const port = flow.destPort === undefined ? '' : ` port ${flow.destPort}`;
    return {
      detection: CLEARTEXT_PROTOCOL,
      key: protocol,
      weight: 1,
      evidence: [{ event: observed, wisdom }],
      wisdom,
      observations: [`${protocol} to ${flow.destIP}`],
      desc: `${protocol.toUpperCase()} connection to ${flow.destIP}${port} on the Internet: credentials and data cross it unencrypted`,
    };
  }
}
