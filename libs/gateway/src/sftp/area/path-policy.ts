/**
 * What a path an SFTP client sends may name. Each workspace sees its upload area as the root `/` (its home
 * directory): the area itself, or a file directly in it. Paths are taken relative to the area whether they start
 * with `/` or not; any `..` segment is traversal and refused outright (never clamped to the root), and a path
 * with a directory part (`/etc/passwd`, `sub/x.log`, `~/x`) names something outside the area.
 */
export type AreaPath = { kind: 'root' } | { kind: 'file'; name: string };

export type PathRefusal = 'traversal' | 'outside_area' | 'invalid_name';

export type PathVerdict = { ok: true; path: AreaPath } | { ok: false; reason: PathRefusal; message: string };

export const MAX_FILE_NAME_LENGTH = 255;
const MAX_PATH_LENGTH = 4096;

export function resolveAreaPath(raw: string): PathVerdict {
  if (raw.length > MAX_PATH_LENGTH) return refuse('invalid_name', 'the path is too long');
  // Control characters (NUL included) and backslashes have no business in a log file's name.
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return refuse('invalid_name', 'the path holds control characters or a backslash');
  const segments = raw.split('/');
  if (segments.includes('..')) return refuse('traversal', 'path traversal ("..") is refused');
  const parts = segments.filter((segment) => segment !== '' && segment !== '.');
  if (parts.length === 0) return { ok: true, path: { kind: 'root' } };
  if (parts.length > 1) return refuse('outside_area', 'only files directly in your upload area (/) can be used');
  const name = parts[0];
  if (name.length > MAX_FILE_NAME_LENGTH) return refuse('invalid_name', `file names are at most ${MAX_FILE_NAME_LENGTH} characters`);
  return { ok: true, path: { kind: 'file', name } };
}

/** The absolute form the client is shown (REALPATH): `/` or `/<name>`. */
export function displayPath(path: AreaPath): string {
  return path.kind === 'root' ? '/' : `/${path.name}`;
}

function refuse(reason: PathRefusal, message: string): PathVerdict {
  return { ok: false, reason, message };
}
