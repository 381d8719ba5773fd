import type { TlsEvent, Wisdom } from '@vigil/contracts';
import { perEvent } from '../../observed-event';
import type { DetectionDefinition, DetectionHit, Detector, ObservedEvent } from '../detection';
import { CidrSet } from '../network/ip-ranges';
import { attribute, type DistinguishedName, parseDistinguishedName } from './certificate';
import { DEFAULT_CERTIFICATE_MARKS, type DefaultCertificateMark, markMatches } from './default-certificates';

const RULE = { id: 1, name: 'Rule' } as const;

export const TLS_C2_DEFAULT_CERTIFICATE: DetectionDefinition = {
  id: 'tls_c2_default_certificate',
  threat: 'c2_communication',
  title: 'Default certificate of a C2 framework',
  severity: 5,
  flags: ['default_cert', 'c2'],
  mitreAttack: ['TA0011:T1573', 'TA0011:T1071.001'],
  analytic: RULE,
  findingType: 'Command and Control',
  keyDescription: 'certificate (hash, else subject)',
};

/** The certificate facts of a TLS event, when its destination is on the Internet (or not reported). */
export interface TlsCertificate {
  event: TlsEvent;
  subject?: DistinguishedName;
  issuer?: DistinguishedName;
  key: string;
  /** `to 203.0.113.9:443` or '' */
  where: string;
  /** Subject CN or the raw subject, for descriptions. */
  name: string;
  /** See {@link findDefaultMark}. */
  defaultMark?: DefaultCertificateMark;
}

/**
 * Where internal appliances (printers, NAS, hypervisors, firewalls) live, which run on self-signed and default
 * certificates by design: private, shared (CGNAT), loopback and link-local addresses. Documentation and
 * benchmarking ranges count as external: no appliance has them, and labs and tests use them for "the Internet".
 */
const INTERNAL = new CidrSet(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '127.0.0.0/8', '169.254.0.0/16', '0.0.0.0/8', '::/127', 'fc00::/7', 'fe80::/10']);

function isInternal(ip: string): boolean {
  return INTERNAL.containsAddress(ip) !== false;
}

/** Read once per event and shared by the TLS detectors. */
export const readCertificate = perEvent(readCertificateOnce);

function readCertificateOnce(observed: ObservedEvent): TlsCertificate | undefined {
  if (observed.type !== 'tls') return undefined;
  const event = observed.event as TlsEvent;
  // Internal appliances (printers, NAS, hypervisors) run on self-signed and default certificates by design.
  if (typeof event.destIP === 'string' && event.destIP.length > 0 && isInternal(event.destIP)) return undefined;
  const subject = parseDistinguishedName(event.subject);
  const issuer = parseDistinguishedName(event.issuer);
  if (subject === undefined && issuer === undefined) return undefined;
  const cn = subject === undefined ? undefined : attribute(subject, 'CN');
  const name = cn ?? (typeof event.subject === 'string' && event.subject.length > 0 ? event.subject : '(no subject)');
  const hash = typeof event.certHash === 'string' && event.certHash.length > 0 ? event.certHash.toLowerCase() : undefined;
  const key = hash ?? (subject !== undefined ? (cn?.toLowerCase() ?? subject.canonical) : `issuer:${issuer!.canonical}`);
  const port = Number.isInteger(event.destPort) ? `:${event.destPort}` : '';
  const where = typeof event.destIP === 'string' && event.destIP.length > 0 ? ` to ${event.destIP}${port}` : '';
  return { event, subject, issuer, key, where, name, defaultMark: findDefaultMark(subject, issuer) };
}

/** The first default/placeholder mark the certificate carries (the list's order). */
export function findDefaultMark(subject: DistinguishedName | undefined, issuer: DistinguishedName | undefined): DefaultCertificateMark | undefined {
  const first = Math.min(
    subject === undefined ? Infinity : firstMarkOf(subject).asSubject,
    issuer === undefined ? Infinity : firstMarkOf(issuer).asIssuer,
  );
  return first === Infinity ? undefined : DEFAULT_CERTIFICATE_MARKS[first];
}

interface FirstMarks {
  /** Index in DEFAULT_CERTIFICATE_MARKS of the first subject mark this name carries, Infinity when none. */
  asSubject: number;
  asIssuer: number;
}

// Parsed names are shared (see parseDistinguishedName), so what a name matches is worked out once per name.
const firstMarks = new WeakMap<DistinguishedName, FirstMarks>();

function firstMarkOf(name: DistinguishedName): FirstMarks {
  let found = firstMarks.get(name);
  if (found === undefined) {
    found = { asSubject: firstMatchingMark(name, 'subject'), asIssuer: firstMatchingMark(name, 'issuer') };
    firstMarks.set(name, found);
  }
  return found;
}

function firstMatchingMark(name: DistinguishedName, field: DefaultCertificateMark['field']): number {
  for (let i = 0; i < DEFAULT_CERTIFICATE_MARKS.length; i++) {
    const mark = DEFAULT_CERTIFICATE_MARKS[i];
    if (mark.field !== field) continue;
    const values = name.attributes.get(mark.attribute);
    if (values !== undefined && values.some((v) => markMatches(mark, v))) return i;
  }
  return Infinity;
}

function hit(definition: DetectionDefinition, observed: ObservedEvent, cert: TlsCertificate, observations: string[], desc: string, labels?: string[]): DetectionHit {
  const wisdom: Wisdom = { flags: [...definition.flags], ...(labels !== undefined ? { labels } : {}) };
  return { detection: definition, key: cert.key, weight: 1, evidence: [{ event: observed, wisdom }], wisdom, observations, desc };
}

/**
 * The stock certificate of a C2 framework (reported as C2, severity 5), on its own: no innocent server presents it.
 * Other default and placeholder certificates (OpenSSL's "Internet Widgits Pty Ltd", `CN=localhost`, test and
 * interception CAs) are evidence for the per-destination pattern (tls-server-pattern), not alerts by themselves.
 * Stateless.
 */
export class DefaultCertificateDetector implements Detector {
  readonly types = ['tls'] as const;

  constructor(readonly definition: DetectionDefinition, private readonly c2: boolean) {}

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const cert = readCertificate(observed);
    if (cert === undefined) return undefined;
    const mark = cert.defaultMark;
    if (mark === undefined || (mark.kind === 'c2-framework') !== this.c2) return undefined;
    const value = attribute((mark.field === 'subject' ? cert.subject : cert.issuer)!, mark.attribute);
    const why = {
      placeholder: 'a value software fills in when nobody configured the certificate; real services do not present one',
      'test-ca': 'browsers do not trust this test CA; real services do not use it',
      interception: 'the session passes through an interception proxy, or a testing tool stands in for the server',
      'c2-framework': 'the server is very likely a C2 team server left with its default certificate',
    }[mark.kind];
    return hit(
      this.definition,
      observed,
      cert,
      [`${mark.field} ${mark.attribute}=${value}`, mark.label],
      `TLS session${cert.where} presented a certificate for ${cert.name} whose ${mark.field} has ${mark.attribute}=${value} ` +
        `(${mark.label}): ${why}`,
      mark.family !== undefined ? [`c2:${mark.family}`] : undefined,
    );
  }
}
