import { rejected, type RecordOutcome } from '../outcome';
import { hexFingerprint, textOf } from '../values';
import { zeekTime } from './zeek-time';
import type { ZeekRecord } from './zeek-record';

/** The certificate fields an ssl.log record borrows from x509.log. */
export interface CertificateDetails {
  fingerprint?: string;
  subject?: string;
  issuer?: string;
  validFrom?: string;
  validTo?: string;
}

/**
 * An x509.log record → the keys it can be found by and its details. Zeek ≥ 4.2 logs the certificate's
 * `fingerprint` (the `cert_chain_fps` of ssl.log); older Zeeks log the file id `id` (the `cert_chain_fuids`).
 */
export function zeekX509Certificate(r: ZeekRecord): { keys: string[]; details: CertificateDetails } | RecordOutcome {
  const fingerprint = hexFingerprint(r.fingerprint);
  const fileId = textOf(r.id);
  const keys = [fingerprint, fileId].filter((key): key is string => key !== undefined);
  if (keys.length === 0) return rejected('missing_certificate_id');
  return {
    keys,
    details: {
      fingerprint,
      subject: textOf(r['certificate.subject']),
      issuer: textOf(r['certificate.issuer']),
      validFrom: zeekTime(r['certificate.not_valid_before']),
      validTo: zeekTime(r['certificate.not_valid_after']),
    },
  };
}
