import { eventOf, rejected, type RecordOutcome } from '../outcome';
import { hexFingerprint, portOf, textOf } from '../values';
import type { CertificateIndex } from './certificate-index';
import { zeekTime } from './zeek-time';
import type { ZeekRecord } from './zeek-record';

/**
 * ssl.log → tlsEvent. The server certificate is the first of `cert_chain_fps` (Zeek ≥ 4.2, fingerprints) or
 * `cert_chain_fuids` (older, file ids); its subject, issuer and validity come from ssl.log when logged there, else
 * from x509.log through `certificates`. `ja3`/`ja3s` are the JA3 package's fields.
 */
export function zeekSslEvent(r: ZeekRecord, certificates?: CertificateIndex): RecordOutcome {
  const ts = zeekTime(r.ts);
  if (ts === undefined) return rejected(r.ts === undefined ? 'missing_ts' : 'invalid_ts');
  const fingerprint = hexFingerprint(firstOfList(r.cert_chain_fps));
  const fileId = textOf(firstOfList(r.cert_chain_fuids));
  const certificate = (fingerprint !== undefined ? certificates?.get(fingerprint) : undefined) ?? (fileId !== undefined ? certificates?.get(fileId) : undefined);
  return eventOf('tls', {
    ts,
    srcIP: textOf(r['id.orig_h']),
    srcPort: portOf(r['id.orig_p']),
    destIP: textOf(r['id.resp_h']),
    destPort: portOf(r['id.resp_p']),
    certHash: fingerprint ?? certificate?.fingerprint,
    subject: textOf(r.subject) ?? certificate?.subject,
    issuer: textOf(r.issuer) ?? certificate?.issuer,
    validFrom: certificate?.validFrom,
    validTo: certificate?.validTo,
    ja3: textOf(r.ja3),
    ja3s: textOf(r.ja3s),
  });
}

function firstOfList(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : typeof value === 'string' ? value.split(',')[0] : undefined;
}
