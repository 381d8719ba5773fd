export type ImportMode = 'merge' | 'replace';

export interface UploadOptions {
  mode: ImportMode;
  dryRun: boolean;
}

/** Query parameters of POST /v1/detections; an unknown value is an error message, never a silent default. */
export function parseUploadOptions(query: Record<string, unknown>): UploadOptions | string {
  const single = (name: string): string | undefined | string[] => {
    const v = query[name];
    return Array.isArray(v) ? v.map(String) : v === undefined ? undefined : String(v);
  };
  const mode = single('import_mode');
  const dryRun = single('dry_run');
  if (Array.isArray(mode)) return 'import_mode must be given once';
  if (Array.isArray(dryRun)) return 'dry_run must be given once';
  if (mode !== undefined && mode !== 'merge' && mode !== 'replace') return `import_mode ${JSON.stringify(mode)} is not supported; use merge (default) or replace`;
  if (dryRun !== undefined && dryRun !== 'true' && dryRun !== 'false') return `dry_run ${JSON.stringify(dryRun)} is not a boolean; use true or false (default)`;
  return { mode: mode ?? 'merge', dryRun: dryRun === 'true' };
}

/** Media types accepted for the archive: the spec's `application/zip` and the spelling Windows clients send. */
const ZIP_MEDIA_TYPES = new Set(['application/zip', 'application/x-zip-compressed']);

export function isZipContentType(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return false;
  return ZIP_MEDIA_TYPES.has(value.split(';')[0].trim().toLowerCase());
}
