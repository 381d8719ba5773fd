import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashesEqual, hashApiKey } from '@vigil/auth';

/** The default operator token file used by `vigil keys ...` against a running server: `<data dir>/admin-token`, mode 0600. */
export function adminTokenFile(dataDir: string): string {
  return path.join(dataDir, 'admin-token');
}

/** Where this process keeps its operator token: `VIGIL_ADMIN_TOKEN_FILE`, else `<data dir>/admin-token`. */
export function operatorTokenFile(config: { dataDir: string; adminTokenFile?: string }): string {
  return config.adminTokenFile ?? adminTokenFile(config.dataDir);
}

export function ensureAdminToken(dataDir: string): string {
  return ensureAdminTokenFile(adminTokenFile(dataDir));
}

/**
 * Reads the operator token from `file`, creating it (a random token, mode 0600) when it does not exist. A file
 * on a read-only mount (a shared volume, a secret) must already hold the token.
 */
export function ensureAdminTokenFile(file: string): string {
  if (fs.existsSync(file)) {
    const token = fs.readFileSync(file, 'utf8').trim();
    if (token === '') throw new Error(`The operator token file ${file} is empty`);
    return token;
  }
  const token = randomBytes(32).toString('hex');
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(draft, token + '\n', { mode: 0o600 });
    // link() never replaces: processes sharing the file that start together agree on the first one written whole.
    try {
      fs.linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return ensureAdminTokenFile(file);
      throw error;
    }
  } catch (error) {
    throw new Error(`The operator token file ${file} does not exist and cannot be created: ${(error as Error).message}`);
  } finally {
    try {
      fs.unlinkSync(draft);
    } catch {
      /* never written */
    }
  }
  return token;
}

export function adminTokenMatches(expected: string, presented: string): boolean {
  return hashesEqual(hashApiKey(expected), hashApiKey(presented));
}
