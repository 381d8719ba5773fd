/* Test fixtures of this lib (not exported from the lib). */

export interface TlsMaterial {
  /** PEM certificate: self-signed for localhost / 127.0.0.1, so it also serves as the CA that trusts itself. */
  cert: string;
  key: string;
}

/** A fresh self-signed certificate for 127.0.0.1 and localhost. */
export async function selfSignedLocalhost(commonName = 'localhost'): Promise<TlsMaterial> {
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    days: 2,
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  } as never);
  return { cert: pems.cert, key: pems.private };
}
