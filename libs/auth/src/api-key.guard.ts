import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Injectable,
  SetMetadata,
  UnauthorizedException,
  createParamDecorator,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { CredentialRefusal } from '@vigil/platform';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import type { Principal } from './key-directory';

export const ALLOW_EXPIRED_KEY = 'vigil:allow-expired';

/** Marks a route that still answers for an expired key (account status). */
export const AllowExpiredKey = () => SetMetadata(ALLOW_EXPIRED_KEY, true);

interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal | null;
}

/** The authenticated principal of the request (set by the request gate or by ApiKeyGuard). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without ApiKeyGuard');
  return principal;
});

export class TooManyRequestsException extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super({ message: `Rate limit exceeded for this API key; retry after ${retryAfterSeconds} s` }, HttpStatus.TOO_MANY_REQUESTS);
  }
}

/**
 * Requires an API key (see ApiKeyAuthenticator). In the HTTP server the request gate has already checked the key
 * and counted the request before its body was read, and attached the principal: the guard then only re-checks
 * expiry against this route's @AllowExpiredKey, and counts nothing. Without a gate (a Nest application built
 * some other way) it does the whole check itself.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly authenticator: ApiKeyAuthenticator,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const expiredKeyAllowed = this.reflector.getAllAndOverride<boolean>(ALLOW_EXPIRED_KEY, [context.getHandler(), context.getClass()]) === true;
    if (request.principal) {
      if (request.principal.expired && !expiredKeyAllowed) throw new ForbiddenException({ message: `This API key expired on ${request.principal.expiresAt}` });
      return true;
    }
    const check = await this.authenticator.verify(request.headers, { expiredKeyAllowed });
    if (!check.accepted) throw exceptionFor(check);
    request.principal = check.principal as Principal;
    return true;
  }
}

function exceptionFor(refusal: CredentialRefusal): HttpException {
  if (refusal.status === 429) return new TooManyRequestsException(refusal.retryAfterSeconds ?? 1);
  if (refusal.status === 403) return new ForbiddenException({ message: refusal.message });
  return new UnauthorizedException({ message: refusal.message });
}
