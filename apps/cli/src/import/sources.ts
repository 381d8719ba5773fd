import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';

/**
 * The files named on the command line: plain paths, glob patterns (`'logs/*.log.gz'`, expanded here when the
 * shell did not) and directories (every file below them, in name order). `exclude` (the state file) is left out.
 */
export async function expandSources(args: readonly string[], exclude: readonly string[] = []): Promise<{ files: string[]; missing: string[] }> {
  const files: string[] = [];
  const missing: string[] = [];
  const excluded = new Set(exclude.map((file) => path.resolve(file)));
  for (const arg of args) {
    const stat = await fs.stat(arg).catch(() => undefined);
    if (stat?.isFile()) files.push(arg);
    else if (stat?.isDirectory()) files.push(...(await glob('**/*', { cwd: arg, absolute: true, onlyFiles: true, dot: false })).sort());
    else if (isDynamicPattern(arg)) {
      const matches = (await glob(arg, { absolute: false, onlyFiles: true })).sort();
      if (matches.length === 0) missing.push(arg);
      files.push(...matches);
    } else missing.push(arg);
  }
  const unique = [...new Set(files.map((file) => path.resolve(file)))].filter((file) => !excluded.has(file) && !/\.(lock|tmp)$/.test(file) && !excluded.has(file.replace(/\.\d+\.tmp$/, '')));
  return { files: unique, missing };
}
