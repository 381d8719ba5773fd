import { Inject, Injectable } from '@nestjs/common';
import { adminTokenMatches, ensureAdminTokenFile, operatorTokenFile } from '@vigil/account';
import { KeyDirectoryService, type Principal } from '@vigil/auth';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { SessionStore, type ConsoleSession } from './session-store';
import { SignInLimiter } from './sign-in-limiter';

export type SignInResult =
  | { ok: true; session: ConsoleSession }
  | { ok: false; status: 401 | 403 | 429; message: string; retryAfterSeconds?: number };

export type AnalystCheck = { ok: true; principal: Principal } | { ok: false; status: 401 | 403; message: string };

const DEFAULT_SESSION_MINUTES = 480;

/**
 * Console sign-in and sessions. Operators present VIGIL_ADMIN_PASSWORD or the admin token of the data directory;
 * analysts a workspace API key, checked by the key directory every service already keeps.
 */
@Injectable()
export class ConsoleSessionsService {
  readonly store: SessionStore;
  readonly secureCookies: boolean;
  private readonly limiter = new SignInLimiter();
  private readonly adminToken: string;
  private readonly adminPassword?: string;

  constructor(
    @Inject(VIGIL_CONFIG) config: VigilConfig,
    private readonly keys: KeyDirectoryService,
  ) {
    this.store = new SessionStore((config.console?.sessionMinutes ?? DEFAULT_SESSION_MINUTES) * 60_000);
    this.secureCookies = config.tls.kind !== 'none';
    this.adminToken = ensureAdminTokenFile(operatorTokenFile(config));
    this.adminPassword = config.console?.adminPassword;
  }

  signIn(client: string, request: { role?: unknown; password?: unknown; apiKey?: unknown }): SignInResult {
    const wait = this.limiter.retryAfterSeconds(client);
    if (wait > 0) return { ok: false, status: 429, message: `Too many failed sign-in attempts; retry after ${wait} s`, retryAfterSeconds: wait };
    const result = this.attempt(request);
    if (!result.ok) this.limiter.recordFailure(client);
    return result;
  }

  /** An analyst's key, looked up again: a key revoked (or expired) since sign-in stops working at once. */
  checkAnalyst(session: ConsoleSession): AnalystCheck {
    const lookup = this.keys.lookup(session.apiKey ?? '');
    if (lookup.outcome !== 'ok') {
      this.store.end(session.id);
      return { ok: false, status: 401, message: lookup.outcome === 'revoked' ? 'This API key has been revoked' : 'Unknown API key' };
    }
    if (lookup.principal.expired) return { ok: false, status: 403, message: `This API key expired on ${lookup.principal.expiresAt}` };
    return { ok: true, principal: lookup.principal };
  }

  private attempt(request: { role?: unknown; password?: unknown; apiKey?: unknown }): SignInResult {
    if (request.role === 'operator') {
      const password = typeof request.password === 'string' ? request.password : '';
      const matches = password !== '' && (adminTokenMatches(this.adminToken, password) || (this.adminPassword !== undefined && adminTokenMatches(this.adminPassword, password)));
      return matches ? { ok: true, session: this.store.create('operator') } : { ok: false, status: 401, message: 'Wrong admin password or token' };
    }
    if (request.role === 'analyst') {
      const apiKey = typeof request.apiKey === 'string' ? request.apiKey.trim() : '';
      const lookup = this.keys.lookup(apiKey);
      if (apiKey === '' || lookup.outcome === 'unknown') return { ok: false, status: 401, message: 'Unknown API key' };
      if (lookup.outcome === 'revoked') return { ok: false, status: 401, message: 'This API key has been revoked' };
      if (lookup.principal.expired) return { ok: false, status: 403, message: `This API key expired on ${lookup.principal.expiresAt}` };
      return { ok: true, session: this.store.create('analyst', { apiKey, workspaceId: lookup.principal.workspaceId }) };
    }
    return { ok: false, status: 401, message: 'role must be "operator" or "analyst"' };
  }
}
