import type { KeyedState } from '../state/state-budget';
import type { Severity, TelemetryEvent, TelemetryType, Wisdom } from '@vigil/contracts';
import type { SnapshotEventReader, SnapshotEventWriter } from '../state/event-table';

/** How a detection decides, as OCSF `finding_info.analytic.type_id` (1 Rule, 3 Statistical, ...). */
export interface AnalyticType {
  id: 1 | 2 | 3 | 9;
  name: 'Rule' | 'Behavioral' | 'Statistical' | 'Exact Data Match';
}

/** The fixed description of one built-in detection. */
export interface DetectionDefinition {
  id: string;
  /** Threat ID from the threat dictionary. */
  threat: string;
  title: string;
  severity: Severity;
  flags: string[];
  /** `TA0000:T0000[.000]` pairs. */
  mitreAttack: string[];
  analytic: AnalyticType;
  /** OCSF `finding_info.types` entry. */
  findingType: string;
  /** What the aggregation key holds, for documentation and `observations`. */
  keyDescription: string;
}

/** The source host of an event: `ip` is the aggregation identity ('' when the event has no srcIP). */
export interface Endpoint {
  ip: string;
  host?: string;
  mac?: string;
  /**
   * Identity for detection state: `host:<name>` when the host is known (from the event or its DHCP lease), else
   * the IP, so state follows a host across address changes.
   */
  id: string;
}

/** One telemetry event as the detections see it. */
export interface ObservedEvent {
  workspaceId: string;
  batchId: string;
  /** Position in the batch: with batchId, a stable event id. */
  index: number;
  type: TelemetryType;
  event: TelemetryEvent;
  /** Event time (epoch ms): the event's `ts`, or the batch's receivedAt when `ts` is unusable. */
  timeMs: number;
  endpoint: Endpoint;
  /** Lower-case host name the event asks for (DNS query, HTTP URL host), without trailing dot. */
  hostname?: string;
  /** The queried name exactly as sent (case kept), for detections that read encodings. */
  rawHostname?: string;
  /** HTTP: the URL's path as parsed (still percent-encoded), set with `hostname`. */
  urlPath?: string;
}

/** An event that a detection keeps as evidence, with the wisdom attached to it. */
export interface EvidenceEvent {
  event: ObservedEvent;
  wisdom: Wisdom;
}

/** A detection's verdict on one event. The engine turns hits into findings and alerts. */
export interface DetectionHit {
  detection: DetectionDefinition;
  /** Aggregation key within (workspace, endpoint, detection), e.g. the registered domain. */
  key: string;
  /** Source events this hit accounts for (a windowed detection reports the events that built up to it). */
  weight: number;
  /** Events to keep as evidence, oldest first; the triggering event is the last one. */
  evidence: EvidenceEvent[];
  wisdom: Wisdom;
  observations: string[];
  /** Human-readable why, used as `finding_info.desc`. */
  desc: string;
}

/** Size of a stateful detector's state against its bounds. */
export interface DetectorStateStats {
  keys: number;
  maxKeys: number;
  /** Entries held by the fullest key. */
  largestKey: number;
  maxEntriesPerKey: number;
}

/** A built-in detection. Stateful detections keep bounded state and report it through `stateStats`. */
export interface Detector {
  readonly definition: DetectionDefinition;
  /** Event types this detector reads. */
  readonly types: readonly TelemetryType[];
  inspect(event: ObservedEvent): DetectionHit | undefined;
  stateStats?(): DetectorStateStats;
  /** The detection's keyed state, for the process-wide memory budget (which may evict its oldest keys). */
  keyedState?(): readonly KeyedState[];
  /**
   * The detector's state as plain JSON data; events it holds are stored once in the engine's shared table
   * through `events`. Stateless detectors leave it out.
   */
  snapshot?(events: SnapshotEventWriter): unknown;
  /**
   * Replaces the state with what {@link snapshot} returned (undefined: empties it). Throws a SnapshotError on
   * malformed data, leaving its state as it was.
   */
  restore?(state: unknown, events: SnapshotEventReader): void;
}
