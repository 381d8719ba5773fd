import { isIP } from 'node:net';

/**
 * True for an IPv4 (dotted quad) or IPv6 address, by node:net `isIP`, except that IPv6 zone ids
 * (`fe80::1%eth0`), which `isIP` accepts, are refused: they mean nothing outside the host that wrote them.
 */
export function isIpAddress(value: string): boolean {
  return isIP(value) !== 0 && !value.includes('%');
}
