import * as fs from 'node:fs';
import * as path from 'node:path';
import { utils, type ParsedKey } from 'ssh2';
import { sshFingerprint } from '../keys/public-key';

export interface HostKey {
  privateKey: Buffer;
  fingerprint: string;
  generated: boolean;
}

/** Makes an ed25519 key pair in OpenSSH format. */
export type KeyPairGenerator = () => { private: string; public: string };

const generateEd25519: KeyPairGenerator = () => utils.generateKeyPairSync('ed25519', { comment: 'vigil-sftp' });

/** Pairs tried before giving up: with one bad pair in 256, eight bad pairs in a row come once in 2^64 starts. */
const MAX_GENERATION_ATTEMPTS = 8;

/**
 * The server's SSH host key: read from `file`, or generated (ed25519) there with mode 0600 on first start, so the
 * fingerprint sensors pin stays the same across restarts.
 */
export function loadOrCreateHostKey(file: string, generate: KeyPairGenerator = generateEd25519): HostKey {
  let generated = false;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, generateReadableKey(generate), { mode: 0o600, flag: 'wx' });
    generated = true;
  }
  const privateKey = fs.readFileSync(file);
  const key = privateKeyOf(privateKey);
  if (key instanceof Error) throw new Error(`VIGIL_SFTP_HOST_KEY: ${file} is not an unencrypted OpenSSH private key${key.message ? ` (${key.message})` : ''}`);
  return { privateKey, fingerprint: sshFingerprint(key.getPublicSSH()), generated };
}

/**
 * A new private key that ssh2 can read back. Its generator drops leading zero bytes of the public key, so about
 * one ed25519 pair in 256 comes out malformed (mscdex/ssh2 issues 1390 and 1513); such a pair is made again.
 */
export function generateReadableKey(generate: KeyPairGenerator): string {
  for (let attempt = 1; attempt <= MAX_GENERATION_ATTEMPTS; attempt++) {
    const pair = generate();
    if (!(privateKeyOf(pair.private) instanceof Error) && !(utils.parseKey(pair.public) instanceof Error)) return pair.private;
  }
  throw new Error(`could not generate a readable SSH host key in ${MAX_GENERATION_ATTEMPTS} attempts`);
}

function privateKeyOf(text: string | Buffer): ParsedKey | Error {
  const parsed = utils.parseKey(text);
  const key: ParsedKey | Error | undefined = Array.isArray(parsed) ? (parsed as ParsedKey[])[0] : parsed;
  if (key instanceof Error) return key;
  if (key === undefined || !key.isPrivateKey()) return new Error('');
  return key;
}
