import * as fs from 'node:fs';
import * as path from 'node:path';
import { utils } from 'ssh2';
import { withTempDir } from '@vigil/testing';
import { generateReadableKey, loadOrCreateHostKey, type KeyPairGenerator } from './host-key';

/**
 * A real pair from ssh2's generator that ssh2 reads back, or (readable false) one it cannot: about 1 in 256 of its
 * pairs are malformed, so tests pick the kind they need instead of trusting a fresh pair.
 */
function generatedPair(readable: boolean): { private: string; public: string } {
  for (let i = 0; i < 20_000; i++) {
    const pair = utils.generateKeyPairSync('ed25519');
    const malformed = utils.parseKey(pair.private) instanceof Error || utils.parseKey(pair.public) instanceof Error;
    if (malformed !== readable) return pair;
  }
  throw new Error(`ssh2 made no ${readable ? 'readable' : 'malformed'} pair in 20,000 tries`);
}

describe('SFTP host key', () => {
  const bad = generatedPair(false);
  const good = generatedPair(true);

  it('generates again when the generator makes a pair ssh2 cannot read back', () => {
    const pairs = [bad, bad, good];
    const generate: KeyPairGenerator = () => pairs.shift()!;
    const key = generateReadableKey(generate);
    expect(pairs).toHaveLength(0);
    expect(utils.parseKey(key)).not.toBeInstanceOf(Error);
  });

  it('gives up with a clear error when every pair is malformed', () => {
    expect(() => generateReadableKey(() => bad)).toThrow(/could not generate a readable SSH host key/);
  });

  it('writes a readable key on first start and reads the same one afterwards', async () => {
    await withTempDir('vigil-hostkey-', async (dir) => {
      const file = path.join(dir, 'sftp', 'ssh_host_ed25519_key');
      let calls = 0;
      const generate: KeyPairGenerator = () => (++calls === 1 ? bad : good);
      const first = loadOrCreateHostKey(file, generate);
      expect(first.generated).toBe(true);
      expect(calls).toBe(2);
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      const again = loadOrCreateHostKey(file, generate);
      expect(again.generated).toBe(false);
      expect(again.fingerprint).toBe(first.fingerprint);
      expect(calls).toBe(2);
    });
  });

  it('refuses a key file that is not an OpenSSH private key', async () => {
    await withTempDir('vigil-hostkey-', async (dir) => {
      const file = path.join(dir, 'key');
      fs.writeFileSync(file, 'not a key');
      expect(() => loadOrCreateHostKey(file)).toThrow(/is not an unencrypted OpenSSH private key/);
    });
  });
});
