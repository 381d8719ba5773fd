import { createPrivateKey, X509Certificate, type KeyObject } from 'node:crypto';
import { InvalidDestinationError } from './input-reader';

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Parses a PEM bundle of one or more certificates; refuses anything else. */
export function parseCertificates(pem: string, field: string): X509Certificate[] {
  const blocks = pem.match(CERTIFICATE_BLOCK) ?? [];
  if (blocks.length === 0) throw new InvalidDestinationError(`${field} must hold PEM certificate(s) (-----BEGIN CERTIFICATE-----)`);
  return blocks.map((block, i) => {
    try {
      return new X509Certificate(block);
    } catch {
      throw new InvalidDestinationError(`${field}: certificate ${i + 1} of the PEM bundle cannot be read`);
    }
  });
}

/** Parses an unencrypted PEM private key. The error never quotes the key. */
export function parsePrivateKey(pem: string, field: string): KeyObject {
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new InvalidDestinationError(`${field} must be an unencrypted PEM private key`);
  }
}

/** Checks that a client certificate and key belong together. */
export function checkClientCertificate(certPem: string, keyPem: string, field: string): void {
  const [certificate] = parseCertificates(certPem, `${field}.clientCert`);
  const key = parsePrivateKey(keyPem, `${field}.clientKey`);
  if (!certificate.checkPrivateKey(key)) throw new InvalidDestinationError(`${field}.clientKey does not match ${field}.clientCert`);
}
