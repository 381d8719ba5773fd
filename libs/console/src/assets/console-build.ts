import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where the console's sources and its built files are. */
export interface ConsolePaths {
  /** apps/console, when the sources are present (a repository checkout); undefined in a built image. */
  sources?: string;
  /** The built files: dist/console of the checkout or of the image. */
  out: string;
}

export interface BuildInfo {
  sourceHash: string;
  builtAt: string;
}

/** Source files that make up a build (everything but generated output and editor litter). */
const IGNORED = new Set(['node_modules', 'dist', '.vite']);

/**
 * Finds the console from this file upwards: a checkout has apps/console/index.html (build into dist/console);
 * a built image has only dist/console (made by `node apps/console/build.mjs` at image build time).
 */
export function locateConsole(start: string = __dirname, cwd: string = process.cwd()): ConsolePaths {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'apps', 'console', 'index.html')) && fs.existsSync(path.join(dir, 'package.json'))) {
      return { sources: path.join(dir, 'apps', 'console'), out: path.join(dir, 'dist', 'console') };
    }
    if (path.dirname(dir) === dir) break;
  }
  return { out: path.join(cwd, 'dist', 'console') };
}

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !IGNORED.has(entry.name))
    .flatMap((entry) => (entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : [path.join(dir, entry.name)]))
    .sort();
}

/** SHA-256 over the relative names and contents of every source file: changes when any source changes. */
export function hashSources(sources: string): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles(sources)) {
    hash.update(path.relative(sources, file).split(path.sep).join('/') + '\0');
    hash.update(fs.readFileSync(file));
    hash.update('\0');
  }
  return hash.digest('hex');
}

export function readBuildInfo(out: string): BuildInfo | undefined {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(out, 'build-info.json'), 'utf8')) as BuildInfo;
    return typeof info.sourceHash === 'string' && fs.existsSync(path.join(out, 'index.html')) ? info : undefined;
  } catch {
    return undefined;
  }
}

/** Why the build must be (re)made, or undefined when it is current. */
export function staleness(paths: ConsolePaths): string | undefined {
  const info = readBuildInfo(paths.out);
  if (paths.sources === undefined) return info ? undefined : `no console build at ${paths.out} and no sources to build it from`;
  if (!info) return 'the console has not been built yet';
  return info.sourceHash === hashSources(paths.sources) ? undefined : 'the console sources changed since the last build';
}

/**
 * Builds the console when its build is missing or stale (Vite, in a child process). Several processes may start
 * at once (tests): each builds into its own directory and renames it into place; a lock directory makes the
 * others wait for the first instead of building too.
 */
export async function ensureConsoleBuilt(paths: ConsolePaths, log: (message: string) => void): Promise<void> {
  const reason = staleness(paths);
  if (reason === undefined) return;
  if (paths.sources === undefined) throw new Error(reason);
  const sources = paths.sources;
  await withLock(`${paths.out}.lock`, async () => {
    if (staleness(paths) === undefined) return;
    const hash = hashSources(sources);
    log(`building the web console (${reason})…`);
    const started = Date.now();
    const temp = `${paths.out}.tmp-${process.pid}`;
    await run(process.execPath, [path.join(sources, 'build.mjs'), temp, hash], path.dirname(path.dirname(sources)));
    fs.rmSync(paths.out, { recursive: true, force: true });
    fs.renameSync(temp, paths.out);
    log(`web console built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });
}

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 300_000 }, (error, _stdout, stderr) => {
      if (error) reject(new Error(`console build failed: ${error.message}\n${stderr}`));
      else resolve();
    });
  });
}

/** A directory as a cross-process lock; one left behind by a dead process (older than 5 minutes) is taken over. */
async function withLock(lock: string, work: () => Promise<void>): Promise<void> {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 300_000) fs.rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      else await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    await work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
