/**
 * A Zeek log record by field name, the same shape for TSV and JSON logs: `id.orig_h` style flat names; strings,
 * numbers, booleans or lists (sets and vectors); unset fields are absent.
 */
export type ZeekValue = string | number | boolean | string[] | number[] | undefined;
export type ZeekRecord = Record<string, ZeekValue>;

/** The log types Vigil reads, by Zeek's `#path` / `_path`. */
export const ZEEK_PATHS = ['conn', 'dns', 'http', 'ssl', 'x509', 'dhcp'] as const;
export type ZeekPath = (typeof ZEEK_PATHS)[number];

export function isZeekPath(value: string): value is ZeekPath {
  return (ZEEK_PATHS as readonly string[]).includes(value);
}

/**
 * The log type of a Zeek JSON record without `_path`, from the fields only that type logs. Zeek's JSON writer
 * does not name the log inside records; sites that add `_path` (zeek-kafka, Corelight) are read by that.
 */
export function zeekPathOfFields(record: Record<string, unknown>): ZeekPath | undefined {
  const path = record._path;
  if (typeof path === 'string') return isZeekPath(path) ? path : undefined;
  const has = (key: string) => key in record;
  if (has('certificate.subject') || has('certificate.version') || has('certificate.serial')) return 'x509';
  if (has('msg_types') || has('assigned_addr') || (has('assigned_ip') && has('mac'))) return 'dhcp';
  if (has('conn_state') || has('history') || has('orig_pkts')) return 'conn';
  if (has('qtype_name') || has('trans_id') || has('rcode_name') || (has('query') && has('qclass'))) return 'dns';
  if (has('trans_depth') || has('uri') || has('status_code') || has('user_agent')) return 'http';
  if (has('cipher') || has('server_name') || has('established') || has('cert_chain_fps') || has('cert_chain_fuids')) return 'ssl';
  return undefined;
}
