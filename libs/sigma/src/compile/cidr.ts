/** An IP address as 16 bytes (IPv4 as IPv4-mapped IPv6), or undefined when the text is not an address. */
export function parseIp(text: string): Uint8Array | undefined {
  const s = text.trim().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (s.includes(':')) return parseIpv6(s);
  const v4 = parseIpv4(s);
  if (!v4) return undefined;
  const out = new Uint8Array(16);
  out[10] = out[11] = 0xff;
  out.set(v4, 12);
  return out;
}

function parseIpv4(s: string): Uint8Array | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    if (!/^\d{1,3}$/.test(parts[i])) return undefined;
    const n = Number(parts[i]);
    if (n > 255) return undefined;
    out[i] = n;
  }
  return out;
}

function parseIpv6(s: string): Uint8Array | undefined {
  let head = s;
  let tailV4: Uint8Array | undefined;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    tailV4 = parseIpv4(s.slice(lastColon + 1));
    if (!tailV4) return undefined;
    head = s.slice(0, lastColon + 1) + '0:0';
  }
  const halves = head.split('::');
  if (halves.length > 2) return undefined;
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(halves[0]);
  const right = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...right];
  const out = new Uint8Array(16);
  for (let i = 0; i < 8; i++) {
    if (!/^[0-9a-f]{1,4}$/i.test(all[i])) return undefined;
    const n = parseInt(all[i], 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 0xff;
  }
  if (tailV4) out.set(tailV4, 12);
  return out;
}

export interface Cidr {
  network: Uint8Array;
  /** Prefix length over the 128-bit form (IPv4 prefixes are shifted by 96). */
  bits: number;
}

/** Parses `10.0.0.0/8`, `2001:db8::/32` or a bare address; returns an error message when invalid. */
export function parseCidr(text: string): Cidr | string {
  const [addr, len, extra] = text.split('/');
  if (extra !== undefined) return `'${text}' is not a CIDR block`;
  const ip = parseIp(addr);
  if (!ip) return `'${text}' is not a CIDR block: '${addr}' is not an IPv4 or IPv6 address`;
  const isV4 = !addr.includes(':');
  const max = isV4 ? 32 : 128;
  if (len !== undefined && !/^\d{1,3}$/.test(len)) return `'${text}' is not a CIDR block: bad prefix length`;
  const prefix = len === undefined ? max : Number(len);
  if (prefix > max) return `'${text}' is not a CIDR block: prefix length ${prefix} exceeds ${max}`;
  return { network: ip, bits: isV4 ? prefix + 96 : prefix };
}

export function cidrContains(cidr: Cidr, ip: Uint8Array): boolean {
  const full = cidr.bits >> 3;
  for (let i = 0; i < full; i++) if (cidr.network[i] !== ip[i]) return false;
  const rest = cidr.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (cidr.network[full] & mask) === (ip[full] & mask);
}
