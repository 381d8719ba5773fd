import type { OcsfDetectionFinding, Severity } from '@vigil/contracts';
import type { FindingVersion } from '../aggregation/finding-aggregator';
import { ATTACK_TACTICS, ATTACK_TECHNIQUES, ATTACK_VERSION, parseAttackPair } from '../mitre';
import { buildEvidence, type OcsfEvidence } from './evidence';
import { isoSeconds } from './iso-seconds';

export const OCSF_VERSION = '1.2.0';
/** `datetime` allows the `*_dt` siblings; `host` allows `device` (OCSF profile gating). */
export const OCSF_PROFILES = ['datetime', 'host'] as const;

const SEVERITY_NAMES: Record<Severity, string> = {
  1: 'Informational',
  2: 'Low',
  3: 'Medium',
  4: 'High',
  5: 'Critical',
};

const OBSERVABLE_HOSTNAME = { type_id: 1, type: 'Hostname' } as const;
const OBSERVABLE_IP = { type_id: 2, type: 'IP Address' } as const;

export interface FindingBuildOptions {
  /** When Vigil produced this version (epoch ms), for `metadata.processed_time`. */
  processedMs: number;
}

interface OcsfObservable {
  name: string;
  type_id: number;
  type: string;
  value: string;
}

/**
 * OCSF timestamps here are epoch SECONDS (integers), not OCSF's usual milliseconds: that is what the
 * existing findings clients read. Each has an ISO 8601 `_dt` sibling (declared by the datetime profile).
 */
function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

function attacks(mitreAttack: string[]): Record<string, unknown>[] {
  return mitreAttack.map((pair) => {
    const { tacticUid, techniqueUid } = parseAttackPair(pair);
    const tactic: Record<string, string> = { uid: tacticUid };
    const technique: Record<string, string> = { uid: techniqueUid };
    if (ATTACK_TACTICS[tacticUid] !== undefined) tactic.name = ATTACK_TACTICS[tacticUid];
    if (ATTACK_TECHNIQUES[techniqueUid] !== undefined) technique.name = ATTACK_TECHNIQUES[techniqueUid];
    return { tactic, technique, version: ATTACK_VERSION };
  });
}

function observables(version: FindingVersion, evidences: OcsfEvidence[]): OcsfObservable[] {
  const out: OcsfObservable[] = [];
  if (version.endpoint.ip !== '') out.push({ name: 'device.ip', ...OBSERVABLE_IP, value: version.endpoint.ip });
  if (version.endpoint.host !== undefined) out.push({ name: 'device.hostname', ...OBSERVABLE_HOSTNAME, value: version.endpoint.host });
  evidences.forEach((evidence, i) => {
    if (evidence.query !== undefined) {
      out.push({ name: `evidences[${i}].query.hostname`, ...OBSERVABLE_HOSTNAME, value: evidence.query.hostname });
    } else if (evidence.dst_endpoint?.hostname !== undefined) {
      out.push({ name: `evidences[${i}].dst_endpoint.hostname`, ...OBSERVABLE_HOSTNAME, value: evidence.dst_endpoint.hostname });
    }
  });
  return out;
}

function device(version: FindingVersion): Record<string, unknown> | undefined {
  const { ip, host, mac } = version.endpoint;
  if (ip === '' && host === undefined) return undefined;
  const out: Record<string, unknown> = { type_id: 0, type: 'Unknown' };
  if (ip !== '') out.ip = ip;
  if (host !== undefined) out.hostname = host;
  if (mac !== undefined) out.mac = mac;
  return out;
}

/** Renders one version of a finding as an OCSF 1.2.0 Detection Finding (class 2004). */
export function buildDetectionFinding(version: FindingVersion, options: FindingBuildOptions): OcsfDetectionFinding {
  const { detection } = version;
  const isCreate = version.revision === 1;
  const activityId = isCreate ? 1 : 2;
  const activityName = isCreate ? 'Create' : 'Update';
  const evidences = version.evidence.map(buildEvidence);
  const latestType = version.evidence.length > 0 ? version.evidence[version.evidence.length - 1].event.type : undefined;

  const findingInfo: OcsfDetectionFinding['finding_info'] = {
    uid: version.uid,
    title: detection.title,
    desc: version.desc,
    types: [detection.findingType],
    created_time: epochSeconds(version.createdMs),
    created_time_dt: isoSeconds(version.createdMs),
    first_seen_time: epochSeconds(version.firstEventMs),
    first_seen_time_dt: isoSeconds(version.firstEventMs),
    last_seen_time: epochSeconds(version.lastEventMs),
    last_seen_time_dt: isoSeconds(version.lastEventMs),
    attacks: attacks(detection.mitreAttack),
    analytic: { type_id: detection.analytic.id, type: detection.analytic.name, uid: detection.id, name: detection.title },
  };
  if (!isCreate) {
    findingInfo.modified_time = epochSeconds(version.versionMs);
    findingInfo.modified_time_dt = isoSeconds(version.versionMs);
  }

  const metadata: Record<string, unknown> = {
    version: OCSF_VERSION,
    uid: version.recordId,
    product: { name: 'Vigil', vendor_name: 'Vigil' },
    profiles: [...OCSF_PROFILES],
    processed_time: epochSeconds(options.processedMs),
    processed_time_dt: isoSeconds(options.processedMs),
  };
  if (latestType !== undefined) metadata.log_name = latestType;

  const finding: OcsfDetectionFinding = {
    activity_id: activityId,
    activity_name: activityName,
    category_uid: 2,
    category_name: 'Findings',
    class_uid: 2004,
    // The spelling existing collectors match on (see clients.md), not the OCSF caption "Detection Finding".
    class_name: 'DetectionFinding',
    type_uid: 200400 + activityId,
    type_name: `DetectionFinding: ${activityName}`,
    severity_id: detection.severity,
    severity: SEVERITY_NAMES[detection.severity],
    status_id: 1,
    status: 'New',
    count: version.count,
    message: version.desc,
    time: epochSeconds(version.versionMs),
    time_dt: isoSeconds(version.versionMs),
    start_time: epochSeconds(version.firstEventMs),
    start_time_dt: isoSeconds(version.firstEventMs),
    end_time: epochSeconds(version.lastEventMs),
    end_time_dt: isoSeconds(version.lastEventMs),
    metadata,
    finding_info: findingInfo,
    observables: observables(version, evidences),
    enrichments: [
      {
        name: 'aggregation',
        type: 'vigil.aggregation',
        value: version.keyHash,
        data: {
          aggregation: { key: version.aggregationKey, keyHash: version.keyHash, batchIDs: [...version.batchIds] },
        },
      },
    ],
    evidences,
  };
  const dev = device(version);
  if (dev !== undefined) finding.device = dev;
  return finding;
}
