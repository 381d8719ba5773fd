import { popularity as defaultPopularity } from '../../popularity';
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
import type { PopularityLookup } from './http-request';
import {
  type CertificateDatesOptions,
  CertificateDatesDetector,
  DefaultCertificateDetector,
  SelfSignedCertificateDetector,
  TLS_C2_DEFAULT_CERTIFICATE,
  TLS_DEFAULT_CERTIFICATE,
} from './tls-certificate';

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
export {
  CertificateDatesDetector,
  type CertificateDatesOptions,
  DefaultCertificateDetector,
  findDefaultMark,
  SelfSignedCertificateDetector,
  TLS_C2_DEFAULT_CERTIFICATE,
  TLS_DEFAULT_CERTIFICATE,
  TLS_INVALID_DATES,
  TLS_SELF_SIGNED,
} from './tls-certificate';
export { parseDistinguishedName, certificateTime, type DistinguishedName } from './certificate';
export { DEFAULT_CERTIFICATE_MARKS, type DefaultCertificateMark, type DefaultCertificateKind } from './default-certificates';
export { USER_AGENT_PATTERNS, classifyUserAgent, obsoletePlatform, type UserAgentKind, type UserAgentPattern } from './user-agents';
export { PASTE_SERVICES, type PasteService } from './paste-services';
export type { PopularityLookup } from './http-request';
export { WEB_FLAGS, WEB_THREATS } from './web-inventory';

export interface WebDetectorOptions {
  /** Popularity of a registered domain; default the committed rankings (src/popularity). */
  popularity?: PopularityLookup;
  certificateDates?: Partial<CertificateDatesOptions>;
}

/**
 * The suspicious-TLS and suspicious-HTTP detections. Malicious JA3/JA3S fingerprints and certificate hashes,
 * Telegram Bot API and OAST hosts are not repeated here: the intel detections (JA3/JA3S/cert lookups of the
 * indicator store) and the OAST detection already report them for TLS and HTTP events.
 */
export function createWebDetectors(opts: WebDetectorOptions = {}): Detector[] {
  const popularity = opts.popularity ?? defaultPopularity;
  return [
    new SelfSignedCertificateDetector(),
    new DefaultCertificateDetector(TLS_DEFAULT_CERTIFICATE, false),
    new DefaultCertificateDetector(TLS_C2_DEFAULT_CERTIFICATE, true),
    new CertificateDatesDetector(opts.certificateDates),
    new ExecutableDownloadDetector(popularity),
    new AttackToolUserAgentDetector(),
    new ObsoleteUserAgentDetector(),
    new ClientToUnpopularDetector(HTTP_LOLBIN_DOWNLOAD, 'lolbin', popularity),
    new ClientToUnpopularDetector(HTTP_SCRIPTING_CLIENT, 'scripting', popularity),
    new RawIpUrlDetector(),
    new PasteServiceDetector(),
  ];
}
