/** Argument checks shared by the generators: bad input gets a RangeError that names it. */

export function checkCount(n: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`event count must be a non-negative integer, got ${n}`);
}

export function checkDomain(domain: string, name: string): void {
  if (!/^(?=.{3,200}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,61}[a-z0-9]$/.test(domain)) {
    throw new RangeError(`${name} must be a lower-case DNS name such as "tunnel.example", got "${domain}"`);
  }
}
