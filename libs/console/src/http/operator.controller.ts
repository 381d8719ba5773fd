import { BadRequestException, Body, Controller, Get, Param, Post, UseGuards } from '@nestjs/common';
import type { AccountStatus, KeyListing } from '@vigil/account';
import type { Principal } from '@vigil/auth';
import type { ApiKeyRecord } from '@vigil/contracts';
import { LastUsedTracker } from '../last-used-tracker';
import { ConsoleAccounts } from '../remote/console-accounts';
import { ConsoleGuard, ConsoleRoleRequired } from './console.guard';

export interface KeyRow {
  prefix: string;
  keyHash: string;
  workspaceId: string;
  workspaceName: string;
  status: ApiKeyRecord['status'];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

const WORKSPACE_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Operators: API keys and the account status of each workspace, through the account service (in process or over HTTP). */
@Controller('console/api')
@UseGuards(ConsoleGuard)
@ConsoleRoleRequired('operator')
export class ConsoleOperatorController {
  constructor(
    private readonly accounts: ConsoleAccounts,
    private readonly lastUsed: LastUsedTracker,
  ) {}

  @Get('keys')
  async keys(): Promise<{ keys: KeyRow[] }> {
    const keys = await this.accounts.listKeys();
    return { keys: keys.sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((k) => this.row(k)) };
  }

  @Post('keys')
  async create(@Body() body: Record<string, unknown>): Promise<KeyRow & { key: string }> {
    const workspace = body?.workspace ?? 'default';
    if (typeof workspace !== 'string' || !WORKSPACE_NAME.test(workspace)) {
      throw new BadRequestException({ message: 'workspace must be 1-64 letters, digits, ".", "_" or "-"' });
    }
    const days = body?.expiresInDays;
    if (days !== undefined && (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > 3650)) {
      throw new BadRequestException({ message: 'expiresInDays must be a whole number from 1 to 3650' });
    }
    const { key, record, workspaceName } = await this.accounts.createKey({
      workspace,
      inactive: body?.inactive === true,
      ...(days !== undefined ? { expiresInSeconds: days * 86400 } : {}),
    });
    return { key, ...this.row({ ...record, workspaceName }) };
  }

  @Post('keys/:hash/activate')
  activate(@Param('hash') hash: string): Promise<KeyRow> {
    return this.change(() => this.accounts.setStatus(hash, 'active'));
  }

  @Post('keys/:hash/revoke')
  revoke(@Param('hash') hash: string): Promise<KeyRow> {
    return this.change(() => this.accounts.setStatus(hash, 'revoked'));
  }

  @Post('keys/:hash/expiry')
  expiry(@Param('hash') hash: string, @Body() body: Record<string, unknown>): Promise<KeyRow> {
    const expiresAt = body?.expiresAt;
    if (expiresAt !== null && (typeof expiresAt !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/.test(expiresAt) || Number.isNaN(Date.parse(expiresAt)))) {
      throw new BadRequestException({ message: 'expiresAt must be an ISO 8601 UTC date-time (…Z) or null' });
    }
    return this.change(() => this.accounts.setExpiry(hash, expiresAt === null ? null : new Date(expiresAt).toISOString()));
  }

  /** Each workspace's account status as GET /v1/account/status would give it for its best key. */
  @Get('workspaces')
  async workspaces(): Promise<{ workspaces: { workspaceId: string; workspaceName: string; keys: number; status: AccountStatus }[] }> {
    const byWorkspace = new Map<string, KeyListing[]>();
    for (const key of await this.accounts.listKeys()) byWorkspace.set(key.workspaceId, [...(byWorkspace.get(key.workspaceId) ?? []), key]);
    const now = new Date();
    const rows = await Promise.all(
      [...byWorkspace.entries()].map(async ([workspaceId, keys]) => ({
        workspaceId,
        workspaceName: keys[0].workspaceName,
        keys: keys.length,
        status: await this.accounts.statusOf(workspacePrincipal(workspaceId, keys, now), now),
      })),
    );
    return { workspaces: rows.sort((a, b) => a.workspaceName.localeCompare(b.workspaceName)) };
  }

  private async change(action: () => Promise<ApiKeyRecord>): Promise<KeyRow> {
    const record = await action();
    const name = (await this.accounts.listKeys()).find((k) => k.keyHash === record.keyHash)?.workspaceName ?? '';
    return this.row({ ...record, workspaceName: name });
  }

  private row(key: KeyListing): KeyRow {
    return {
      prefix: key.prefix,
      keyHash: key.keyHash,
      workspaceId: key.workspaceId,
      workspaceName: key.workspaceName,
      status: key.status,
      createdAt: key.createdAt,
      expiresAt: key.expiresAt,
      lastUsedAt: this.lastUsed.lastUsed(key.keyHash),
    };
  }
}

/** The workspace as its best key sees it: registered when a key is active, expired when every usable key is. */
export function workspacePrincipal(workspaceId: string, keys: KeyListing[], now: Date): Principal {
  const usable = keys.filter((k) => k.status !== 'revoked');
  const unexpired = usable.filter((k) => k.expiresAt === null || Date.parse(k.expiresAt) > now.getTime());
  const best = unexpired.find((k) => k.status === 'active') ?? unexpired[0] ?? usable[0] ?? keys[0];
  return {
    keyHash: best.keyHash,
    workspaceId,
    registered: usable.some((k) => k.status === 'active'),
    expired: usable.length > 0 && unexpired.length === 0,
    expiresAt: best.expiresAt,
  };
}
