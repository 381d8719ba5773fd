/** DNS query names and query types as clients send them, made comparable. */

export const MAX_NAME_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;

/**
 * Lower-cases a query name and drops one trailing dot. Returns undefined when it is not a usable name:
 * empty, longer than 253 characters, an empty label (`a..b`) or a label over 63, or containing a space or a
 * control character.
 */
export function normalizeQueryName(query: string): string | undefined {
  let name = hasOuterSpace(query) ? query.trim() : query;
  if (name.charCodeAt(name.length - 1) === DOT) name = name.slice(0, -1);
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return undefined;
  let labelStart = 0;
  let needsLowerCase = false;
  for (let i = 0; i <= name.length; i++) {
    const code = i === name.length ? DOT : name.charCodeAt(i);
    if (code === DOT) {
      const labelLength = i - labelStart;
      if (labelLength === 0 || labelLength > MAX_LABEL_LENGTH) return undefined;
      labelStart = i + 1;
    } else if (code <= 32 || code === 127) {
      return undefined;
    } else if ((code >= 65 && code <= 90) || code > 127) {
      needsLowerCase = true;
    }
  }
  return needsLowerCase ? name.toLowerCase() : name;
}

const DOT = 46;

function hasOuterSpace(value: string): boolean {
  return value.charCodeAt(0) <= 32 || value.charCodeAt(value.length - 1) <= 32;
}

/** IANA RR type numbers of the query types seen in practice. */
const QTYPE_NAMES: Readonly<Record<number, string>> = {
  1: 'A',
  2: 'NS',
  5: 'CNAME',
  6: 'SOA',
  10: 'NULL',
  12: 'PTR',
  15: 'MX',
  16: 'TXT',
  28: 'AAAA',
  33: 'SRV',
  35: 'NAPTR',
  43: 'DS',
  48: 'DNSKEY',
  64: 'SVCB',
  65: 'HTTPS',
  99: 'SPF',
  252: 'AXFR',
  255: 'ANY',
  257: 'CAA',
};

const QTYPE_NAME_SET: ReadonlySet<string> = new Set(Object.values(QTYPE_NAMES));
const DIGITS = /^\d+$/;

/** `a` → `A`, `16` → `TXT`; an unknown number becomes RFC 3597's `TYPE<n>`. */
export function normalizeQtype(qtype: string): string {
  if (QTYPE_NAME_SET.has(qtype)) return qtype;
  const trimmed = qtype.trim();
  if (DIGITS.test(trimmed)) {
    const code = Number(trimmed);
    return QTYPE_NAMES[code] ?? `TYPE${code}`;
  }
  return trimmed.toUpperCase();
}

/** IANA protocol numbers of the transport protocols seen in practice. */
const PROTOCOL_NAMES: Readonly<Record<number, string>> = {
  1: 'icmp',
  2: 'igmp',
  6: 'tcp',
  17: 'udp',
  41: 'ipv6',
  47: 'gre',
  50: 'esp',
  51: 'ah',
  58: 'ipv6-icmp',
  132: 'sctp',
};

/** `TCP` → `tcp`, `6` → `tcp`; an unknown number is kept as its digits. */
export function normalizeProtocol(proto: string): string {
  if (PROTOCOL_NAME_SET.has(proto)) return proto;
  const trimmed = proto.trim();
  if (DIGITS.test(trimmed)) {
    const code = Number(trimmed);
    return PROTOCOL_NAMES[code] ?? String(code);
  }
  return trimmed.toLowerCase();
}

const PROTOCOL_NAME_SET: ReadonlySet<string> = new Set(Object.values(PROTOCOL_NAMES));
