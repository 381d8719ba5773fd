import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hashesEqual, hashApiKey } from '@vigil/auth';

/** The local operator token used by `vigil keys ...` against a running server: `<data dir>/admin-token`, mode 0600. */
export function adminTokenFile(dataDir: string): string {
  return path.join(dataDir, 'admin-token');
}

export function ensureAdminToken(dataDir: string): string {
  const file = adminTokenFile(dataDir);
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const token = randomBytes(32).toString('hex');
  fs.writeFileSync(file, token + '\n', { mode: 0o600 });
  return token;
}

export function adminTokenMatches(expected: string, presented: string): boolean {
  return hashesEqual(hashApiKey(expected), hashApiKey(presented));
}
