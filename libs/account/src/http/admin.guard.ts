import { CanActivate, ExecutionContext, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { adminTokenMatches, ensureAdminToken } from '../admin-token';

/** Operator endpoints take `Authorization: Bearer <contents of <data dir>/admin-token>`. */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly token: string;

  constructor(@Inject(VIGIL_CONFIG) config: VigilConfig) {
    this.token = ensureAdminToken(config.dataDir);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>().headers.authorization;
    const presented = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];
    if (!presented || !adminTokenMatches(this.token, presented)) {
      throw new UnauthorizedException({ message: 'Operator endpoints need the admin token from the data directory' });
    }
    return true;
  }
}
