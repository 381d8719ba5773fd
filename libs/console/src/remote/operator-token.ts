import * as fs from 'node:fs';
import { ServiceUnavailableException } from '@nestjs/common';
import { operatorTokenFile } from '@vigil/account';
import type { VigilConfig } from '@vigil/config';

/**
 * The operator token the console presents to the account and rules services: VIGIL_ACCOUNT_ADMIN_TOKEN, else this
 * process's own token file (VIGIL_ADMIN_TOKEN_FILE shared with those services, or a shared data directory).
 */
export function operatorTokenOf(config: VigilConfig): string {
  const configured = config.remoteServices?.accountAdminToken;
  if (configured) return configured;
  const file = operatorTokenFile(config);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new ServiceUnavailableException({ message: `VIGIL_ACCOUNT_ADMIN_TOKEN is not set and there is no operator token file at ${file}` });
  }
}
