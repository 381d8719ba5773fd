import type { DetectionRef, Wisdom } from '@vigil/contracts';
import { canonicalJson, sha256Hex } from '../canonical-json';
import type { DetectionDefinition, DetectionHit, Endpoint, EvidenceEvent } from '../detections/detection';
import { LruMap } from '../state/lru-map';
import { uuidV5 } from '../uuid';

/** A finding stays open while hits keep coming; this much event time without one closes it. */
export const FINDING_IDLE_CLOSE_MS = 60 * 60 * 1000;
export const MAX_FINDING_EVIDENCE = 10;
export const MAX_FINDING_BATCH_IDS = 100;

/** The aggregation key of a finding, as served in its `aggregation` enrichment. */
export interface AggregationKey {
  workspaceID: string;
  srcIP: string;
  detections: DetectionRef[];
}

/** Everything needed to render one version of a finding. */
export interface FindingVersion {
  uid: string;
  /** 1 for the Create, +1 per Update. */
  revision: number;
  recordId: string;
  workspaceId: string;
  endpoint: Endpoint;
  detection: DetectionDefinition;
  key: string;
  aggregationKey: AggregationKey;
  keyHash: string;
  /** Source events aggregated so far. */
  count: number;
  firstEventMs: number;
  lastEventMs: number;
  /** Time of the Create version (the batch's receivedAt). */
  createdMs: number;
  /** Time of this version (the batch's receivedAt). */
  versionMs: number;
  desc: string;
  wisdom: Wisdom;
  /** Newest last, at most {@link MAX_FINDING_EVIDENCE}. */
  evidence: EvidenceEvent[];
  /** Oldest first, the latest {@link MAX_FINDING_BATCH_IDS}. */
  batchIds: string[];
}

interface OpenFinding {
  uid: string;
  revision: number;
  workspaceId: string;
  endpoint: Endpoint;
  detection: DetectionDefinition;
  key: string;
  count: number;
  firstEventMs: number;
  lastEventMs: number;
  createdMs: number | undefined;
  desc: string;
  wisdom: Wisdom;
  observations: string[];
  evidence: EvidenceEvent[];
  batchIds: string[];
}

/**
 * Folds detection hits into findings per (workspace, endpoint, detection, key). Hits of one batch are
 * collected with {@link add}; {@link flush} then emits at most one version per finding touched.
 */
export class FindingAggregator {
  private readonly open: LruMap<string, OpenFinding>;
  /** Findings touched since the last flush, in first-touch order. */
  private readonly touched = new Set<OpenFinding>();

  constructor(maxOpenFindings: number) {
    this.open = new LruMap(maxOpenFindings);
  }

  get openFindings(): number {
    return this.open.size;
  }

  get maxOpenFindings(): number {
    return this.open.maxSize;
  }

  add(workspaceId: string, endpoint: Endpoint, hit: DetectionHit, batchId: string): void {
    const hitTimes = hit.evidence.map((e) => e.event.timeMs);
    const hitFirst = Math.min(...hitTimes);
    const hitLast = Math.max(...hitTimes);
    const findingKey = [workspaceId, endpoint.id, hit.detection.id, hit.key].join('\u0000');

    let finding = this.open.get(findingKey);
    if (finding !== undefined && hitLast - finding.lastEventMs > FINDING_IDLE_CLOSE_MS) finding = undefined;
    if (finding === undefined) {
      finding = this.start(workspaceId, endpoint, hit, hitFirst);
      this.open.set(findingKey, finding);
    }
    this.touched.add(finding);

    finding.count += hit.weight;
    finding.firstEventMs = Math.min(finding.firstEventMs, hitFirst);
    finding.lastEventMs = Math.max(finding.lastEventMs, hitLast);
    if (endpoint.host !== undefined) finding.endpoint = { ...finding.endpoint, host: endpoint.host };
    if (endpoint.mac !== undefined) finding.endpoint = { ...finding.endpoint, mac: endpoint.mac };
    finding.desc = hit.desc;
    finding.wisdom = mergeWisdom(finding.wisdom, hit.wisdom);
    finding.observations = hit.observations;
    finding.evidence = [...finding.evidence, ...hit.evidence].slice(-MAX_FINDING_EVIDENCE);
    if (finding.batchIds[finding.batchIds.length - 1] !== batchId) {
      finding.batchIds = [...finding.batchIds.filter((id) => id !== batchId), batchId].slice(-MAX_FINDING_BATCH_IDS);
    }
  }

  /** Emits one version of each finding touched since the last flush; `versionMs` is the batch time. */
  flush(versionMs: number): FindingVersion[] {
    const versions = [...this.touched].map((finding) => {
      finding.revision += 1;
      finding.createdMs ??= versionMs;
      return snapshot(finding, versionMs);
    });
    this.touched.clear();
    return versions;
  }

  private start(workspaceId: string, endpoint: Endpoint, hit: DetectionHit, windowStartMs: number): OpenFinding {
    const uid = uuidV5(['finding', workspaceId, endpoint.id, hit.detection.id, hit.key, String(windowStartMs)].join('\u0000'));
    return {
      uid,
      revision: 0,
      workspaceId,
      endpoint: { ...endpoint },
      detection: hit.detection,
      key: hit.key,
      count: 0,
      firstEventMs: windowStartMs,
      lastEventMs: windowStartMs,
      createdMs: undefined,
      desc: hit.desc,
      wisdom: { flags: [] },
      observations: [],
      evidence: [],
      batchIds: [],
    };
  }
}

function mergeWisdom(a: Wisdom, b: Wisdom): Wisdom {
  const flags = [...new Set([...a.flags, ...b.flags])];
  const labels = [...new Set([...(a.labels ?? []), ...(b.labels ?? [])])];
  const merged: Wisdom = { flags };
  if (labels.length > 0) merged.labels = labels;
  const domain = b.domain ?? a.domain;
  if (domain !== undefined) merged.domain = domain;
  return merged;
}

function aggregationKeyOf(finding: OpenFinding): AggregationKey {
  const { detection } = finding;
  return {
    workspaceID: finding.workspaceId,
    srcIP: finding.endpoint.ip,
    detections: [
      {
        id: detection.id,
        key: finding.key,
        severity: detection.severity,
        observations: [...finding.observations],
        mitreAttack: [...detection.mitreAttack],
        threat: detection.threat,
      },
    ],
  };
}

/**
 * sha256 of the canonical key. `observations` describe the latest state, not the identity, so they are
 * left out: the hash stays the same across a finding's versions.
 */
export function aggregationKeyHash(key: AggregationKey): string {
  return sha256Hex(
    canonicalJson({
      workspaceID: key.workspaceID,
      srcIP: key.srcIP,
      detections: key.detections.map(({ id, key: k, severity, mitreAttack, threat }) => ({ id, key: k, severity, mitreAttack, threat })),
    }),
  );
}

function snapshot(finding: OpenFinding, versionMs: number): FindingVersion {
  const aggregationKey = aggregationKeyOf(finding);
  return {
    uid: finding.uid,
    revision: finding.revision,
    recordId: `${finding.uid}:${finding.revision}`,
    workspaceId: finding.workspaceId,
    endpoint: { ...finding.endpoint },
    detection: finding.detection,
    key: finding.key,
    aggregationKey,
    keyHash: aggregationKeyHash(aggregationKey),
    count: finding.count,
    firstEventMs: finding.firstEventMs,
    lastEventMs: finding.lastEventMs,
    createdMs: finding.createdMs ?? versionMs,
    versionMs,
    desc: finding.desc,
    wisdom: finding.wisdom,
    evidence: [...finding.evidence],
    batchIds: [...finding.batchIds],
  };
}
