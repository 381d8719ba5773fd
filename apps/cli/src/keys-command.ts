import * as fs from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { AccountCoreModule, AccountService, operatorTokenFile, parseDurationSeconds, type KeyListing } from '@vigil/account';
import type { VigilConfig } from '@vigil/config';
import { PlatformModule } from '@vigil/platform';
import { callAdmin, ServerUnreachableError } from './admin-client';

export interface KeysInvocation {
  action: 'create' | 'list' | 'activate' | 'revoke' | 'expire';
  prefix?: string;
  /** `keys expire`: a duration from now (30d), an RFC 3339 date-time, or `never`. */
  when?: string;
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
  if ((invocation.action === 'activate' || invocation.action === 'revoke' || invocation.action === 'expire') && !invocation.prefix) {
    throw new UsageError(`keys ${invocation.action} needs the key's prefix as listed by "keys list"`);
  }
  const expiresAt = invocation.action === 'expire' ? expiryFrom(invocation.when, new Date()) : undefined;
  const body = invocation.action === 'expire' ? { expiresAt } : { workspace: invocation.workspace, inactive: invocation.inactive || undefined, expiresInSeconds };
  const remote = await tryRemote(config, invocation, body);
  const result = remote ?? (await runOffline(config, offlineOperation(invocation, body as CreateBody, expiresAt ?? null)));
  return format(invocation.action, result);
}

/** The expiry `keys expire` asks for: null for `never`, else an RFC 3339 date-time (a duration counts from `now`). */
export function expiryFrom(when: string | undefined, now: Date): string | null {
  if (when === undefined) throw new UsageError('keys expire needs a duration such as 30d, an RFC 3339 date-time, or "never"');
  if (when === 'never') return null;
  const seconds = parseDurationSeconds(when);
  if (seconds !== undefined) return new Date(now.getTime() + seconds * 1000).toISOString();
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i.test(when) && !Number.isNaN(Date.parse(when))) return when;
  throw new UsageError(`keys expire takes a duration such as 30d, an RFC 3339 date-time or "never"; got "${when}"`);
}

type CreateBody = { workspace?: string; inactive?: boolean; expiresInSeconds?: number };

async function tryRemote(config: VigilConfig, invocation: KeysInvocation, body: object): Promise<unknown> {
  const tokenFile = operatorTokenFile(config);
  if (!fs.existsSync(tokenFile)) return undefined;
  const token = fs.readFileSync(tokenFile, 'utf8').trim();
  const path = requestPath(invocation);
  const method = invocation.action === 'list' ? 'GET' : invocation.action === 'expire' ? 'PATCH' : 'POST';
  try {
    const response = await callAdmin(config, token, method, path, invocation.action === 'create' || invocation.action === 'expire' ? body : undefined);
    if (response.status >= 400) throw new UsageError((response.body as { message?: string })?.message ?? `server answered ${response.status}`);
    return response.body;
  } catch (error) {
    if (error instanceof ServerUnreachableError) return undefined;
    throw error;
  }
}

function requestPath(invocation: KeysInvocation): string {
  if (invocation.action === 'list' || invocation.action === 'create') return '/admin/v1/keys';
  const key = `/admin/v1/keys/${encodeURIComponent(invocation.prefix!)}`;
  return invocation.action === 'expire' ? key : `${key}/${invocation.action}`;
}

function offlineOperation(invocation: KeysInvocation, createBody: CreateBody, expiresAt: string | null): Operation {
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
    case 'expire':
      return (accounts) => accounts.setExpiry(invocation.prefix!, expiresAt === null ? null : new Date(expiresAt).toISOString());
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
  if (action === 'expire') return `key ${record.prefix} ${record.expiresAt ? `expires at ${record.expiresAt}` : 'never expires'}`;
  return `key ${record.prefix} is now ${record.status}`;
}
