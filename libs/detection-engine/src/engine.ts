import { isTelemetryType, type AlertRecord, type FindingRecord, type LeaseEvent, type TelemetryBatch, type TelemetryType } from '@vigil/contracts';
import { FindingAggregator } from './aggregation/finding-aggregator';
import { buildAlert } from './alerts/alert-builder';
import type { DetectionDefinition, DetectionHit, Detector, DetectorStateStats, Endpoint, ObservedEvent } from './detections/detection';
import { DnsTunnelDetector, type DnsTunnelOptions } from './detections/dns-tunnel/dns-tunnel';
import { OastDomainDetector } from './detections/oast/oast-domain';
import { createIntelDetectors } from './detections/intel/create-intel-detectors';
import { createNetworkDetectors, type NetworkDetectorOptions } from './detections/network';
import { createWebDetectors } from './detections/web';
import { createDgaDetector } from './detections/dga';
import { dynamicDnsZoneOf } from './detections/dga/dynamic-zone';
import { ImposterDomainDetector } from './detections/imposter/imposter-domain';
import type { IndicatorStore } from './intel/indicator-store';
import { endpointId, knowHostKey, observeEvent } from './observed-event';
import { LeaseTracker, type LeaseAttribution } from './enrichment/lease-tracker';
import { internedHostKey } from './host-keys';
import { buildDetectionFinding } from './ocsf/finding-builder';
import { LruMap } from './state/lru-map';
import { restoreEngine, snapshotEngine, type EngineStateHolders } from './state/engine-state';
import type { SnapshotEventReader, SnapshotEventWriter } from './state/event-table';
import type { EngineSnapshot } from './state/snapshot';
import type { StateBudget } from './state/state-budget';

/**
 * Detections the engine runs after the built-in ones on each event (customer Sigma rules). They see the
 * built-in hits of the event (for their enrichment) and their hits are aggregated and alerted like built-ins.
 */
export interface ExtraHitSource {
  /** False when nothing of this source can fire for the workspace and type: the engine then skips it. */
  covers(workspaceId: string, type: TelemetryType): boolean;
  inspect(observed: ObservedEvent, builtInHits: readonly DetectionHit[]): DetectionHit[];
  /** The source's state (e.g. correlation windows) as plain JSON data; see Detector.snapshot. */
  snapshot?(events: SnapshotEventWriter): unknown;
  /** Replaces the state with a {@link snapshot} (undefined: empties it); throws on malformed data. */
  restore?(state: unknown, events: SnapshotEventReader): void;
}

export interface DetectionEngineOptions {
  /** Bound of every keyed state: open findings and each stateful detection's windows. Default 100,000. */
  maxKeys?: number;
  /** Results of the latest batches, kept so a re-delivered batch yields the very same records. Default 32. */
  maxCachedBatches?: number;
  /** Wall clock for `metadata.processed_time` (epoch ms). Default Date.now. */
  clock?: () => number;
  dnsTunnel?: Partial<Omit<DnsTunnelOptions, 'maxKeys'>>;
  network?: Omit<NetworkDetectorOptions, 'maxKeys'>;
  /** Threat intelligence for the intel detections (C2, sinkholes, mining, Tor, ...); without it they are off. */
  intel?: IndicatorStore;
  /** Resolvers the organisation runs or sanctions: DNS to them is not resolver bypass. */
  configuredResolvers?: readonly string[];
  /** More detections per event, e.g. customer Sigma rules (see {@link ExtraHitSource}). */
  extraHits?: ExtraHitSource;
  /**
   * The process-wide memory budget this engine's keyed state counts against (shared by every partition's
   * engine); without one, state is bounded by `maxKeys` per map only.
   */
  stateBudget?: StateBudget;
}

export interface DetectionResult {
  findings: FindingRecord[];
  alerts: AlertRecord[];
}

export interface EngineStateStats {
  openFindings: number;
  maxOpenFindings: number;
  cachedBatches: number;
  maxCachedBatches: number;
  /** Per stateful detection id. */
  detections: Record<string, DetectorStateStats>;
}

/** A batch that does not have the TelemetryBatch shape; nothing of it was processed. */
export class InvalidBatchError extends Error {
  override readonly name = 'InvalidBatchError';
}

const DEFAULT_MAX_KEYS = 100_000;
const DEFAULT_MAX_CACHED_BATCHES = 32;
/**
 * Shares of the state budget that the pair and window churn of the detections cannot wear away (StateBudget's
 * reservedShare). Leases attribute every event of an address to its host and change hands in hours; open
 * findings keep a host's hits on one finding. With equal shares both were evicted within seconds under a busy
 * fleet (the sustained bench's 20,000 hosts: 12,664 addresses a thread down to 309 in ten minutes).
 */
const LEASES_RESERVED_SHARE = 0.25;
const FINDINGS_RESERVED_SHARE = 0.1;

const NO_HITS: readonly DetectionHit[] = Object.freeze([]);

/**
 * Writes the host name and MAC of the event's endpoint (its lease's, see attributeFromLease) into the event where
 * it lacks them, for what reads the event itself: alerts carry it, customer rules match its fields. Only events
 * that go that far are written: adding two properties to every parsed event of a network with DHCP leases cost
 * about 5 % of scoring. Findings' evidence takes the host from the endpoint (ocsf/evidence.ts).
 */
function nameSourceInEvent(observed: ObservedEvent): void {
  const { host, mac } = observed.endpoint;
  const event = observed.event as { srcHost?: unknown; srcMac?: unknown };
  if (host && !(typeof event.srcHost === 'string' && event.srcHost.length > 0)) event.srcHost = host;
  if (mac && !(typeof event.srcMac === 'string' && event.srcMac.length > 0)) event.srcMac = mac;
}

function leaseAttribution(workspaceId: string, endpoint: Endpoint): LeaseAttribution {
  return { endpoint, hostKey: internedHostKey(workspaceId, endpoint.id) };
}

/** The endpoint of an event attributed by a lease: its address, and the host and MAC the event or the lease gives. */
function attributedEndpoint(ip: string, host: string | undefined, mac: string | undefined): Endpoint {
  return { ip, host: host || undefined, mac: mac || undefined, id: endpointId(ip, host) };
}

type Inspector = (event: ObservedEvent) => DetectionHit | undefined;

function assertBatch(batch: unknown): asserts batch is TelemetryBatch {
  if (batch === null || typeof batch !== 'object') throw new InvalidBatchError('batch must be an object');
  const b = batch as Partial<TelemetryBatch>;
  if (b.v !== 1) throw new InvalidBatchError(`unsupported batch version ${JSON.stringify(b.v)} (expected 1)`);
  if (typeof b.workspaceId !== 'string' || b.workspaceId.length === 0) throw new InvalidBatchError('batch.workspaceId must be a non-empty string');
  if (typeof b.batchId !== 'string' || b.batchId.length === 0) throw new InvalidBatchError('batch.batchId must be a non-empty string');
  if (typeof b.type !== 'string' || !isTelemetryType(b.type)) throw new InvalidBatchError(`batch.type ${JSON.stringify(b.type)} is not a telemetry type`);
  if (typeof b.receivedAt !== 'number' || !Number.isFinite(b.receivedAt)) throw new InvalidBatchError('batch.receivedAt must be epoch milliseconds');
  if (!Array.isArray(b.events)) throw new InvalidBatchError('batch.events must be an array');
}

/**
 * Runs the built-in detections over telemetry batches and folds their hits into OCSF findings (one
 * version per finding per batch) and legacy alerts (one per event that raised a threat). Pure: no I/O.
 * State (windows, open findings) lives in memory, bounded by `maxKeys`; ids are name-based, so the same
 * batches processed from the same state give the same ids.
 */
export class DetectionEngine {
  private readonly detectors: Detector[];
  /**
   * Per event type, its detectors' `inspect` bound to them. Called through one site for a score of detector
   * classes, `detector.inspect` was a megamorphic property load per detector and event; an array of functions
   * leaves only the call.
   */
  private readonly inspectorsByType: Map<TelemetryType, Inspector[]>;
  private readonly aggregator: FindingAggregator;
  private readonly results: LruMap<string, DetectionResult>;
  private readonly clock: () => number;
  private readonly leases: LeaseTracker;
  private readonly extraHits?: ExtraHitSource;
  private readonly stateBudget?: StateBudget;

  constructor(opts: DetectionEngineOptions = {}) {
    const maxKeys = opts.maxKeys ?? DEFAULT_MAX_KEYS;
    if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new RangeError(`maxKeys must be a positive integer, got ${maxKeys}`);
    this.detectors = [
      new DnsTunnelDetector({ ...opts.dnsTunnel, maxKeys }),
      new OastDomainDetector(),
      createDgaDetector(opts.intel ? { dynamicZone: dynamicDnsZoneOf(opts.intel) } : {}),
      new ImposterDomainDetector(),
      ...createNetworkDetectors({ ...opts.network, maxKeys }),
      ...createWebDetectors({ intel: opts.intel, tlsPattern: { maxKeys } }),
      ...(opts.intel ? createIntelDetectors(opts.intel, { configuredResolvers: opts.configuredResolvers }) : []),
    ];
    this.inspectorsByType = new Map();
    for (const detector of this.detectors) {
      const inspect: Inspector = detector.inspect.bind(detector);
      for (const type of detector.types) this.inspectorsByType.set(type, [...(this.inspectorsByType.get(type) ?? []), inspect]);
    }
    this.aggregator = new FindingAggregator(maxKeys);
    this.results = new LruMap(opts.maxCachedBatches ?? DEFAULT_MAX_CACHED_BATCHES);
    this.clock = opts.clock ?? Date.now;
    this.leases = new LeaseTracker(maxKeys);
    this.extraHits = opts.extraHits;
    this.stateBudget = opts.stateBudget;
    if (this.stateBudget !== undefined) {
      for (const detector of this.detectors) for (const state of detector.keyedState?.() ?? []) this.stateBudget.register(detector.definition.id, state);
      for (const state of this.aggregator.keyedState()) this.stateBudget.register('findings', state, { reservedShare: FINDINGS_RESERVED_SHARE });
      for (const state of this.leases.keyedState()) this.stateBudget.register('leases', state, { reservedShare: LEASES_RESERVED_SHARE });
    }
  }

  /**
   * Scores a batch. Events that raise a hit, and every event customer rules see, are filled in place with the
   * host name and MAC of the DHCP lease that covered their source address, when they lack them.
   * @throws InvalidBatchError when `batch` is not a TelemetryBatch (events that are not objects are skipped).
   */
  process(batch: TelemetryBatch): DetectionResult {
    assertBatch(batch);
    const cacheKey = `${batch.workspaceId}\u0000${batch.batchId}`;
    const cached = this.results.get(cacheKey);
    if (cached !== undefined) return cached;

    if (batch.type === 'lease') this.recordLeases(batch);
    const inspectors = this.inspectorsByType.get(batch.type) ?? [];
    const alerts: AlertRecord[] = [];
    const extra = this.extraHits?.covers(batch.workspaceId, batch.type) ? this.extraHits : undefined;
    if (inspectors.length > 0 || extra !== undefined) {
      for (let index = 0; index < batch.events.length; index++) {
        const observed = observeEvent(batch, index);
        if (observed === undefined) continue;
        this.attributeFromLease(observed);
        // Most events hit nothing: the list is made only for the first hit.
        let hits: DetectionHit[] | undefined;
        for (let i = 0; i < inspectors.length; i++) {
          const hit = inspectors[i](observed);
          if (hit !== undefined) (hits ??= []).push(hit);
        }
        if (hits !== undefined || extra !== undefined) nameSourceInEvent(observed);
        if (extra !== undefined) {
          const more = extra.inspect(observed, hits ?? NO_HITS);
          if (more.length > 0) (hits ??= []).push(...more);
        }
        if (hits === undefined) continue;
        for (const hit of hits) this.aggregator.add(batch.workspaceId, observed.endpoint, hit, batch.batchId);
        const alert = buildAlert(observed, hits);
        if (alert !== undefined) alerts.push(alert);
      }
    }

    const processedMs = this.clock();
    const findings: FindingRecord[] = this.aggregator.flush(batch.receivedAt).map((version) => {
      const finding = buildDetectionFinding(version, { processedMs });
      return {
        workspaceId: version.workspaceId,
        recordId: version.recordId,
        findingUid: version.uid,
        severityId: finding.severity_id,
        time: version.versionMs,
        finding,
      };
    });
    const result = { findings, alerts };
    this.results.set(cacheKey, result);
    this.stateBudget?.maybeEnforce();
    return result;
  }

  private recordLeases(batch: TelemetryBatch): void {
    for (let index = 0; index < batch.events.length; index++) {
      const observed = observeEvent(batch, index);
      if (observed !== undefined) this.leases.record(batch.workspaceId, observed.event as LeaseEvent, observed.timeMs);
    }
  }

  /**
   * Fills the host name and MAC an event lacks from the DHCP lease that covered its source IP at its time, so
   * findings and alerts name the machine, and detection state follows the host across address changes.
   */
  private attributeFromLease(observed: ObservedEvent): void {
    const { endpoint } = observed;
    if (endpoint.ip === '' || (endpoint.host !== undefined && endpoint.mac !== undefined)) return;
    const lease = this.leases.leaseAt(observed.workspaceId, endpoint.ip, observed.timeMs);
    if (lease === undefined) return;
    const host = endpoint.host ?? lease.holder.host;
    const mac = endpoint.mac ?? lease.holder.mac;
    if (endpoint.host === undefined && endpoint.mac === undefined) {
      // Most events carry neither: they share their lease's endpoint and host key, made on its first such event, so
      // that neither is looked up again for each event (a side table per holder and the host-key memo had been two
      // look-ups in tables of every leased address).
      const shared = (lease.attribution ??= leaseAttribution(observed.workspaceId, attributedEndpoint(endpoint.ip, host, mac)));
      observed.endpoint = shared.endpoint;
      knowHostKey(observed, shared.hostKey);
    } else {
      observed.endpoint = attributedEndpoint(endpoint.ip, host, mac);
    }
  }

  /** The definitions of every detection this engine runs. */
  definitions(): DetectionDefinition[] {
    return this.detectors.map((detector) => detector.definition);
  }

  /**
   * The detection state (windows, open findings, leases, the extra source's state) as plain JSON data. Call
   * between batches. The cache of recent results is not included: a restored engine re-processes a batch.
   */
  snapshot(): EngineSnapshot {
    return snapshotEngine(this.stateHolders());
  }

  /**
   * Replaces the detection state with a {@link snapshot} taken from an engine built with the same options.
   * @throws SnapshotError on an unknown version or a malformed part; the engine is then empty and usable.
   */
  restore(snapshot: EngineSnapshot): void {
    this.results.clear();
    restoreEngine(this.stateHolders(), snapshot);
  }

  private stateHolders(): EngineStateHolders {
    return { detectors: this.detectors, aggregator: this.aggregator, leases: this.leases, extraHits: this.extraHits };
  }

  /** Current state sizes and their bounds. */
  stateStats(): EngineStateStats {
    const detections: Record<string, DetectorStateStats> = {};
    for (const detector of this.detectors) {
      const stats = detector.stateStats?.();
      if (stats !== undefined) detections[detector.definition.id] = stats;
    }
    return {
      openFindings: this.aggregator.openFindings,
      maxOpenFindings: this.aggregator.maxOpenFindings,
      cachedBatches: this.results.size,
      maxCachedBatches: this.results.maxSize,
      detections,
    };
  }
}
