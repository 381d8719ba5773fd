import type { KeyedState } from '../../state/state-budget';
import type { TlsEvent, Wisdom } from '@vigil/contracts';
import { LruMap } from '../../state/lru-map';
import { readLru, writeLru } from '../../state/lru-snapshot';
import type { SnapshotEventReader, SnapshotEventWriter } from '../../state/event-table';
import { readArray, readCount, readNumber } from '../../state/snapshot';
import type { DetectionDefinition, DetectionHit, Detector, DetectorStateStats, EvidenceEvent, ObservedEvent } from '../detection';
import { SUSPICIOUS_TLDS } from '../../enrichment/domain-context';
import { attribute, certificateTime } from './certificate';
import { readCertificate, type TlsCertificate } from './tls-certificate';

export const TLS_SUSPICIOUS_SERVER: DetectionDefinition = {
  id: 'tls_suspicious_server',
  threat: 'suspicious_tls_server',
  title: 'Repeated TLS sessions to a server with a suspicious certificate',
  severity: 3,
  flags: ['suspicious_tls'],
  mitreAttack: ['TA0011:T1573', 'TA0011:T1071.001', 'TA0042:T1587.003'],
  analytic: { id: 2, name: 'Behavioral' },
  findingType: 'Suspicious Certificate',
  keyDescription: 'destination address and port',
};

/** What one TLS session can show about its server; each kind counts once per window, with its weight. */
export type TlsEvidenceKind =
  | 'self-signed'
  | 'default-certificate'
  | 'unverifiable-name'
  | 'short-validity'
  | 'invalid-dates'
  | 'non-standard-port'
  | 'known-bad-fingerprint'
  | 'self-signed-abused-tld';

/** Bit i of a window's `kinds` is KINDS[i]: new kinds go at the end, so that snapshots keep their meaning. */
const KINDS: readonly TlsEvidenceKind[] = [
  'self-signed',
  'default-certificate',
  'unverifiable-name',
  'short-validity',
  'invalid-dates',
  'non-standard-port',
  'known-bad-fingerprint',
  'self-signed-abused-tld',
];

const KIND_TEXT: Record<TlsEvidenceKind, string> = {
  'self-signed': 'self-signed certificate',
  'default-certificate': 'default/placeholder certificate',
  'unverifiable-name': 'certificate names no public host',
  'short-validity': 'certificate valid for days only',
  'invalid-dates': 'certificate expired or not yet valid',
  'non-standard-port': 'TLS on a non-standard port',
  'known-bad-fingerprint': 'known-bad JA3/JA3S',
  'self-signed-abused-tld': 'self-signed certificate for a name under a much-abused TLD',
};

const KIND_FLAG: Partial<Record<TlsEvidenceKind, string>> = {
  'self-signed': 'self_signed_cert',
  'default-certificate': 'default_cert',
  'invalid-dates': 'invalid_cert_dates',
};

/** Ports TLS services listen on by convention (HTTPS and alternates, mail, LDAP, DoT, XMPP, SIP, MQTT, IRC). */
export const TLS_PORTS: ReadonlySet<number> = new Set([443, 8443, 4443, 465, 587, 993, 995, 636, 3269, 853, 989, 990, 992, 994, 5061, 5223, 5269, 6697, 8883, 563, 25]);

/** The last label of a certificate name, lower-cased ('' when it has no dot). */
function tldOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).trim().toLowerCase();
}

/** Names no public CA can vouch for: the client cannot have checked them. */
const UNVERIFIABLE = /^(?:localhost|localhost\.localdomain|[^.]+|.*\.(?:local|lan|internal|localdomain|home|corp)|\d{1,3}(?:\.\d{1,3}){3}|\[?[0-9a-f:]+\]?)$/i;

export interface TlsServerPatternOptions {
  /** Sessions to one (host, destination) are judged together within this time (ms). */
  windowMs: number;
  /** Sessions with evidence needed before the pattern is reported: one odd certificate is not an alert. */
  minSessions: number;
  /** Weighted distinct evidence kinds needed. */
  minScore: number;
  weights: Record<TlsEvidenceKind, number>;
  /** Validity periods this short (ms) count as evidence. */
  shortValidityMs: number;
  clockSkewMs: number;
  maxKeys: number;
  maxEvidence: number;
  /** Known-bad JA3/JA3S (the intel seed and run-time lists); none without intel. */
  isKnownBadFingerprint?: (ja3: string | undefined, ja3s: string | undefined) => boolean;
}

export const DEFAULT_TLS_SERVER_PATTERN_OPTIONS: TlsServerPatternOptions = {
  windowMs: 3_600_000,
  minSessions: 3,
  minScore: 3,
  weights: {
    'self-signed': 1,
    'default-certificate': 2,
    'unverifiable-name': 1,
    'short-validity': 1,
    'invalid-dates': 1,
    'non-standard-port': 1,
    'known-bad-fingerprint': 2,
    // A public name that no CA vouched for, in a TLD favoured by throwaway infrastructure (`portal-login.xyz`):
    // sites there get free CA certificates like any other; a server that signs its own is set up to be used, not found.
    'self-signed-abused-tld': 2,
  },
  shortValidityMs: 7 * 86_400_000,
  clockSkewMs: 3_600_000,
  maxKeys: 100_000,
  maxEvidence: 5,
};

/** One (host, destination) window: how many suspicious sessions, which kinds, the latest events. */
interface ServerWindow {
  firstMs: number;
  lastMs: number;
  sessions: number;
  /** Bit i set: KINDS[i] seen. */
  kinds: number;
  /** Sessions not yet reported (all of them until the pattern first fires). */
  unreported: number;
  recent: ObservedEvent[];
}

/**
 * Suspicious TLS servers, judged per (host, destination IP:port) over an hour: each session to an Internet server
 * adds what it shows (self-signed, default or unverifiable certificate, validity of days, expired, non-standard
 * port, known-bad fingerprint); the pattern is reported once enough sessions carry enough distinct evidence. A
 * single session to a self-signed appliance is not; a C2 implant calling its team server every minute is. The
 * TLS event carries no SNI, so a certificate/SNI mismatch cannot be seen; a certificate for a name no public CA
 * can vouch for (`localhost`, an address, a single label) stands in for it. Rotating client fingerprints are not
 * counted: browsers randomise their extension order, which changes JA3 every session.
 */
export class TlsServerPatternDetector implements Detector {
  readonly definition = TLS_SUSPICIOUS_SERVER;
  readonly types = ['tls'] as const;
  private readonly options: TlsServerPatternOptions;
  private readonly windows: LruMap<string, ServerWindow>;

  constructor(options: Partial<TlsServerPatternOptions> = {}) {
    this.options = { ...DEFAULT_TLS_SERVER_PATTERN_OPTIONS, ...options, weights: { ...DEFAULT_TLS_SERVER_PATTERN_OPTIONS.weights, ...options.weights } };
    const { minSessions, minScore, windowMs } = this.options;
    if (!Number.isInteger(minSessions) || minSessions < 1) throw new RangeError(`tls pattern: minSessions must be a positive integer, got ${minSessions}`);
    if (!(minScore > 0)) throw new RangeError(`tls pattern: minScore must be positive, got ${minScore}`);
    if (!(windowMs > 0)) throw new RangeError(`tls pattern: windowMs must be positive, got ${windowMs}`);
    this.windows = new LruMap(this.options.maxKeys);
  }

  /** The evidence kinds of one session (bit set over KINDS); 0 for a session with none or not to the Internet. */
  evidence(observed: ObservedEvent, cert: TlsCertificate | undefined = readCertificate(observed)): number {
    const event = observed.event as TlsEvent;
    if (observed.type !== 'tls' || cert === undefined) return 0;
    let kinds = 0;
    const set = (kind: TlsEvidenceKind): void => void (kinds |= 1 << KINDS.indexOf(kind));
    if (cert.defaultMark !== undefined && cert.defaultMark.kind !== 'c2-framework') set('default-certificate');
    const selfSigned = cert.subject !== undefined && cert.issuer !== undefined && cert.subject.canonical === cert.issuer.canonical;
    if (selfSigned) set('self-signed');
    const cn = cert.subject === undefined ? undefined : attribute(cert.subject, 'CN');
    if (selfSigned && cn !== undefined && cert.defaultMark === undefined && SUSPICIOUS_TLDS.has(tldOf(cn))) set('self-signed-abused-tld');
    if (cn !== undefined && cert.defaultMark === undefined && UNVERIFIABLE.test(cn.trim())) set('unverifiable-name');
    const from = certificateTime(event.validFrom);
    const to = certificateTime(event.validTo);
    if (from !== undefined && to !== undefined && to > from && to - from <= this.options.shortValidityMs) set('short-validity');
    if ((to !== undefined && observed.timeMs > to + this.options.clockSkewMs) || (from !== undefined && observed.timeMs < from - this.options.clockSkewMs)) set('invalid-dates');
    if (kinds === 0) return 0; // port and fingerprint only add to a suspicious certificate
    if (Number.isInteger(event.destPort) && !TLS_PORTS.has(event.destPort!)) set('non-standard-port');
    if (this.options.isKnownBadFingerprint?.(event.ja3, event.ja3s)) set('known-bad-fingerprint');
    return kinds;
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    const cert = readCertificate(observed);
    if (cert === undefined) return undefined;
    const kinds = this.evidence(observed, cert);
    if (kinds === 0) return undefined;
    const event = observed.event as TlsEvent;
    const destination = `${event.destIP ?? '?'}:${event.destPort ?? '?'}`;
    const key = `${observed.workspaceId}\u0000${observed.endpoint.id}\u0000${destination}`;
    let window = this.windows.get(key);
    if (window !== undefined && observed.timeMs - window.lastMs > this.options.windowMs) window = undefined;
    if (window === undefined) {
      window = { firstMs: observed.timeMs, lastMs: observed.timeMs, sessions: 0, kinds: 0, unreported: 0, recent: [] };
    }
    window.lastMs = Math.max(window.lastMs, observed.timeMs);
    window.sessions++;
    window.unreported++;
    window.kinds |= kinds;
    window.recent.push(observed);
    if (window.recent.length > this.options.maxEvidence) window.recent.shift();
    this.windows.set(key, window);
    const score = this.score(window.kinds);
    if (window.sessions < this.options.minSessions || score < this.options.minScore) return undefined;
    return this.hit(window, destination, cert, score, observed);
  }

  private score(kinds: number): number {
    let score = 0;
    KINDS.forEach((kind, i) => {
      if (kinds & (1 << i)) score += this.options.weights[kind];
    });
    return score;
  }

  private hit(window: ServerWindow, destination: string, cert: TlsCertificate, score: number, trigger: ObservedEvent): DetectionHit {
    const kinds = KINDS.filter((_, i) => window.kinds & (1 << i));
    const flags = [...TLS_SUSPICIOUS_SERVER.flags, ...kinds.flatMap((k) => KIND_FLAG[k] ?? [])];
    const wisdom: Wisdom = { flags, labels: kinds.map((k) => `tls:${k}`) };
    const weight = window.unreported;
    const pending = weight > 1 ? window.recent.slice(-Math.min(weight, this.options.maxEvidence)) : [trigger];
    window.unreported = 0;
    const evidence: EvidenceEvent[] = pending.map((event) => ({ event, wisdom }));
    const minutes = Math.max(1, Math.round((window.lastMs - window.firstMs) / 60_000));
    return {
      detection: TLS_SUSPICIOUS_SERVER,
      key: destination,
      weight,
      evidence,
      wisdom,
      observations: [`${window.sessions} sessions in ${minutes} min`, ...kinds.map((k) => KIND_TEXT[k]), `score ${score}`],
      desc:
        `${window.sessions} TLS sessions to ${destination} within ${minutes} min, the server presenting a certificate for ${cert.name}: ` +
        `${kinds.map((k) => KIND_TEXT[k]).join(', ')} — a server set up in haste and contacted repeatedly, as C2 implants do`,
    };
  }

  keyedState(): readonly KeyedState[] {
    return [this.windows];
  }

  stateStats(): DetectorStateStats {
    let largestKey = 0;
    for (const w of this.windows.values()) largestKey = Math.max(largestKey, w.recent.length);
    return { keys: this.windows.size, maxKeys: this.windows.maxSize, largestKey, maxEntriesPerKey: this.options.maxEvidence };
  }

  /** Per window `[firstMs, lastMs, sessions, kinds, unreported, [event, ...]]`. */
  snapshot(events: SnapshotEventWriter): unknown {
    return writeLru(this.windows, (w) => [w.firstMs, w.lastMs, w.sessions, w.kinds, w.unreported, w.recent.map((e) => events.observed(e))]);
  }

  restore(state: unknown, events: SnapshotEventReader): void {
    readLru(
      this.windows,
      state,
      (value, at) => {
        const [first, last, sessions, kinds, unreported, recent] = readArray(value, at);
        return {
          firstMs: readNumber(first, `${at}.firstMs`),
          lastMs: readNumber(last, `${at}.lastMs`),
          sessions: readCount(sessions, `${at}.sessions`),
          kinds: readCount(kinds, `${at}.kinds`),
          unreported: readCount(unreported, `${at}.unreported`),
          recent: readArray(recent, `${at}.recent`).map((ref, i) => events.observed(ref, `${at}.recent[${i}]`)),
        };
      },
      TLS_SUSPICIOUS_SERVER.id,
    );
  }
}
