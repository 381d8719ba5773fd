import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The module `name` next to `callerFile`, with the caller's own extension: `.ts` when the code runs from source
 * (development, Jest), `.js` when it runs built (`dist/`, where tsc wrote the sibling next to the caller). Pass
 * `__filename`. The sibling must be compiled too: import something from it (a type is enough) in the caller.
 */
export function siblingModule(callerFile: string, name: string): string {
  const extension = path.extname(callerFile);
  const candidate = path.join(path.dirname(callerFile), name + extension);
  if (!fs.existsSync(candidate)) throw new Error(`worker task module ${candidate} does not exist`);
  return candidate;
}

/** The repository's TypeScript loader (tools/register.cjs) at or above `dir`, for threads running from source. */
export function nearestTypeScriptLoader(dir: string): string | undefined {
  for (let current = dir; ; current = path.dirname(current)) {
    const candidate = path.join(current, 'tools', 'register.cjs');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * Source of the tiny script each worker thread starts with (run with `eval`, so no extra file has to ship with
 * the build). Threads inherit the process's `execArgv`, so under `node -r ./tools/register.cjs` they load `.ts`
 * already; under Jest, whose transform does not reach threads, the script registers the repository's loader
 * itself, and only for a `.ts` runtime. Built code (`.js`) needs neither.
 */
export function bootstrapSource(): string {
  return [
    "const { workerData } = require('node:worker_threads');",
    "if (workerData.runtime.endsWith('.ts') && !require.extensions['.ts']) require(workerData.typeScriptLoader);",
    'require(workerData.runtime);',
  ].join('\n');
}
