import * as fs from 'node:fs';
import * as path from 'node:path';
import type { VigilConfig } from '@vigil/config';
import { ConfigError } from '@vigil/config';

export interface TlsMaterial {
  key: Buffer;
  cert: Buffer;
}

/**
 * Certificate and key for HTTPS: the configured files, or a self-signed pair for local use, generated once
 * and kept under `<data>/tls` so clients can pin it across restarts.
 */
export async function loadTlsMaterial(config: VigilConfig): Promise<TlsMaterial | undefined> {
  const tls = config.tls;
  if (tls.kind === 'none') return undefined;
  if (tls.kind === 'files') {
    const read = (file: string, variable: string) => {
      try {
        return fs.readFileSync(file);
      } catch (error) {
        throw new ConfigError(`${variable}: cannot read ${file} (${(error as Error).message})`);
      }
    };
    return { cert: read(tls.certFile, 'VIGIL_TLS_CERT'), key: read(tls.keyFile, 'VIGIL_TLS_KEY') };
  }
  const dir = path.join(config.dataDir, 'tls');
  const certFile = path.join(dir, 'self-signed.crt');
  const keyFile = path.join(dir, 'self-signed.key');
  if (!fs.existsSync(certFile) || !fs.existsSync(keyFile)) {
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      days: 825,
      algorithm: 'sha256',
      extensions: [
        { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
      ],
    } as never);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(keyFile, pems.private, { mode: 0o600 });
    fs.writeFileSync(certFile, pems.cert);
  }
  return { cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) };
}
