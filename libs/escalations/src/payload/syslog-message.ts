/**
 * RFC 5424 syslog messages and RFC 6587 octet-counted framing (`<length> <message>`, length in bytes), which
 * lets a message carry any bytes, newlines included, over a TCP or TLS stream.
 *
 * `<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID STRUCTURED-DATA MSG`; no structured data (`-`); MSG is UTF-8
 * sent without a BOM (RFC 5424 MSG-ANY), which CEF and JSON parsers of SIEM collectors expect.
 */
export interface SyslogFields {
  /** 0–23. */
  facility: number;
  /** Syslog severity 0 (emergency) – 7 (debug). */
  severity: number;
  /** Epoch milliseconds. */
  time: number;
  hostname: string;
  appName: string;
  procId: string;
  msgId: string;
  msg: string;
}

const NIL = '-';
/** Vigil severity 1–5 → syslog severity: Critical→2 crit, High→3 err, Medium→4 warning, Low→5 notice, Info→6 info. */
const SYSLOG_SEVERITY: Record<number, number> = { 5: 2, 4: 3, 3: 4, 2: 5, 1: 6 };

export function syslogSeverity(vigilSeverity: number): number {
  return SYSLOG_SEVERITY[vigilSeverity] ?? 4;
}

/** A header field: printable US-ASCII (33–126) cut to its maximum length, or `-` when nothing is left. */
function headerField(value: string, max: number): string {
  const cleaned = value.replace(/[^\x21-\x7e]/g, '').slice(0, max);
  return cleaned === '' ? NIL : cleaned;
}

export function formatRfc5424(fields: SyslogFields): Buffer {
  if (!Number.isInteger(fields.facility) || fields.facility < 0 || fields.facility > 23) throw new RangeError(`facility must be 0–23, got ${fields.facility}`);
  if (!Number.isInteger(fields.severity) || fields.severity < 0 || fields.severity > 7) throw new RangeError(`severity must be 0–7, got ${fields.severity}`);
  const pri = fields.facility * 8 + fields.severity;
  const header = [
    `<${pri}>1`,
    new Date(fields.time).toISOString(),
    headerField(fields.hostname, 255),
    headerField(fields.appName, 48),
    headerField(fields.procId, 128),
    headerField(fields.msgId, 32),
    NIL,
  ].join(' ');
  return Buffer.from(`${header} ${fields.msg}`, 'utf8');
}

/** RFC 6587 octet counting: the message's length in bytes, a space, the message. */
export function frameOctetCounted(message: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${message.length} `, 'ascii'), message]);
}
