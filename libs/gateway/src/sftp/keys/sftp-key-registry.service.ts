import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type Subscription } from '@vigil/bus';
import { TOPICS } from '@vigil/contracts';
import { WorkspaceDirectoryService } from '@vigil/escalations';
import { Readiness } from '@vigil/platform';
import { InvalidSftpKeyError, parseSftpPublicKey } from './public-key';
import { decodeSftpKeyRecord, SftpKeyDirectory, sftpKeyRecord, type SftpKey, type SftpKeyControlRecord } from './sftp-key';

export const MAX_SFTP_KEYS_PER_WORKSPACE = 100;

export class SftpKeyNotFoundError extends Error {
  override readonly name = 'SftpKeyNotFoundError';
}

export interface SftpKeyInput {
  workspace: string;
  publicKey: string;
  name?: string;
}

/**
 * The SFTP public keys per workspace, kept on the compacted `ctl.sftp-keys.v1` (the durable store, as for API keys)
 * and followed by every gateway into an in-memory view, so a key added through any replica lets its sensor in
 * everywhere within moments, and survives restarts.
 */
@Injectable()
export class SftpKeyRegistry implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SftpKeyRegistry.name);
  private readonly directory = new SftpKeyDirectory();
  private subscription?: Subscription;
  private lastVersion = 0;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly workspaces: WorkspaceDirectoryService,
    private readonly readiness: Readiness,
  ) {
    readiness.expect('sftp-keys');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.subscribe({ topic: TOPICS.sftpKeys.name }, async (batch) => this.follow(batch));
    await this.subscription.caughtUp;
    this.lastVersion = this.directory.maxVersion();
    this.readiness.ready('sftp-keys');
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  /** The keys that may sign in as this workspace (the SFTP user name is the workspace id). */
  keysOf(workspaceId: string): SftpKey[] {
    return this.directory.ofWorkspace(workspaceId);
  }

  /** Registered keys, of one workspace (id or name) when given. */
  list(workspace?: string): SftpKey[] {
    if (workspace === undefined) return this.directory.active();
    return this.directory.ofWorkspace(this.workspaces.resolve(workspace).workspaceId);
  }

  workspaceName(workspaceId: string): string | undefined {
    return this.workspaces.nameOf(workspaceId);
  }

  add(body: unknown): Promise<SftpKey> {
    const input = readInput(body);
    const workspace = this.workspaces.resolve(input.workspace);
    const parsed = parseSftpPublicKey(input.publicKey);
    return this.serialised(async () => {
      const siblings = this.directory.ofWorkspace(workspace.workspaceId);
      if (siblings.some((k) => k.publicKey === parsed.publicKey)) throw new InvalidSftpKeyError(`workspace ${workspace.name} already has this key (${parsed.fingerprint})`);
      if (siblings.length >= MAX_SFTP_KEYS_PER_WORKSPACE) throw new InvalidSftpKeyError(`workspace ${workspace.name} already has ${MAX_SFTP_KEYS_PER_WORKSPACE} SFTP keys (the limit)`);
      const id = randomUUID();
      const name = input.name ?? (parsed.comment || `key-${id.slice(0, 8)}`);
      const key: SftpKey = { id, workspaceId: workspace.workspaceId, name, ...parsed, createdAt: new Date().toISOString() };
      await this.write({ v: 1, id, workspaceId: key.workspaceId, version: this.nextVersion(), removed: false, key });
      this.logger.log(`SFTP key "${name}" (${parsed.fingerprint}) added for workspace ${workspace.name}`);
      return key;
    });
  }

  remove(id: string): Promise<SftpKey> {
    return this.serialised(async () => {
      const key = this.directory.get(id);
      if (!key) throw new SftpKeyNotFoundError(`no SFTP key has the id ${JSON.stringify(id)}`);
      await this.write({ v: 1, id, workspaceId: key.workspaceId, version: this.nextVersion(), removed: true });
      this.logger.log(`SFTP key "${key.name}" (${key.fingerprint}) removed`);
      return key;
    });
  }

  private async write(record: SftpKeyControlRecord): Promise<void> {
    await this.bus.publish(TOPICS.sftpKeys.name, [sftpKeyRecord(record)]);
    this.directory.apply(record);
  }

  private follow(batch: BusBatch): void {
    for (const record of batch.records) {
      try {
        this.directory.apply(decodeSftpKeyRecord(record.value));
      } catch (error) {
        this.logger.warn(`skipping an unreadable record on ${TOPICS.sftpKeys.name} at offset ${record.offset}: ${(error as Error).message}`);
      }
    }
  }

  private nextVersion(): number {
    this.lastVersion = Math.max(Date.now(), this.lastVersion + 1, this.directory.maxVersion() + 1);
    return this.lastVersion;
  }

  private serialised<T>(task: () => Promise<T>): Promise<T> {
    const run = this.writes.then(task, task);
    this.writes = run.catch(() => undefined);
    return run;
  }
}

function readInput(body: unknown): SftpKeyInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new InvalidSftpKeyError('the body must be a JSON object {workspace, publicKey, name?}');
  const { workspace, publicKey, name, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) throw new InvalidSftpKeyError(`unknown field(s): ${unknown.join(', ')}`);
  if (typeof workspace !== 'string' || workspace.trim() === '') throw new InvalidSftpKeyError('workspace (a workspace name or id) is required');
  if (typeof publicKey !== 'string') throw new InvalidSftpKeyError('publicKey (an OpenSSH public key line) is required');
  if (name !== undefined && (typeof name !== 'string' || !/^[\x20-\x7e]{1,100}$/.test(name))) throw new InvalidSftpKeyError('name must be 1 to 100 printable ASCII characters');
  return { workspace: workspace.trim(), publicKey, name: name as string | undefined };
}
