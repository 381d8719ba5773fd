import { eventOf, type RecordOutcome } from '../outcome';
import { hexFingerprint, isoFromTimestamp, textOf } from '../values';
import { section, type EveHeader, type EveRecord } from './eve-header';

/**
 * `tls` → tlsEvent: `subject`, `issuerdn`, the SHA-1 `fingerprint` (hex without colons), `notbefore`/`notafter`
 * (UTC without an offset) and the JA3/JA3S hashes. A resumed session has no certificate fields.
 */
export function eveTlsEvent(r: EveRecord, header: EveHeader): RecordOutcome {
  const tls = section(r, 'tls');
  return eventOf('tls', {
    ts: header.ts,
    srcIP: header.srcIP,
    srcPort: header.srcPort,
    destIP: header.destIP,
    destPort: header.destPort,
    certHash: hexFingerprint(tls.fingerprint),
    subject: textOf(tls.subject),
    issuer: textOf(tls.issuerdn),
    validFrom: isoFromTimestamp(tls.notbefore),
    validTo: isoFromTimestamp(tls.notafter),
    ja3: hashOf(tls.ja3),
    ja3s: hashOf(tls.ja3s),
  });
}

function hashOf(value: unknown): string | undefined {
  return value !== null && typeof value === 'object' ? textOf((value as Record<string, unknown>).hash) : textOf(value);
}
