import * as fs from 'node:fs';
import * as path from 'node:path';
import { utils, type ParsedKey } from 'ssh2';
import { sshFingerprint } from '../keys/public-key';

export interface HostKey {
  privateKey: Buffer;
  fingerprint: string;
  generated: boolean;
}

/**
 * The server's SSH host key: read from `file`, or generated (ed25519) there with mode 0600 on first start, so the
 * fingerprint sensors pin stays the same across restarts.
 */
export function loadOrCreateHostKey(file: string): HostKey {
  let generated = false;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const pair = utils.generateKeyPairSync('ed25519', { comment: 'vigil-sftp' });
    fs.writeFileSync(file, pair.private, { mode: 0o600, flag: 'wx' });
    generated = true;
  }
  const privateKey = fs.readFileSync(file);
  const parsed = utils.parseKey(privateKey);
  const key: ParsedKey | Error | undefined = Array.isArray(parsed) ? (parsed as ParsedKey[])[0] : parsed;
  if (key === undefined || key instanceof Error || !key.isPrivateKey()) {
    throw new Error(`VIGIL_SFTP_HOST_KEY: ${file} is not an unencrypted OpenSSH private key${key instanceof Error ? ` (${key.message})` : ''}`);
  }
  return { privateKey, fingerprint: sshFingerprint(key.getPublicSSH()), generated };
}
