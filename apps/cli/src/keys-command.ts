import * as fs from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { AccountCoreModule, AccountService, adminTokenFile, parseDurationSeconds, type KeyListing } from '@vigil/account';
import type { VigilConfig } from '@vigil/config';
import { PlatformModule } from '@vigil/platform';
import { callAdmin, ServerUnreachableError } from './admin-client';

export interface KeysInvocation {
  action: 'create' | 'list' | 'activate' | 'revoke';
  prefix?: string;
  workspace?: string;
  inactive?: boolean;
  expires?: string;
}

export class UsageError extends Error {}

type Operation = (accounts: AccountService) => Promise<unknown>;

/** Runs a key command against the running server if there is one, else directly on the data directory. */
export async function runKeysCommand(config: VigilConfig, invocation: KeysInvocation): Promise<string> {
  const expiresInSeconds = invocation.expires === undefined ? undefined : parseDurationSeconds(invocation.expires);
  if (invocation.expires !== undefined && expiresInSeconds === undefined) {
    throw new UsageError(`--expires takes a duration such as 30d, 12h or 90m; got "${invocation.expires}"`);
  }
  if ((invocation.action === 'activate' || invocation.action === 'revoke') && !invocation.prefix) {
    throw new UsageError(`keys ${invocation.action} needs the key's prefix as listed by "keys list"`);
  }
  const createBody = { workspace: invocation.workspace, inactive: invocation.inactive || undefined, expiresInSeconds };
  const remote = await tryRemote(config, invocation, createBody);
  const result = remote ?? (await runOffline(config, offlineOperation(invocation, createBody)));
  return format(invocation.action, result);
}

async function tryRemote(config: VigilConfig, invocation: KeysInvocation, createBody: object): Promise<unknown> {
  const tokenFile = adminTokenFile(config.dataDir);
  if (!fs.existsSync(tokenFile)) return undefined;
  const token = fs.readFileSync(tokenFile, 'utf8').trim();
  const path = invocation.action === 'list' || invocation.action === 'create' ? '/admin/v1/keys' : `/admin/v1/keys/${encodeURIComponent(invocation.prefix!)}/${invocation.action}`;
  try {
    const response = await callAdmin(config, token, invocation.action === 'list' ? 'GET' : 'POST', path, invocation.action === 'create' ? createBody : undefined);
    if (response.status >= 400) throw new UsageError((response.body as { message?: string })?.message ?? `server answered ${response.status}`);
    return response.body;
  } catch (error) {
    if (error instanceof ServerUnreachableError) return undefined;
    throw error;
  }
}

function offlineOperation(invocation: KeysInvocation, createBody: { workspace?: string; inactive?: boolean; expiresInSeconds?: number }): Operation {
  switch (invocation.action) {
    case 'create':
      return async (accounts) => {
        const { key, record, workspace } = await accounts.createKey(createBody);
        return { key, ...record, workspaceName: workspace.name };
      };
    case 'list':
      return (accounts) => accounts.listKeys();
    case 'activate':
      return (accounts) => accounts.setStatus(invocation.prefix!, 'active');
    case 'revoke':
      return (accounts) => accounts.setStatus(invocation.prefix!, 'revoked');
  }
}

async function runOffline(config: VigilConfig, operation: Operation): Promise<unknown> {
  const app = await NestFactory.createApplicationContext(
    { module: class KeysCommandModule {}, imports: [PlatformModule.forRoot({ ...config, bootstrapKey: undefined }, { http: false }), AccountCoreModule] },
    { logger: ['error'] },
  );
  try {
    return await operation(app.get(AccountService));
  } catch (error) {
    if (error instanceof Error && error.name === 'KeyNotFoundError') throw new UsageError(error.message);
    throw error;
  } finally {
    await app.close();
  }
}

function format(action: KeysInvocation['action'], result: unknown): string {
  if (action === 'list') {
    const keys = result as KeyListing[];
    if (keys.length === 0) return 'no keys';
    const rows = keys.map((k) => [k.prefix + '…', k.status, k.workspaceName, k.workspaceId, k.expiresAt ?? 'never', k.createdAt].join('\t'));
    return ['PREFIX\tSTATUS\tWORKSPACE\tWORKSPACE_ID\tEXPIRES\tCREATED', ...rows].join('\n');
  }
  const record = result as KeyListing & { key?: string };
  if (action === 'create') {
    return [
      `API key (shown once, store it now): ${record.key}`,
      `prefix: ${record.prefix}  status: ${record.status}  workspace: ${record.workspaceName} (${record.workspaceId})  expires: ${record.expiresAt ?? 'never'}`,
    ].join('\n');
  }
  return `key ${record.prefix} is now ${record.status}`;
}
