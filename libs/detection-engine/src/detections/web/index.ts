import { defaultPopularity as defaultRankings, type PopularitySet } from '../../popularity';
import type { Detector } from '../detection';
import {
  AttackToolUserAgentDetector,
  ClientToUnpopularDetector,
  ExecutableDownloadDetector,
  HTTP_LOLBIN_DOWNLOAD,
  HTTP_SCRIPTING_CLIENT,
  ObsoleteUserAgentDetector,
  PasteServiceDetector,
  RawIpUrlDetector,
} from './http-detectors';
import type { IndicatorStore } from '../../intel/indicator-store';
import { DefaultCertificateDetector, TLS_C2_DEFAULT_CERTIFICATE } from './tls-certificate';
import { TlsServerPatternDetector, type TlsServerPatternOptions } from './tls-server-pattern';

export {
  AttackToolUserAgentDetector,
  ClientToUnpopularDetector,
  EXECUTABLE_CONTENT_TYPES,
  EXECUTABLE_EXTENSIONS,
  ExecutableDownloadDetector,
  HTTP_ATTACK_TOOL_UA,
  HTTP_EXECUTABLE_DOWNLOAD,
  HTTP_LOLBIN_DOWNLOAD,
  HTTP_OBSOLETE_UA,
  HTTP_PASTE_SERVICE,
  HTTP_RAW_IP_URL,
  HTTP_SCRIPTING_CLIENT,
  ObsoleteUserAgentDetector,
  PasteServiceDetector,
  RawIpUrlDetector,
} from './http-detectors';
export { DefaultCertificateDetector, findDefaultMark, TLS_C2_DEFAULT_CERTIFICATE } from './tls-certificate';
export {
  DEFAULT_TLS_SERVER_PATTERN_OPTIONS,
  TLS_PORTS,
  TLS_SUSPICIOUS_SERVER,
  TlsServerPatternDetector,
  type TlsEvidenceKind,
  type TlsServerPatternOptions,
} from './tls-server-pattern';
export { parseDistinguishedName, certificateTime, type DistinguishedName } from './certificate';
export { DEFAULT_CERTIFICATE_MARKS, type DefaultCertificateMark, type DefaultCertificateKind } from './default-certificates';
export { USER_AGENT_PATTERNS, classifyUserAgent, obsoletePlatform, type UserAgentKind, type UserAgentPattern } from './user-agents';
export { PASTE_SERVICES, type PasteService } from './paste-services';
export { WEB_FLAGS, WEB_THREATS } from './web-inventory';

export interface WebDetectorOptions {
  /** The popularity rankings; default the committed ones (src/popularity). */
  popularity?: PopularitySet;
  /** Known-bad JA3/JA3S for the TLS pattern; without it fingerprints do not count. */
  intel?: IndicatorStore;
  tlsPattern?: Partial<Omit<TlsServerPatternOptions, 'isKnownBadFingerprint'>>;
}

/**
 * The suspicious-TLS and suspicious-HTTP detections. Malicious JA3/JA3S fingerprints and certificate hashes,
 * Telegram Bot API and OAST hosts are reported by the intel detections (indicator store lookups) and the OAST
 * detection; here a known-bad fingerprint only adds to the TLS pattern of a destination.
 */
export function createWebDetectors(opts: WebDetectorOptions = {}): Detector[] {
  const popularity = opts.popularity ?? defaultRankings();
  const intel = opts.intel;
  const isKnownBadFingerprint =
    intel === undefined
      ? undefined
      : (ja3: string | undefined, ja3s: string | undefined): boolean =>
          (typeof ja3 === 'string' && intel.matchJa3(ja3).length > 0) || (typeof ja3s === 'string' && intel.matchJa3s(ja3s).length > 0);
  return [
    new TlsServerPatternDetector({ ...opts.tlsPattern, isKnownBadFingerprint }),
    new DefaultCertificateDetector(TLS_C2_DEFAULT_CERTIFICATE, true),
    new ExecutableDownloadDetector(popularity),
    new AttackToolUserAgentDetector(),
    new ObsoleteUserAgentDetector(),
    new ClientToUnpopularDetector(HTTP_LOLBIN_DOWNLOAD, 'lolbin', popularity),
    new ClientToUnpopularDetector(HTTP_SCRIPTING_CLIENT, 'scripting', popularity),
    new RawIpUrlDetector(),
    new PasteServiceDetector(),
  ];
}
