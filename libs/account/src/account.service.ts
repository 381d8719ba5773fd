import { randomUUID } from 'node:crypto';
import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { apiKeyPrefix, generateApiKey, hashApiKey } from '@vigil/auth';
import { BUS, type Bus } from '@vigil/bus';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { TOPICS, type ApiKeyRecord, type ApiKeyStatus, type WorkspaceRecord } from '@vigil/contracts';
import { Readiness } from '@vigil/platform';
import { STORE_FACTORY, type StoreFactory } from '@vigil/store';
import { AccountRepository } from './account.repository';
import { ACCOUNT_MIGRATIONS } from './migrations';

export interface CreateKeyOptions {
  workspace?: string;
  inactive?: boolean;
  expiresInSeconds?: number;
  /** Use this key instead of a random one (bootstrap key). */
  key?: string;
}

export interface KeyListing extends ApiKeyRecord {
  workspaceName: string;
}

/** Raised for an operator mistake (unknown or ambiguous key prefix); the admin API maps it to 404/400. */
export class KeyNotFoundError extends Error {}

/**
 * The account service: owns workspaces and API keys (hashed), stores them in its own tables and announces
 * every change on the compacted control topics, from which every other service builds its key cache.
 */
@Injectable()
export class AccountService implements OnApplicationBootstrap {
  private repository!: AccountRepository;

  constructor(
    @Inject(STORE_FACTORY) private readonly stores: StoreFactory,
    @Inject(BUS) private readonly bus: Bus,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    private readonly readiness: Readiness,
  ) {
    readiness.expect('account');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.repository = new AccountRepository(await this.stores.open('account', ACCOUNT_MIGRATIONS));
    await this.republishAll();
    if (this.config.bootstrapKey) await this.ensureKey(this.config.bootstrapKey);
    this.readiness.ready('account');
  }

  async createKey(options: CreateKeyOptions = {}): Promise<{ key: string; record: ApiKeyRecord; workspace: WorkspaceRecord }> {
    const workspace = await this.workspaceNamed(options.workspace ?? 'default');
    const key = options.key ?? generateApiKey();
    const now = new Date();
    const record: ApiKeyRecord = {
      keyHash: hashApiKey(key),
      prefix: apiKeyPrefix(key),
      workspaceId: workspace.workspaceId,
      status: options.inactive ? 'inactive' : 'active',
      createdAt: now.toISOString(),
      expiresAt: options.expiresInSeconds ? new Date(now.getTime() + options.expiresInSeconds * 1000).toISOString() : null,
      version: now.getTime(),
    };
    await this.saveKey(record);
    return { key, record, workspace };
  }

  async listKeys(): Promise<KeyListing[]> {
    const names = new Map((await this.repository.workspaces()).map((w) => [w.workspaceId, w.name]));
    return (await this.repository.keys()).map((record) => ({ ...record, workspaceName: names.get(record.workspaceId) ?? '' }));
  }

  /** Activates or revokes the key whose prefix (as listed) or full hash is given. */
  async setStatus(prefixOrHash: string, status: ApiKeyStatus): Promise<ApiKeyRecord> {
    const matches = (await this.repository.keys()).filter((k) => k.prefix === prefixOrHash || k.keyHash === prefixOrHash);
    if (matches.length !== 1) {
      throw new KeyNotFoundError(matches.length === 0 ? `No key matches "${prefixOrHash}"` : `"${prefixOrHash}" matches several keys; use the hash`);
    }
    const record: ApiKeyRecord = { ...matches[0], status, version: Math.max(Date.now(), matches[0].version + 1) };
    await this.saveKey(record);
    return record;
  }

  /** Sets (or, with null, removes) the expiry of the key whose prefix or full hash is given. */
  async setExpiry(prefixOrHash: string, expiresAt: string | null): Promise<ApiKeyRecord> {
    const [match] = await this.matchingKey(prefixOrHash);
    const record: ApiKeyRecord = { ...match, expiresAt, version: Math.max(Date.now(), match.version + 1) };
    await this.saveKey(record);
    return record;
  }

  private async matchingKey(prefixOrHash: string): Promise<[ApiKeyRecord]> {
    const matches = (await this.repository.keys()).filter((k) => k.prefix === prefixOrHash || k.keyHash === prefixOrHash);
    if (matches.length !== 1) {
      throw new KeyNotFoundError(matches.length === 0 ? `No key matches "${prefixOrHash}"` : `"${prefixOrHash}" matches several keys; use the hash`);
    }
    return [matches[0]];
  }

  /** Creates `key` as an active key of the default workspace unless it exists already. */
  async ensureKey(key: string): Promise<void> {
    const hash = hashApiKey(key);
    const existing = (await this.repository.keys()).find((k) => k.keyHash === hash);
    if (!existing) await this.createKey({ key });
  }

  private async workspaceNamed(name: string): Promise<WorkspaceRecord> {
    const existing = (await this.repository.workspaces()).find((w) => w.name === name);
    if (existing) return existing;
    const workspace: WorkspaceRecord = { workspaceId: randomUUID(), name, createdAt: new Date().toISOString() };
    await this.repository.saveWorkspace(workspace);
    await this.bus.publish(TOPICS.workspaces.name, [{ key: workspace.workspaceId, value: Buffer.from(JSON.stringify(workspace)) }]);
    return workspace;
  }

  private async saveKey(record: ApiKeyRecord): Promise<void> {
    await this.repository.saveKey(record);
    await this.bus.publish(TOPICS.apiKeys.name, [{ key: record.keyHash, value: Buffer.from(JSON.stringify(record)) }]);
  }

  /** The tables are the system of record; re-announcing them heals a control topic that was lost or trimmed. */
  private async republishAll(): Promise<void> {
    const keys = await this.repository.keys();
    const workspaces = await this.repository.workspaces();
    await this.bus.publish(TOPICS.workspaces.name, workspaces.map((w) => ({ key: w.workspaceId, value: Buffer.from(JSON.stringify(w)) })));
    await this.bus.publish(TOPICS.apiKeys.name, keys.map((k) => ({ key: k.keyHash, value: Buffer.from(JSON.stringify(k)) })));
  }
}
