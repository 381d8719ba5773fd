import * as fs from 'node:fs';
import * as path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { ConfigError, loadConfig } from '@vigil/config';
import { makeTempDir } from '@vigil/testing';
import { loadTlsMaterial } from './tls';

describe('loadTlsMaterial', () => {
  const temp = makeTempDir('vigil-tls-');
  afterAll(() => temp.cleanup());

  it('serves plain HTTP unless TLS is configured', async () => {
    expect(await loadTlsMaterial(loadConfig({ VIGIL_DATA_DIR: temp.path }))).toBeUndefined();
  });

  it('generates a self-signed localhost certificate once and reuses it', async () => {
    const config = loadConfig({ VIGIL_DATA_DIR: temp.path, VIGIL_TLS_SELF_SIGNED: '1' });
    const first = await loadTlsMaterial(config);
    const second = await loadTlsMaterial(config);
    expect(second!.cert.equals(first!.cert)).toBe(true);
    const certificate = new X509Certificate(first!.cert);
    expect(certificate.subject).toContain('CN=localhost');
    expect(certificate.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(fs.statSync(path.join(temp.path, 'tls', 'self-signed.key')).mode & 0o077).toBe(0);
  });

  it('names the variable when a configured file cannot be read', async () => {
    const config = loadConfig({ VIGIL_DATA_DIR: temp.path, VIGIL_TLS_CERT: '/nonexistent/c.pem', VIGIL_TLS_KEY: '/nonexistent/k.pem' });
    await expect(loadTlsMaterial(config)).rejects.toThrow(ConfigError);
    await expect(loadTlsMaterial(config)).rejects.toThrow(/VIGIL_TLS_CERT/);
  });
});
