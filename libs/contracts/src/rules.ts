import { gunzipSync, gzipSync } from 'node:zlib';

/** The three kinds of Sigma documents a customer can upload. */
export type CustomerRuleKind = 'rule' | 'correlation' | 'filter';

/** One customer Sigma document of a workspace, as stored by the rules service and distributed to scoring. */
export interface CustomerRule {
  /** Identity: the Sigma `id`; else its `name`; else `sigma-<digest of the document>` (see libs/sigma README). */
  id: string;
  kind: CustomerRuleKind;
  /** The Sigma `name` (correlations and filters may refer to a rule by it). */
  name?: string;
  title: string;
  level: string;
  status: string;
  /** Path of the file inside the uploaded archive. */
  fileName: string;
  /** The YAML source of this one document. */
  source: string;
  /** ISO date-time of the upload that stored this version. */
  updatedAt: string;
}

/** Values of Sigma `expand` placeholders configured for a workspace: name (without `%`) → values. */
export type WorkspacePlaceholders = Record<string, string[]>;

/**
 * Value of a record on `ctl.rules.v1` (compacted, keyed by workspaceId): the workspace's whole current rule
 * set, so a consumer swaps a workspace's compiled rules atomically. Encoded with {@link encodeRuleSetRecord}.
 */
export interface WorkspaceRuleSet {
  v: 1;
  workspaceId: string;
  /** Monotonic: a consumer ignores a set older than the one it holds. */
  version: number;
  rules: CustomerRule[];
  /** The workspace's `expand` placeholders (absent: none), used when compiling its rules. */
  placeholders?: WorkspacePlaceholders;
}

/** 200 of POST /v1/detections. `ignored` lists archive entries that are not `.yml`/`.yaml` files (present when any). */
export interface DetectionsUploadResponse {
  accepted: number;
  ignored?: string[];
}

export interface DetectionValidationError {
  fileName: string;
  error: string;
}

/** 400 of POST /v1/detections (`detectionsBadRequest`). */
export interface DetectionsBadRequestBody {
  message: string;
  validationResult: { valid: number; invalid: number; errors: DetectionValidationError[] };
  ignored?: string[];
}

/** One entry of GET /v1/detections. */
export interface CustomerRuleSummary {
  id: string;
  kind: CustomerRuleKind;
  title: string;
  level: string;
  status: string;
  fileName: string;
  updatedAt: string;
  /** `quarantined`: the scoring engines could not load this version of the rule (see `reason`); it does not run. */
  state: CustomerRuleState;
  /** Why the rule is quarantined. */
  reason?: string;
}

export type CustomerRuleState = 'active' | 'quarantined';

/** A document of a workspace's rule set that the scoring engines could not load (compile error, budget, exception). */
export interface QuarantinedRule {
  id: string;
  /** The `updatedAt` of the stored version that was quarantined (a later upload of the rule is judged afresh). */
  updatedAt: string;
  reason: string;
}

/**
 * Value of a record on `ctl.rule-status.v1` (compacted, keyed by workspaceId): what the scoring engines made of
 * the workspace's rule set of `version`. JSON.
 */
export interface WorkspaceRuleStatus {
  v: 1;
  workspaceId: string;
  version: number;
  quarantined: QuarantinedRule[];
}

export function encodeRuleStatusRecord(status: WorkspaceRuleStatus): Buffer {
  return Buffer.from(JSON.stringify(status), 'utf8');
}

/** @throws Error when the value is not a WorkspaceRuleStatus of version 1. */
export function decodeRuleStatusRecord(value: Buffer): WorkspaceRuleStatus {
  const parsed = JSON.parse(value.toString('utf8')) as Partial<WorkspaceRuleStatus>;
  const entriesOk =
    Array.isArray(parsed?.quarantined) &&
    parsed.quarantined.every((q) => typeof q?.id === 'string' && typeof q.updatedAt === 'string' && typeof q.reason === 'string');
  if (parsed?.v !== 1 || typeof parsed.workspaceId !== 'string' || typeof parsed.version !== 'number' || !entriesOk) {
    throw new Error('not a version 1 workspace rule status');
  }
  return parsed as WorkspaceRuleStatus;
}

/** gzip'ed JSON: SigmaHQ-style YAML compresses about 5x, which keeps large workspaces far below record limits. */
export function encodeRuleSetRecord(set: WorkspaceRuleSet): Buffer {
  return gzipSync(Buffer.from(JSON.stringify(set), 'utf8'));
}

/** @throws Error when the value is not a gzip'ed WorkspaceRuleSet of version 1. */
export function decodeRuleSetRecord(value: Buffer): WorkspaceRuleSet {
  const parsed = JSON.parse(gunzipSync(value).toString('utf8')) as Partial<WorkspaceRuleSet>;
  if (parsed?.v !== 1 || typeof parsed.workspaceId !== 'string' || typeof parsed.version !== 'number' || !Array.isArray(parsed.rules)) {
    throw new Error('not a version 1 workspace rule set');
  }
  if (parsed.placeholders !== undefined && !isPlaceholderMap(parsed.placeholders)) {
    throw new Error('workspace rule set: placeholders must map names to lists of strings');
  }
  return parsed as WorkspaceRuleSet;
}

function isPlaceholderMap(value: unknown): value is WorkspacePlaceholders {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Object.values(value).every((list) => Array.isArray(list) && list.every((v) => typeof v === 'string'));
}
