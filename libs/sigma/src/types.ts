import type { TelemetryType } from '@vigil/contracts';

/** The three kinds of Sigma v2 documents. */
export type SigmaDocumentKind = 'rule' | 'correlation' | 'filter';

/** One YAML document of a file, parsed and valid against the official JSON Schema of its kind. */
export interface SigmaDocument {
  kind: SigmaDocumentKind;
  fileName: string;
  /** 0-based position of the document in its file (rule collections hold several). */
  index: number;
  data: Record<string, unknown>;
}

/** Why a file or document was rejected; `error` is the precise, human-readable reason. */
export interface SigmaError {
  fileName: string;
  /** 0-based document position when the error belongs to one document of the file. */
  document?: number;
  error: string;
}

export interface SigmaLogsource {
  category?: string;
  product?: string;
  service?: string;
}

/** An ATT&CK reference derived from a rule's `attack.*` tags. */
export interface AttackRef {
  tactic?: { uid: string; name: string };
  technique?: { uid: string };
  subTechnique?: { uid: string };
}

/** Results of the built-in analytics a rule may test (`wisdom.flags.<flag>`, `registered_domain`, intel labels). */
export interface SigmaEnrichment {
  flags?: readonly string[];
  /** `<category>:<name>` labels, e.g. threat-intel hits. */
  labels?: readonly string[];
  /** Registered domain of the event's host name. */
  domain?: string;
}

/** Severity 1 (informational) … 5 (critical), from the Sigma `level`. */
export type SigmaSeverity = 1 | 2 | 3 | 4 | 5;

/** Metadata every compiled document shares. */
export interface SigmaMeta {
  /** The document `id`; for documents without one, `name`; else a stable digest of the document (see README). */
  id: string;
  name?: string;
  title: string;
  description?: string;
  level?: string;
  severity: SigmaSeverity;
  status?: string;
  author?: string;
  date?: string;
  modified?: string;
  references: string[];
  falsepositives: string[];
  tags: string[];
  attacks: AttackRef[];
  /** `TA0000:T0000[.000]` pairs (tactic × technique of the tags), the form Vigil's detections use. */
  mitreAttack: string[];
}

/** A detection rule compiled to closures; evaluate through a RuleSet (or `matches` for one rule). */
export interface CompiledRule extends SigmaMeta {
  kind: 'rule';
  logsource: SigmaLogsource;
  /** Vigil event types the logsource routes to. */
  eventTypes: TelemetryType[];
  /** Non-fatal findings of compilation, e.g. a field no Vigil event carries (it never matches). */
  warnings: string[];
  /** Evaluates this rule alone on one event. */
  matches(type: TelemetryType, event: object, enrichment?: SigmaEnrichment): boolean;
}

export type SigmaResult<T> = { ok: true; value: T } | { ok: false; error: string };
