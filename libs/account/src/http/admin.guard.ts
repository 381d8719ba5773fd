import { CanActivate, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { OperatorTokenVerifier } from './operator-token.verifier';

/**
 * Operator endpoints take `Authorization: Bearer <contents of <data dir>/admin-token>`. The HTTP server's request
 * gate checks it before the body is read; the guard checks again (it counts nothing), for any other way in.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly verifier: OperatorTokenVerifier) {}

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers.authorization;
    if (!this.verifier.accepts(header)) {
      throw new UnauthorizedException({ message: 'Operator endpoints need the admin token from the data directory' });
    }
    return true;
  }
}
