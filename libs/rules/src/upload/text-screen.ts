import type { DetectionValidationError } from '@vigil/contracts';
import { yamlTextError } from '@vigil/sigma';
import type { ZipRuleFile } from './zip-reader';

export interface ScreenedFiles {
  passed: ZipRuleFile[];
  errors: DetectionValidationError[];
}

/** Text scanned between two turns of the event loop: a few milliseconds of work. */
const SLICE_BYTES = 2 * 1024 * 1024;

/**
 * The cheap, linear checks of SIGMA_BUDGET.yaml on each file's raw text (size, structural tokens, flow nesting),
 * done as the archive is read, before a file is handed to the validation worker: a file of 450,000 tiny items is
 * refused here, at the cost of one scan, and never reaches a YAML parser. Yields to the event loop between
 * slices, so a 50 MB archive does not hold up other requests.
 */
export async function screenRuleFiles(files: readonly ZipRuleFile[]): Promise<ScreenedFiles> {
  const out: ScreenedFiles = { passed: [], errors: [] };
  let sinceYield = 0;
  for (const file of files) {
    const error = yamlTextError(file.text);
    if (error) out.errors.push({ fileName: file.fileName, error });
    else out.passed.push(file);
    sinceYield += file.text.length;
    if (sinceYield >= SLICE_BYTES) {
      sinceYield = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
  return out;
}
