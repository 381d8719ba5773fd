// Types of the public API, from the OpenAPI document (see openapi.d.ts), and of the console's own endpoints.
import type { components } from './openapi';

type Schemas = components['schemas'];
export type Finding = Schemas['finding'];
export type FindingEvidence = Schemas['findingEvidence'];
export type FindingObservable = Schemas['findingObservable'];
export type AccountStatus = Schemas['accountStatus'];
export type CustomerRules = Schemas['customerRules'];
export type DetectionsBadRequest = Schemas['detectionsBadRequest'];
export type DetectionsUpload = Schemas['detectionsUpload'];
export type ThreatsInventory = Schemas['threatsInventory'];
export type FlagsInventory = Schemas['flagsInventory'];
export type Alert = Schemas['alert'];

export type Role = 'operator' | 'analyst';

export interface SessionInfo {
  role: Role;
  csrfToken: string;
  expiresAt: string;
  /** Analysts: the workspace of the key they signed in with. */
  workspaceId?: string;
}

export interface KeyRow {
  prefix: string;
  keyHash: string;
  workspaceId: string;
  workspaceName: string;
  status: 'active' | 'inactive' | 'revoked';
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

export interface CreatedKey extends KeyRow {
  key: string;
}

export interface WorkspaceStatus {
  workspaceId: string;
  workspaceName: string;
  keys: number;
  status: AccountStatus;
}

export interface FindingsPage {
  records: Finding[];
  follow: string;
  more: boolean;
  /** Stored findings read to fill this page (before the filters). */
  scanned: number;
  /** The key is not activated: findings are withheld, as by the API. */
  withheld?: boolean;
}

export interface Overview {
  total: number;
  bySeverity: Record<string, number>;
  byDetection: Record<string, number>;
  byHour: { hour: string; count: number }[];
  topHosts: { host: string; count: number }[];
  ingestPerHour: { hour: string; events: number }[];
  truncated: boolean;
}
