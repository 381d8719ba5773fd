import { Inject, Injectable, NotFoundException, ServiceUnavailableException } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AccountService, AccountStatusService, KeyNotFoundError, type AccountStatus, type KeyListing } from '@vigil/account';
import type { Principal } from '@vigil/auth';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import type { ApiKeyRecord } from '@vigil/contracts';
import { DISTINCT_COUNTER, type DistinctCounter } from '@vigil/counters';
import { operatorTokenOf } from './operator-token';
import { callService, unexpectedAnswer } from './service-http';

export interface NewKey {
  workspace: string;
  inactive: boolean;
  expiresInSeconds?: number;
}

/**
 * The account service as the console's operator pages use it: the AccountService of this process when it runs
 * here (all-in-one), else the account service's operator API at VIGIL_ACCOUNT_URL with its operator token.
 */
@Injectable()
export class ConsoleAccounts {
  private readonly statuses: AccountStatusService;

  constructor(
    private readonly modules: ModuleRef,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
    @Inject(DISTINCT_COUNTER) endpoints: DistinctCounter,
  ) {
    // Status needs only the shared "endpoints seen" counter (Redis in a split deployment), so it is built here.
    this.statuses = new AccountStatusService(endpoints);
  }

  async listKeys(): Promise<KeyListing[]> {
    const local = this.local();
    if (local) return local.listKeys();
    const answer = await this.remote('GET', '/admin/v1/keys');
    if (answer.status !== 200 || !Array.isArray(answer.body)) throw unexpectedAnswer('account', answer);
    return answer.body as KeyListing[];
  }

  async createKey(options: NewKey): Promise<{ key: string; record: ApiKeyRecord; workspaceName: string }> {
    const local = this.local();
    if (local) {
      const { key, record, workspace } = await local.createKey(options);
      return { key, record, workspaceName: workspace.name };
    }
    const answer = await this.remote('POST', '/admin/v1/keys', options);
    if (answer.status !== 201 && answer.status !== 200) throw unexpectedAnswer('account', answer);
    const { key, workspaceName, ...record } = answer.body as ApiKeyRecord & { key: string; workspaceName: string };
    return { key, record, workspaceName };
  }

  /** Activates or revokes a key by its hash (or prefix); 404 when there is no such key. */
  async setStatus(hash: string, status: 'active' | 'revoked'): Promise<ApiKeyRecord> {
    const local = this.local();
    if (local) return withKnownKey(hash, () => local.setStatus(hash, status));
    const answer = await this.remote('POST', `/admin/v1/keys/${encodeURIComponent(hash)}/${status === 'active' ? 'activate' : 'revoke'}`);
    if (answer.status === 404) throw new NotFoundException({ message: `No key ${hash}` });
    if (answer.status !== 200 && answer.status !== 201) throw unexpectedAnswer('account', answer);
    return answer.body as ApiKeyRecord;
  }

  async setExpiry(hash: string, expiresAt: string | null): Promise<ApiKeyRecord> {
    const local = this.local();
    if (local) return withKnownKey(hash, () => local.setExpiry(hash, expiresAt));
    const answer = await this.remote('PATCH', `/admin/v1/keys/${encodeURIComponent(hash)}`, { expiresAt });
    if (answer.status === 404) throw new NotFoundException({ message: `No key ${hash}` });
    if (answer.status !== 200) throw unexpectedAnswer('account', answer);
    return answer.body as ApiKeyRecord;
  }

  statusOf(principal: Principal, now: Date): Promise<AccountStatus> {
    return this.statuses.statusOf(principal, now);
  }

  private local(): AccountService | undefined {
    try {
      return this.modules.get(AccountService, { strict: false });
    } catch {
      return undefined;
    }
  }

  private remote(method: string, path: string, body?: unknown) {
    const baseUrl = this.config.remoteServices?.accountUrl;
    if (!baseUrl) {
      throw new ServiceUnavailableException({ message: 'This needs the account service: it does not run in this process and VIGIL_ACCOUNT_URL is not set' });
    }
    const token = operatorTokenOf(this.config);
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return callService('account', baseUrl, method, path, { headers, body: body === undefined ? undefined : JSON.stringify(body) });
  }
}

async function withKnownKey<T>(hash: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof KeyNotFoundError) throw new NotFoundException({ message: `No key ${hash}` });
    throw error;
  }
}
