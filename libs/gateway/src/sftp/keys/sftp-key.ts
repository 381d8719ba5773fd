import type { BusRecord } from '@vigil/bus';

/** A public key that may upload into a workspace's SFTP area. */
export interface SftpKey {
  id: string;
  workspaceId: string;
  name: string;
  algorithm: string;
  /** `<algorithm> <base64>` (authorized_keys form, no comment). */
  publicKey: string;
  fingerprint: string;
  comment: string;
  createdAt: string;
}

/**
 * Value of a record on the compacted `ctl.sftp-keys.v1`, keyed by key id: the key's latest state. A removal keeps
 * the id with `removed: true` and no key.
 */
export interface SftpKeyControlRecord {
  v: 1;
  id: string;
  workspaceId: string;
  /** Monotonic per key: a follower keeps the record with the highest version. */
  version: number;
  removed: boolean;
  key?: SftpKey;
}

export function sftpKeyRecord(entry: SftpKeyControlRecord): BusRecord {
  return { key: entry.id, value: Buffer.from(JSON.stringify(entry)) };
}

/** Throws on a value that is not a control record of this version. */
export function decodeSftpKeyRecord(value: Buffer): SftpKeyControlRecord {
  const parsed = JSON.parse(value.toString('utf8')) as Partial<SftpKeyControlRecord>;
  if (parsed?.v !== 1 || typeof parsed.id !== 'string' || typeof parsed.workspaceId !== 'string' || !Number.isSafeInteger(parsed.version)) {
    throw new TypeError('not an SFTP key control record (v1)');
  }
  if (parsed.removed !== true) {
    const key = parsed.key;
    if (typeof key !== 'object' || key === null || key.id !== parsed.id || key.workspaceId !== parsed.workspaceId || typeof key.publicKey !== 'string') {
      throw new TypeError(`control record ${parsed.id} has no usable key`);
    }
  }
  return parsed as SftpKeyControlRecord;
}

/** The registered keys as the control topic has them (latest version per id wins, removals included). */
export class SftpKeyDirectory {
  private readonly entries = new Map<string, SftpKeyControlRecord>();

  /** True when the record changed the view. */
  apply(record: SftpKeyControlRecord): boolean {
    const current = this.entries.get(record.id);
    if (current !== undefined && current.version >= record.version) return false;
    this.entries.set(record.id, record);
    return true;
  }

  active(): SftpKey[] {
    return [...this.entries.values()].flatMap((entry) => (entry.removed || !entry.key ? [] : [entry.key]));
  }

  get(id: string): SftpKey | undefined {
    const entry = this.entries.get(id);
    return entry && !entry.removed ? entry.key : undefined;
  }

  ofWorkspace(workspaceId: string): SftpKey[] {
    return this.active().filter((key) => key.workspaceId === workspaceId);
  }

  maxVersion(): number {
    let max = 0;
    for (const entry of this.entries.values()) max = Math.max(max, entry.version);
    return max;
  }
}
