/** Builds a Zeek ASCII log as Zeek writes it (header, tab-separated rows, `#close`), for tests. */
export function zeekTsvLog(path: string, columns: ReadonlyArray<readonly [name: string, type: string]>, rows: ReadonlyArray<readonly string[]>, close = true): string {
  const header = [
    '#separator \\x09',
    '#set_separator\t,',
    '#empty_field\t(empty)',
    '#unset_field\t-',
    `#path\t${path}`,
    '#open\t2024-06-10-06-00-00',
    `#fields\t${columns.map(([name]) => name).join('\t')}`,
    `#types\t${columns.map(([, type]) => type).join('\t')}`,
  ];
  return [...header, ...rows.map((row) => row.join('\t')), ...(close ? ['#close\t2024-06-10-07-00-00'] : [])].join('\n') + '\n';
}

export const CONN_COLUMNS = [
  ['ts', 'time'], ['uid', 'string'], ['id.orig_h', 'addr'], ['id.orig_p', 'port'], ['id.resp_h', 'addr'], ['id.resp_p', 'port'],
  ['proto', 'enum'], ['service', 'string'], ['duration', 'interval'], ['orig_bytes', 'count'], ['resp_bytes', 'count'],
  ['conn_state', 'string'], ['local_orig', 'bool'], ['local_resp', 'bool'], ['missed_bytes', 'count'], ['history', 'string'],
  ['orig_pkts', 'count'], ['orig_ip_bytes', 'count'], ['resp_pkts', 'count'], ['resp_ip_bytes', 'count'], ['tunnel_parents', 'set[string]'],
] as const;

export const DNS_COLUMNS = [
  ['ts', 'time'], ['uid', 'string'], ['id.orig_h', 'addr'], ['id.orig_p', 'port'], ['id.resp_h', 'addr'], ['id.resp_p', 'port'],
  ['proto', 'enum'], ['trans_id', 'count'], ['rtt', 'interval'], ['query', 'string'], ['qclass', 'count'], ['qclass_name', 'string'],
  ['qtype', 'count'], ['qtype_name', 'string'], ['rcode', 'count'], ['rcode_name', 'string'], ['AA', 'bool'], ['TC', 'bool'],
  ['RD', 'bool'], ['RA', 'bool'], ['Z', 'count'], ['answers', 'vector[string]'], ['TTLs', 'vector[interval]'], ['rejected', 'bool'],
] as const;

/** One dns.log row for `query` from `srcIP` at epoch second `ts` (a TXT lookup answered NOERROR). */
export function zeekDnsRow(ts: string, srcIP: string, srcPort: number, query: string, qtype = 'TXT', qtypeCode = '16'): string[] {
  return [ts, 'CmES5u32sYpV7JYN', srcIP, String(srcPort), '10.0.0.53', '53', 'udp', '40132', '0.021234', query, '1', 'C_INTERNET', qtypeCode, qtype, '0', 'NOERROR', 'F', 'F', 'T', 'T', '0', '(empty)', '(empty)', 'F'];
}
