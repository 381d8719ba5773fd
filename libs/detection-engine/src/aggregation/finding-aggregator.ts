import type { KeyedState } from '../state/state-budget';
import type { DetectionRef, Wisdom } from '@vigil/contracts';
import { canonicalJson, sha256Hex } from '../canonical-json';
import type { DetectionDefinition, DetectionHit, Endpoint, EvidenceEvent } from '../detections/detection';
import { readEvidence, readWisdom, writeEvidence, type SnapshotEventReader, type SnapshotEventWriter } from '../state/event-table';
import { LruMap } from '../state/lru-map';
import { endpointId } from '../observed-event';
import { fail, readArray, readCount, readNumber, readObject, readOptionalString, readString, readStrings, writeNumber } from '../state/snapshot';
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

  /** The keyed state, for the process-wide memory budget. */
  keyedState(): readonly KeyedState[] {
    return [this.open];
  }

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

  /**
   * The open findings, least recently used first (`f`, {@link FINDING_FIELDS} values each), and the definitions
   * of their detections (`d`), so that findings of detections the restoring engine does not know (customer
   * rules not yet loaded) keep theirs. Call between batches (after {@link flush}).
   */
  snapshot(events: SnapshotEventWriter): unknown {
    const definitions: Record<string, DetectionDefinition> = {};
    const flat: unknown[] = [];
    for (const f of this.open.values()) {
      definitions[f.detection.id] = f.detection;
      const { ip, host, mac, id } = f.endpoint;
      flat.push(
        f.uid, f.revision, events.string(f.workspaceId), ip, host ?? null, mac ?? null, id === endpointId(ip, host) ? null : id,
        f.detection.id, f.key, writeNumber(f.count), writeNumber(f.firstEventMs), writeNumber(f.lastEventMs),
        f.createdMs === undefined ? null : writeNumber(f.createdMs), f.desc, f.wisdom, f.observations,
        writeEvidence(events, f.evidence), f.batchIds.map((b) => events.string(b)),
      );
    }
    return { d: definitions, f: flat };
  }

  /**
   * Replaces the open findings with a {@link snapshot} (undefined: none). `definitionOf` gives the live
   * definition of a detection id; the snapshot's copy serves when it gives none.
   */
  restore(state: unknown, events: SnapshotEventReader, definitionOf: (id: string) => DetectionDefinition | undefined): void {
    const decoded: [string, OpenFinding][] = [];
    if (state !== undefined) {
      const parts = readObject(state, 'findings');
      const stored = readObject(parts.d, 'findings.d');
      const flat = readArray(parts.f, 'findings.f');
      if (flat.length % FINDING_FIELDS !== 0) fail('findings.f', `a flat list of ${FINDING_FIELDS}-tuples`, `length ${flat.length}`);
      const from = Math.max(0, flat.length - FINDING_FIELDS * this.open.maxSize);
      for (let i = from; i < flat.length; i += FINDING_FIELDS) {
        const at = `findings.f[${i / FINDING_FIELDS}]`;
        const t = flat.slice(i, i + FINDING_FIELDS);
        const detectionId = readString(t[7], `${at}.detection`);
        const detection = definitionOf(detectionId) ?? readDefinition(stored[detectionId], `findings.d.${detectionId}`);
        const ip = readString(t[3], `${at}.ip`);
        const host = readOptionalString(t[4], `${at}.host`);
        const mac = readOptionalString(t[5], `${at}.mac`);
        const finding: OpenFinding = {
          uid: readString(t[0], `${at}.uid`),
          revision: readCount(t[1], `${at}.revision`),
          workspaceId: events.string(t[2], `${at}.workspace`),
          endpoint: { ip, ...(host !== undefined ? { host } : {}), ...(mac !== undefined ? { mac } : {}), id: readOptionalString(t[6], `${at}.id`) ?? endpointId(ip, host) },
          detection,
          key: readString(t[8], `${at}.key`),
          count: readNumber(t[9], `${at}.count`),
          firstEventMs: readNumber(t[10], `${at}.firstEventMs`),
          lastEventMs: readNumber(t[11], `${at}.lastEventMs`),
          createdMs: t[12] === null ? undefined : readNumber(t[12], `${at}.createdMs`),
          desc: readString(t[13], `${at}.desc`),
          wisdom: readWisdom(t[14], `${at}.wisdom`),
          observations: readStrings(t[15], `${at}.observations`),
          evidence: readEvidence(events, t[16], `${at}.evidence`).slice(-MAX_FINDING_EVIDENCE),
          batchIds: readArray(t[17], `${at}.batchIds`).map((ref) => events.string(ref, `${at}.batchIds`)).slice(-MAX_FINDING_BATCH_IDS),
        };
        decoded.push([[finding.workspaceId, finding.endpoint.id, detection.id, finding.key].join('\u0000'), finding]);
      }
    }
    this.touched.clear();
    this.open.clear();
    for (const [key, finding] of decoded) this.open.set(key, finding);
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

/** Values per open finding in a snapshot. */
const FINDING_FIELDS = 18;

function readDefinition(value: unknown, what: string): DetectionDefinition {
  const d = readObject(value, what);
  const analytic = readObject(d.analytic, `${what}.analytic`);
  readString(d.id, `${what}.id`);
  readString(d.threat, `${what}.threat`);
  readString(d.title, `${what}.title`);
  readNumber(d.severity, `${what}.severity`);
  readStrings(d.flags, `${what}.flags`);
  readStrings(d.mitreAttack, `${what}.mitreAttack`);
  readNumber(analytic.id, `${what}.analytic.id`);
  readString(analytic.name, `${what}.analytic.name`);
  readString(d.findingType, `${what}.findingType`);
  readString(d.keyDescription, `${what}.keyDescription`);
  return d as unknown as DetectionDefinition;
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
