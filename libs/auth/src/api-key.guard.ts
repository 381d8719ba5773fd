import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  SetMetadata,
  UnauthorizedException,
  createParamDecorator,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { RATE_LIMITER, type RateLimiter } from '@vigil/counters';
import { apiKeyFromAuthorization } from './basic-auth';
import type { Principal } from './key-directory';
import { KeyDirectoryService } from './key-directory.service';

const ALLOW_EXPIRED = 'vigil:allow-expired';

/** Marks a route that still answers for an expired key (account status). */
export const AllowExpiredKey = () => SetMetadata(ALLOW_EXPIRED, true);

interface AuthenticatedRequest {
  headers: Record<string, string | string[] | undefined>;
  principal?: Principal;
}

/** The authenticated principal of the request (set by ApiKeyGuard). */
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
 * HTTP Basic authentication with the API key as user name (password ignored), then the per-key rate limit.
 * Missing, unknown or revoked key → 401; expired key → 403 except on @AllowExpiredKey routes; over the
 * limit → 429 with Retry-After.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: KeyDirectoryService,
    private readonly reflector: Reflector,
    @Inject(RATE_LIMITER) private readonly rateLimiter: RateLimiter,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers.authorization;
    const key = apiKeyFromAuthorization(Array.isArray(header) ? header[0] : header);
    if (!key) throw new UnauthorizedException({ message: 'Missing API key: send it as the HTTP Basic user name' });
    const lookup = this.keys.lookup(key);
    if (lookup.outcome === 'unknown') throw new UnauthorizedException({ message: 'Unknown API key' });
    if (lookup.outcome === 'revoked') throw new UnauthorizedException({ message: 'This API key has been revoked' });
    const { principal } = lookup;
    const allowExpired = this.reflector.getAllAndOverride<boolean>(ALLOW_EXPIRED, [context.getHandler(), context.getClass()]);
    if (principal.expired && !allowExpired) {
      throw new ForbiddenException({ message: `This API key expired on ${principal.expiresAt}` });
    }
    const decision = await this.rateLimiter.consume(principal.keyHash);
    if (!decision.allowed) throw new TooManyRequestsException(decision.retryAfterSeconds);
    request.principal = principal;
    return true;
  }
}
