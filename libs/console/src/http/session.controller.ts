import { Body, Controller, Get, HttpCode, HttpException, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { clearedSessionCookie, sessionCookie } from '../session/cookies';
import { ConsoleSessionsService } from '../session/console-sessions.service';
import type { ConsoleSession } from '../session/session-store';
import { ConsoleGuard, ConsoleRoleRequired, type ConsoleRequest } from './console.guard';

export interface SessionInfo {
  role: ConsoleSession['role'];
  csrfToken: string;
  expiresAt: string;
  workspaceId?: string;
}

class SignInRefused extends HttpException {
  constructor(
    status: number,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super({ message }, status);
  }
}

function infoOf(session: ConsoleSession): SessionInfo {
  return {
    role: session.role,
    csrfToken: session.csrfToken,
    expiresAt: new Date(session.expiresAt).toISOString(),
    ...(session.workspaceId ? { workspaceId: session.workspaceId } : {}),
  };
}

/** Sign-in, the current session (with its CSRF token) and sign-out. */
@Controller('console/api')
@UseGuards(ConsoleGuard)
export class ConsoleSessionController {
  constructor(private readonly sessions: ConsoleSessionsService) {}

  @Post('sign-in')
  @HttpCode(200)
  signIn(@Req() request: ConsoleRequest, @Body() body: unknown, @Res({ passthrough: true }) reply: FastifyReply): SessionInfo {
    const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const result = this.sessions.signIn(request.ip, fields);
    if (!result.ok) throw new SignInRefused(result.status, result.message, result.retryAfterSeconds);
    const maxAge = Math.floor((result.session.expiresAt - result.session.createdAt) / 1000);
    void reply.header('Set-Cookie', sessionCookie(result.session.id, maxAge, this.sessions.secureCookies)).header('Cache-Control', 'no-store');
    return infoOf(result.session);
  }

  @Get('session')
  @ConsoleRoleRequired('any')
  session(@Req() request: ConsoleRequest, @Res({ passthrough: true }) reply: FastifyReply): SessionInfo {
    void reply.header('Cache-Control', 'no-store');
    return infoOf(request.consoleSession!);
  }

  @Post('sign-out')
  @HttpCode(200)
  @ConsoleRoleRequired('any')
  signOut(@Req() request: ConsoleRequest, @Res({ passthrough: true }) reply: FastifyReply): { signedOut: true } {
    this.sessions.store.end(request.consoleSession!.id);
    void reply.header('Set-Cookie', clearedSessionCookie(this.sessions.secureCookies));
    return { signedOut: true };
  }
}
