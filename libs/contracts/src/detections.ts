/** Severity scale everywhere: 5 critical, 4 high, 3 medium, 2 low, 1 informational. */
export type Severity = 1 | 2 | 3 | 4 | 5;

/** An entry of the threat dictionary (GET /v1/ae/inventory/threats). */
export interface ThreatDefinition {
  title: string;
  severity: Severity;
  policy?: boolean;
}

/** An entry of the flag dictionary (GET /v1/ae/inventory/flags). */
export interface FlagDefinition {
  title: string;
  type: 'category' | 'feature';
}

export type ThreatDictionary = Record<string, ThreatDefinition>;
export type FlagDictionary = Record<string, FlagDefinition>;

/** One detection inside a finding's aggregation key and an alert's `detections`. */
export interface DetectionRef {
  id: string;
  key: string;
  severity: Severity;
  threat: string;
  mitreAttack: string[];
  observations: string[];
}

export interface Wisdom {
  flags: string[];
  labels?: string[];
  domain?: string;
}
