export const SESSION_COOKIE = 'vigil_console';

/** The value of one cookie from a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The session cookie: HTTP-only, SameSite=Strict, scoped to /console, Secure when served over TLS. */
export function sessionCookie(id: string, maxAgeSeconds: number, secure: boolean): string {
  return [`${SESSION_COOKIE}=${id}`, 'Path=/console', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`, ...(secure ? ['Secure'] : [])].join('; ');
}

export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie('', 0, secure);
}
