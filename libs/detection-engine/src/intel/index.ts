export { INDICATOR_KINDS, isIndicatorKind, parseLabel } from './indicator';
export type { IndicatorKind, IndicatorMatch, IndicatorMeta, IndicatorRecord } from './indicator';
export { IndicatorIndex, IndicatorIndexBuilder, IndicatorLimitError } from './indicator-index';
export type { IndicatorCounts } from './indicator-index';
export { IndicatorStore, DEFAULT_SEED_PATH, DEFAULT_MAX_INDICATORS, DEFAULT_MAX_LIST_BYTES } from './indicator-store';
export type { IndicatorStoreOptions, ListSummary, LoadListOptions, RefreshReport } from './indicator-store';
export { LIST_FORMATS, ListFormatError, parseList } from './list-formats';
export type { ListFormat, ListParseOptions } from './list-formats';
export { canonicalIp, detectKind, normaliseDomain, normaliseUrl } from './normalise';

export { createIntelDetectors } from '../detections/intel/create-intel-detectors';
export type { IntelDetectorOptions } from '../detections/intel/create-intel-detectors';
export { EventIntelLookup, subjectHostname } from '../detections/intel/event-intel';
export type { EventIntel } from '../detections/intel/event-intel';
export {
  INTEL_THREATS,
  INTEL_FLAGS,
  INTEL_DETECTIONS,
  INTEL_C2,
  INTEL_SINKHOLE,
  INTEL_MALICIOUS,
  INTEL_MINING,
  INTEL_IRC,
  INTEL_TOR_DNS,
  INTEL_TOR_CIRCUIT,
  INTEL_TELEGRAM,
  INTEL_DYNAMIC_DNS,
  INTEL_TUNNEL_SERVICE,
  INTEL_ENCRYPTED_DNS,
  INTEL_DNS_BYPASS,
} from '../detections/intel/intel-definitions';
export { STRATUM_PORTS, IRC_PORTS, DOT_PORT, isTorStyleCertificate } from '../detections/intel/intel-rules';
