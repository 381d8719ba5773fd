import { createHash, createPublicKey } from 'node:crypto';
import { utils, type ParsedKey } from 'ssh2';

/** A public key an operator gave that cannot be used for SFTP (the API answers 400). */
export class InvalidSftpKeyError extends Error {
  override readonly name = 'InvalidSftpKeyError';
}

export const ACCEPTED_KEY_TYPES = ['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp521', 'ssh-rsa'] as const;
const MIN_RSA_BITS = 2048;
const MAX_KEY_TEXT = 16 * 1024;

export interface SftpPublicKey {
  /** `ssh-ed25519`, `ecdsa-sha2-nistp256`, ... */
  algorithm: string;
  /** `<algorithm> <base64>`: the key as an authorized_keys line, without options or comment. */
  publicKey: string;
  /** OpenSSH's fingerprint form, `SHA256:<base64 without padding>`. */
  fingerprint: string;
  comment: string;
}

/**
 * One public key in OpenSSH (authorized_keys / `.pub`) or RFC 4716 form. Private keys are refused (an operator
 * who pasted the wrong file must not have it stored), as are DSA and RSA keys under 2048 bits.
 */
export function parseSftpPublicKey(text: string): SftpPublicKey {
  if (typeof text !== 'string' || text.trim() === '') throw new InvalidSftpKeyError('publicKey must be an OpenSSH public key, e.g. the contents of id_ed25519.pub');
  if (text.length > MAX_KEY_TEXT) throw new InvalidSftpKeyError('publicKey is too long for one public key');
  if (/PRIVATE KEY/.test(text)) throw new InvalidSftpKeyError('that is a private key: give the public key (the .pub file); the private key never leaves the sensor');
  const lines = text.trim().split(/\r?\n/).filter((line) => line.trim() !== '' && !line.startsWith('#'));
  if (lines.length > 1 && !text.includes('---- BEGIN SSH2 PUBLIC KEY ----')) throw new InvalidSftpKeyError('give one public key at a time');
  const parsed = utils.parseKey(text.trim());
  const key: ParsedKey | Error | undefined = Array.isArray(parsed) ? (parsed as ParsedKey[])[0] : parsed;
  if (key === undefined || key instanceof Error) throw new InvalidSftpKeyError(`not a readable SSH public key${key instanceof Error ? ` (${key.message})` : ''}`);
  if (key.isPrivateKey()) throw new InvalidSftpKeyError('that is a private key: give the public key (the .pub file)');
  if (!(ACCEPTED_KEY_TYPES as readonly string[]).includes(key.type)) {
    throw new InvalidSftpKeyError(`key type ${key.type} is not accepted; use one of ${ACCEPTED_KEY_TYPES.join(', ')}`);
  }
  if (key.type === 'ssh-rsa') {
    const bits = createPublicKey(key.getPublicPEM()).asymmetricKeyDetails?.modulusLength ?? 0;
    if (bits < MIN_RSA_BITS) throw new InvalidSftpKeyError(`RSA keys need at least ${MIN_RSA_BITS} bits (this one has ${bits})`);
  }
  const blob = key.getPublicSSH();
  return { algorithm: key.type, publicKey: `${key.type} ${blob.toString('base64')}`, fingerprint: sshFingerprint(blob), comment: key.comment ?? '' };
}

/** `SHA256:...` of a public key blob (the SSH wire form), as `ssh-keygen -l` prints it. */
export function sshFingerprint(blob: Buffer): string {
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/** The wire blob of a stored `<algorithm> <base64>` key. */
export function publicKeyBlob(publicKey: string): Buffer {
  return Buffer.from(publicKey.split(' ')[1] ?? '', 'base64');
}
