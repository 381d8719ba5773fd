import * as path from 'node:path';

/**
 * The project's shared reference material (API spec, client notes, reference data). It sits beside the
 * repository checkout (`../shared`), also in CI; VIGIL_SHARED_DIR overrides.
 */
export function sharedDir(...parts: string[]): string {
  const root = process.env.VIGIL_SHARED_DIR ?? path.resolve(__dirname, '../../../../shared');
  return path.join(root, ...parts);
}
