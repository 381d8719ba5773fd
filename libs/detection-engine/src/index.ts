export { DetectionEngine, InvalidBatchError } from './engine';
export type { DetectionEngineOptions, DetectionResult, EngineStateStats } from './engine';

export { THREAT_DICTIONARY } from './inventory/threats';
export { FLAG_DICTIONARY } from './inventory/flags';

export { registeredDomain, splitHostname, matchZone, zoneSet } from './domain';
export type { SplitHostname } from './domain';
export { uuidV5, VIGIL_UUID_NAMESPACE } from './uuid';
export { canonicalJson, sha256Hex } from './canonical-json';
export { LruMap } from './state/lru-map';
export { StateBudget, type KeyedState, type StateBudgetOptions, type DetectionStateUsage } from './state/state-budget';
export { estimateBytes } from './state/estimate-bytes';
export { ATTACK_TACTICS, ATTACK_TECHNIQUES, ATTACK_VERSION, parseAttackPair } from './mitre';
export { observeEvent, urlHostname } from './observed-event';

export type {
  AnalyticType,
  DetectionDefinition,
  DetectionHit,
  Detector,
  DetectorStateStats,
  Endpoint,
  EvidenceEvent,
  ObservedEvent,
} from './detections/detection';
export { DNS_TUNNEL, DnsTunnelDetector, DEFAULT_DNS_TUNNEL_OPTIONS } from './detections/dns-tunnel/dns-tunnel';
export type { DnsTunnelOptions } from './detections/dns-tunnel/dns-tunnel';
export { DNS_TUNNEL_ALLOW_LIST } from './detections/dns-tunnel/allow-list';
export {
  assessSubdomain,
  subdomainFeatures,
  shannonEntropy,
  expectedRandomEntropy,
  DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS,
} from './detections/dns-tunnel/subdomain-features';
export type {
  PayloadCharset,
  RandomSubdomainThresholds,
  SubdomainAssessment,
  SubdomainFeatures,
} from './detections/dns-tunnel/subdomain-features';
export { OAST_DOMAIN, OastDomainDetector } from './detections/oast/oast-domain';
export { OAST_SERVICES } from './detections/oast/oast-services';

export { FindingAggregator, aggregationKeyHash, FINDING_IDLE_CLOSE_MS, MAX_FINDING_EVIDENCE, MAX_FINDING_BATCH_IDS } from './aggregation/finding-aggregator';
export type { AggregationKey, FindingVersion } from './aggregation/finding-aggregator';
export { buildAlert, alertId, mergeWisdom } from './alerts/alert-builder';
export { buildDetectionFinding, OCSF_VERSION, OCSF_PROFILES } from './ocsf/finding-builder';
export type { FindingBuildOptions } from './ocsf/finding-builder';
export { buildEvidence } from './ocsf/evidence';
export type { OcsfEvidence, OcsfEndpoint } from './ocsf/evidence';

export * from './detections/network';
export * from './detections/web';
export * from './intel';
export * from './detections/dga';
export * from './popularity';
export { DnsExplainer, formatExplanation, type DnsNameExplanation } from './explain/explain-dns';
export { ImposterDomainDetector, IMPOSTER_DOMAIN, type ImposterOptions } from './detections/imposter/imposter-domain';
export { DEFAULT_IMPOSTER_WEIGHTS, MUCH_PHISHED_BRANDS, scoreImposter, type ImposterWeights } from './detections/imposter/imposter-evidence';
export { BrandIndex, type ImposterMatch, type ImposterTechnique } from './detections/imposter/brand-index';
export { LeaseTracker, type LeaseHolder } from './enrichment/lease-tracker';
export { SnapshotError, ENGINE_SNAPSHOT_VERSION, type EngineSnapshot } from './state/snapshot';
export type { SnapshotEventReader, SnapshotEventWriter } from './state/event-table';
