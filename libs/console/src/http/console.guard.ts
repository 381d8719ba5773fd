import { CanActivate, ExecutionContext, ForbiddenException, HttpException, Injectable, SetMetadata, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Principal } from '@vigil/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { readCookie, SESSION_COOKIE } from '../session/cookies';
import { ConsoleSessionsService } from '../session/console-sessions.service';
import type { ConsoleRole, ConsoleSession } from '../session/session-store';
import { applySecurityHeaders } from './security-headers';

const ROLE = 'vigil:console-role';
/** The role a console API route needs; routes without it (static files, sign-in) need no session. */
export const ConsoleRoleRequired = (role: ConsoleRole | 'any') => SetMetadata(ROLE, role);

export interface ConsoleRequest extends FastifyRequest {
  consoleSession?: ConsoleSession;
  /** Analysts: the principal of their key, as the public API would see it. */
  consolePrincipal?: Principal;
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * Every console route: the security headers; for changes, a JSON body and no cross-site fetch (a form on another
 * site cannot send either); for routes that need a session, the session cookie, the CSRF token on changes
 * (synchronizer token in X-CSRF-Token), the role, and for analysts their key's current state.
 */
@Injectable()
export class ConsoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: ConsoleSessionsService,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    applySecurityHeaders(context.switchToHttp().getResponse<FastifyReply>());
    const changes = !SAFE_METHODS.has(request.method);
    if (changes) {
      if (request.headers['sec-fetch-site'] === 'cross-site') throw new ForbiddenException({ message: 'Cross-site requests are refused' });
      if (!/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
        throw new HttpException({ message: 'Content-Type must be application/json' }, 415);
      }
    }
    const role = this.reflector.get<ConsoleRole | 'any' | undefined>(ROLE, context.getHandler()) ?? this.reflector.get<ConsoleRole | 'any' | undefined>(ROLE, context.getClass());
    if (role === undefined) return true;
    const session = this.sessions.store.get(readCookie(request.headers.cookie, SESSION_COOKIE));
    if (!session) throw new UnauthorizedException({ message: 'Sign in first (no session, or it expired)' });
    if (changes && !tokensEqual(request.headers['x-csrf-token'], session.csrfToken)) {
      throw new ForbiddenException({ message: 'Missing or wrong CSRF token (X-CSRF-Token)' });
    }
    if (role !== 'any' && session.role !== role) throw new ForbiddenException({ message: `This needs an ${role} session` });
    if (session.role === 'analyst') {
      const check = this.sessions.checkAnalyst(session);
      if (!check.ok) throw new HttpException({ message: check.message }, check.status);
      request.consolePrincipal = check.principal;
    }
    request.consoleSession = session;
    return true;
  }
}

function tokensEqual(sent: string | string[] | undefined, expected: string): boolean {
  if (typeof sent !== 'string' || sent.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < sent.length; i++) diff |= sent.charCodeAt(i) ^ expected.charCodeAt(i);
  return diff === 0;
}
