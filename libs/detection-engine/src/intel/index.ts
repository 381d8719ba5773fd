export { INDICATOR_KINDS, isIndicatorKind, parseLabel } from './indicator';
export type { IndicatorKind, IndicatorMatch, IndicatorMeta, IndicatorRecord } from './indicator';
export { IndicatorIndex, IndicatorIndexBuilder, IndicatorLimitError } from './indicator-index';
export type { IndicatorCounts } from './indicator-index';
export type { PackedIndicators } from './packed-indicators';
export { IndicatorStore, DEFAULT_SEED_PATH, DEFAULT_MAX_INDICATORS, DEFAULT_MAX_LIST_BYTES } from './indicator-store';
export type { IndicatorStoreOptions, ListSummary, SharedSeed, LoadListOptions, RefreshReport } from './indicator-store';
export { LIST_FORMATS, ListFormatError, parseList } from './list-formats';
export type { ListFormat, ListParseOptions } from './list-formats';
export { canonicalIp, detectKind, normaliseDomain, normaliseUrl } from './normalise';

export { createIntelDetectors } from '../detections/intel/create-intel-detectors';
export type { IntelDetectorOptions } from '../detections/intel/create-intel-detectors';
export { EventIntelLookup, subjectHostname } from '../detections/intel/event-intel';
export type { EventIntel } from '../detections/intel/event-intel';
export * from '../detections/intel/intel-definitions';
export { STRATUM_PORTS, IRC_PORTS, DOT_PORT, isTorStyleCertificate } from '../detections/intel/intel-rules';
