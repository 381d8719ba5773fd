import type { CertificateDetails } from './x509';

/**
 * Certificates from x509.log by fingerprint and by file id, for joining into ssl.log records. Zeek logs a
 * certificate once a day (deduplication), so the index spans whole imports; it is bounded (oldest out first).
 */
export class CertificateIndex {
  private readonly certificates = new Map<string, CertificateDetails>();

  constructor(private readonly maxEntries = 200_000) {}

  add(keys: string[], details: CertificateDetails): void {
    for (const key of keys) {
      this.certificates.delete(key);
      this.certificates.set(key, details);
    }
    while (this.certificates.size > this.maxEntries) this.certificates.delete(this.certificates.keys().next().value as string);
  }

  get(key: string): CertificateDetails | undefined {
    return this.certificates.get(key);
  }

  get size(): number {
    return this.certificates.size;
  }
}
