import { isIP } from 'node:net';

/**
 * True for an IPv4 (dotted quad) or IPv6 address, by node:net `isIP`, except that IPv6 zone ids
 * (`fe80::1%eth0`), which `isIP` accepts, are refused: they mean nothing outside the host that wrote them.
 */
export function isIpAddress(value: string): boolean {
  // Nearly every event's source is a plain dotted quad: read by character codes, not by isIP's pattern.
  return isDottedQuad(value) || (isIP(value) !== 0 && !value.includes('%'));
}

const ZERO = 0x30;
const DOT = 0x2e;

/** Four decimal octets 0-255 without leading zeros, as `isIP` accepts them for IPv4. */
export function isDottedQuad(value: string): boolean {
  if (value.length < 7 || value.length > 15) return false;
  let octets = 0;
  let digits = 0;
  let octet = 0;
  for (let i = 0; i <= value.length; i++) {
    const code = i === value.length ? DOT : value.charCodeAt(i);
    if (code === DOT) {
      if (digits === 0 || octet > 255 || ++octets > 4) return false;
      digits = 0;
      octet = 0;
    } else {
      const digit = code - ZERO;
      if (digit < 0 || digit > 9 || (digits === 1 && octet === 0)) return false;
      octet = octet * 10 + digit;
      digits++;
    }
  }
  return octets === 4;
}
