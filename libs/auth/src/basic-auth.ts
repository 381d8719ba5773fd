/**
 * Reads the API key from an HTTP Basic `Authorization` header: the key is the user name and the password is
 * ignored (clients send an empty one, or `-`). Returns undefined when the header is absent or malformed.
 */
export function apiKeyFromAuthorization(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const user = colon === -1 ? decoded : decoded.slice(0, colon);
  return user.trim() || undefined;
}
