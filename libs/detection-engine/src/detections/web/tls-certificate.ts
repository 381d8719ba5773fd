import type { TlsEvent, Wisdom } from '@vigil/contracts';
import { perEvent } from '../../observed-event';
import type { DetectionDefinition, DetectionHit, Detector, ObservedEvent } from '../detection';
import { isPublicAddress } from '../network/ip-ranges';
import { attribute, certificateTime, type DistinguishedName, parseDistinguishedName } from './certificate';
import { DEFAULT_CERTIFICATE_MARKS, type DefaultCertificateMark, markMatches } from './default-certificates';

const RULE = { id: 1, name: 'Rule' } as const;

export const TLS_SELF_SIGNED: DetectionDefinition = {
  id: 'tls_self_signed_certificate',
  threat: 'self_signed_certificate',
  title: 'Self-signed certificate on an Internet server',
  severity: 2,
  flags: ['self_signed_cert'],
  mitreAttack: ['TA0011:T1573', 'TA0042:T1587.003'],
  analytic: RULE,
  findingType: 'Suspicious Certificate',
  keyDescription: 'certificate (hash, else subject)',
};

export const TLS_DEFAULT_CERTIFICATE: DetectionDefinition = {
  id: 'tls_default_certificate',
  threat: 'default_certificate',
  title: 'Default or placeholder certificate on an Internet server',
  severity: 3,
  flags: ['default_cert'],
  mitreAttack: ['TA0011:T1573', 'TA0042:T1588.004'],
  analytic: RULE,
  findingType: 'Suspicious Certificate',
  keyDescription: 'certificate (hash, else subject)',
};

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

export const TLS_INVALID_DATES: DetectionDefinition = {
  id: 'tls_invalid_certificate_dates',
  threat: 'invalid_certificate_dates',
  title: 'Expired or not yet valid certificate',
  severity: 2,
  flags: ['invalid_cert_dates'],
  mitreAttack: ['TA0011:T1573'],
  analytic: RULE,
  findingType: 'Suspicious Certificate',
  keyDescription: 'certificate (hash, else subject)',
};

/** The certificate facts of a TLS event, when its destination is on the Internet (or not reported). */
interface TlsCertificate {
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

/** Read once per event and shared by the TLS detectors. */
const readCertificate = perEvent(readCertificateOnce);

function readCertificateOnce(observed: ObservedEvent): TlsCertificate | undefined {
  if (observed.type !== 'tls') return undefined;
  const event = observed.event as TlsEvent;
  // Internal appliances (printers, NAS, hypervisors) run on self-signed and default certificates by design.
  if (typeof event.destIP === 'string' && event.destIP.length > 0 && !isPublicAddress(event.destIP)) return undefined;
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
 * Issuer equals subject: nobody vouches for the server's identity. Common on internal devices (ignored: only
 * Internet destinations count), rare on public services, and the quick choice of C2 and phishing servers.
 * Certificates the default-certificate detection recognises are left to it. Stateless.
 */
export class SelfSignedCertificateDetector implements Detector {
  readonly definition = TLS_SELF_SIGNED;
  readonly types = ['tls'] as const;

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const cert = readCertificate(observed);
    if (cert?.subject === undefined || cert.issuer === undefined) return undefined;
    if (cert.subject.canonical !== cert.issuer.canonical) return undefined;
    if (cert.defaultMark !== undefined) return undefined;
    return hit(
      TLS_SELF_SIGNED,
      observed,
      cert,
      [`subject = issuer = ${cert.event.subject}`],
      `TLS session${cert.where} presented a self-signed certificate for ${cert.name} (issuer equals subject): ` +
        'no certificate authority vouches for this Internet server, as is typical of C2 and phishing servers set up in haste',
    );
  }
}

/**
 * A certificate with software defaults or placeholders in it (OpenSSL's "Internet Widgits Pty Ltd",
 * `CN=localhost`, `example.com`), issued by a staging/test or interception CA, or the stock certificate of a
 * C2 framework (reported as C2, severity 5). Stateless.
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

export interface CertificateDatesOptions {
  /** Tolerated clock difference between sensor and server (ms). Default one hour. */
  clockSkewMs: number;
}

/**
 * The certificate had expired, or was not yet valid, at the event's time (zero and missing dates are
 * ignored). Public services renew automatically; an expired certificate on an Internet server that a client
 * still talks to points at abandoned or attacker-run infrastructure, or at a client that ignores errors. Stateless.
 */
export class CertificateDatesDetector implements Detector {
  readonly definition = TLS_INVALID_DATES;
  readonly types = ['tls'] as const;
  private readonly clockSkewMs: number;

  constructor(options: Partial<CertificateDatesOptions> = {}) {
    this.clockSkewMs = options.clockSkewMs ?? 3_600_000;
    if (!(this.clockSkewMs >= 0)) throw new RangeError(`tls dates: clockSkewMs must be >= 0, got ${this.clockSkewMs}`);
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const cert = readCertificate(observed);
    if (cert === undefined) return undefined;
    const from = certificateTime(cert.event.validFrom);
    const to = certificateTime(cert.event.validTo);
    const at = new Date(observed.timeMs).toISOString();
    if (to !== undefined && observed.timeMs > to + this.clockSkewMs) {
      const days = Math.floor((observed.timeMs - to) / 86_400_000);
      return hit(
        TLS_INVALID_DATES,
        observed,
        cert,
        [`expired ${new Date(to).toISOString()}`, `${days} days before the session`],
        `TLS session${cert.where} at ${at} presented a certificate for ${cert.name} that expired on ${new Date(to).toISOString()} ` +
          `(${days} days earlier): Internet services renew automatically, so this server is abandoned or not run by its owner, or the client ignores certificate errors`,
      );
    }
    if (from !== undefined && observed.timeMs < from - this.clockSkewMs) {
      return hit(
        TLS_INVALID_DATES,
        observed,
        cert,
        [`valid from ${new Date(from).toISOString()}`],
        `TLS session${cert.where} at ${at} presented a certificate for ${cert.name} that is not valid before ` +
          `${new Date(from).toISOString()}: a back-dated clock or a forged certificate`,
      );
    }
    return undefined;
  }
}
