import type { IncomingHttpHeaders } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import type { CredentialCheck, CredentialVerifier } from '@vigil/platform';
import { adminTokenMatches, ensureAdminTokenFile, operatorTokenFile } from '../admin-token';

/**
 * The operator API's credential: `Authorization: Bearer <contents of <data dir>/admin-token>` (or of
 * `VIGIL_ADMIN_TOKEN_FILE`), compared in
 * constant time. The request gate calls it before any body is read; AdminGuard where no gate ran.
 */
@Injectable()
export class OperatorTokenVerifier implements CredentialVerifier {
  private readonly token: string;

  constructor(@Inject(VIGIL_CONFIG) config: VigilConfig) {
    this.token = ensureAdminTokenFile(operatorTokenFile(config));
  }

  async verify(headers: IncomingHttpHeaders): Promise<CredentialCheck> {
    return this.accepts(headers.authorization)
      ? { accepted: true }
      : { accepted: false, status: 401, message: 'Operator endpoints need the admin token from the data directory' };
  }

  accepts(authorization: string | undefined): boolean {
    const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    return presented !== undefined && adminTokenMatches(this.token, presented);
  }
}
