import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseArgs } from 'node:util';
import { CertificateIndex, isLogFormat, LOG_FORMATS, type LogFormat } from '@vigil/log-formats';
import { DEFAULT_LIMITS, type BatchLimits } from './batch';
import { CheckpointStore } from './checkpoint-store';
import { EventsClient, ImportRefusedError } from './events-client';
import { FileImport, UnknownFormatError, type ImportContext } from './file-import';
import { followPath } from './follow';
import { Progress } from './progress';
import { expandSources } from './sources';
import { ImportTally } from './tally';

export const IMPORT_USAGE = `  import [--format NAME] [--url URL] [--key KEY] [--follow] [--state FILE] [--json] PATH...
                                                                send log files (files, globs, directories; gzip too) through the API
      formats: ${LOG_FORMATS.join(', ')} (default: detected per file)
      --url/--key default to VIGIL_URL (else http://127.0.0.1:8080) and VIGIL_API_KEY; --state defaults to ~/.vigil/import-state.json
      --follow keeps reading the files as they grow, across rotation, until interrupted (Ctrl-C)
      --json prints the summary as JSON; --no-progress hides the progress display
      tuning: [--concurrency 1-16 (2)] [--max-batch-events N (65535)] [--max-batch-bytes N (10000000)]
              [--retry-for SECONDS (900)] [--poll-ms N (250)] [--flush-ms N (1000)]`;

export class ImportUsageError extends Error {}

interface ImportOptions {
  paths: string[];
  format?: LogFormat;
  url: string;
  key: string;
  follow: boolean;
  state: string;
  json: boolean;
  progress: boolean;
  concurrency: number;
  limits: BatchLimits;
  retryForMs: number;
  pollMs: number;
  flushMs: number;
}

export function parseImportArgs(argv: string[], env: NodeJS.ProcessEnv): ImportOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      format: { type: 'string' },
      url: { type: 'string' },
      key: { type: 'string' },
      follow: { type: 'boolean' },
      state: { type: 'string' },
      json: { type: 'boolean' },
      'no-progress': { type: 'boolean' },
      concurrency: { type: 'string' },
      'max-batch-events': { type: 'string' },
      'max-batch-bytes': { type: 'string' },
      'retry-for': { type: 'string' },
      'poll-ms': { type: 'string' },
      'flush-ms': { type: 'string' },
    },
  });
  if (positionals.length === 0) throw new ImportUsageError('import needs at least one file, glob or directory');
  if (values.format !== undefined && !isLogFormat(values.format)) throw new ImportUsageError(`unknown --format "${values.format}"; one of ${LOG_FORMATS.join(', ')}`);
  const key = values.key ?? env.VIGIL_API_KEY;
  if (!key) throw new ImportUsageError('an API key is needed: --key KEY or VIGIL_API_KEY');
  const url = values.url ?? env.VIGIL_URL ?? 'http://127.0.0.1:8080';
  if (!/^https?:\/\//.test(url)) throw new ImportUsageError(`--url must be an http(s) URL, got "${url}"`);
  const int = (name: string, raw: string | undefined, fallback: number, min: number, max: number) => {
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new ImportUsageError(`--${name} must be a whole number from ${min} to ${max}`);
    return n;
  };
  return {
    paths: positionals,
    format: values.format as LogFormat | undefined,
    url,
    key,
    follow: values.follow ?? false,
    state: values.state ?? path.join(os.homedir(), '.vigil', 'import-state.json'),
    json: values.json ?? false,
    progress: !(values['no-progress'] ?? false),
    concurrency: int('concurrency', values.concurrency, 2, 1, 16),
    limits: {
      maxEvents: int('max-batch-events', values['max-batch-events'], DEFAULT_LIMITS.maxEvents, 1, DEFAULT_LIMITS.maxEvents),
      maxBytes: int('max-batch-bytes', values['max-batch-bytes'], DEFAULT_LIMITS.maxBytes, 128 * 1024, DEFAULT_LIMITS.maxBytes),
    },
    retryForMs: int('retry-for', values['retry-for'], 900, 1, 86_400) * 1000,
    pollMs: int('poll-ms', values['poll-ms'], 250, 10, 60_000),
    flushMs: int('flush-ms', values['flush-ms'], 1000, 10, 600_000),
  };
}

/** `vigil import`: returns the process exit code (0: every file done; 1: some failed; the summary says which). */
export async function runImport(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`usage: npm run vigil --${IMPORT_USAGE.slice(1)}\n`);
    return 0;
  }
  const options = parseImportArgs(argv, env);
  const { files, missing } = await expandSources(options.paths, [options.state]);
  const tally = new ImportTally();
  for (const name of missing) tally.filesFailed.push({ path: name, error: 'no such file' });
  const sizes = await Promise.all(files.map((file) => fs.stat(file).then((s) => s.size, () => 0)));
  const progress = new Progress(options.follow ? undefined : sizes.reduce((a, b) => a + b, 0), process.stderr, 5000, options.progress);
  const store = await CheckpointStore.open(options.state);
  const client = new EventsClient({
    url: options.url,
    key: options.key,
    retryForMs: options.follow ? Number.MAX_SAFE_INTEGER : options.retryForMs,
    onRetry: (reason, waitMs) => process.stderr.write(`import: ${reason}; retrying in ${(waitMs / 1000).toFixed(1)} s\n`),
  });
  const ctx: ImportContext = { client, store, tally, progress, certificates: new CertificateIndex(), format: options.format, limits: options.limits, concurrency: options.concurrency };
  progress.start();
  let fatal: unknown;
  try {
    if (options.follow) await followAll(ctx, files, options);
    else await importAll(ctx, orderForJoins(files));
  } catch (error) {
    fatal = error;
  } finally {
    progress.stop();
    await store.close();
  }
  if (fatal !== undefined) {
    if (!(fatal instanceof ImportRefusedError)) process.stderr.write(`vigil import: ${fatal instanceof Error ? fatal.stack : String(fatal)}\n`);
    else process.stderr.write(`vigil import: ${fatal.message}\n`);
  }
  process.stdout.write((options.json ? JSON.stringify(tally.toJSON()) : tally.format()) + '\n');
  return fatal !== undefined || tally.filesFailed.length > 0 ? 1 : 0;
}

/** x509 logs first, so ssl records of the same import find their certificates. */
function orderForJoins(files: string[]): string[] {
  const isX509 = (file: string) => /(^|[\\/])x509[^\\/]*$/.test(file);
  return [...files.filter(isX509), ...files.filter((file) => !isX509(file))];
}

async function importAll(ctx: ImportContext, files: string[]): Promise<void> {
  for (const file of files) {
    const handle = await fs.open(file, 'r').catch((error: NodeJS.ErrnoException) => {
      ctx.tally.filesFailed.push({ path: file, error: error.code ?? error.message });
      return undefined;
    });
    if (handle === undefined) continue;
    try {
      const fileImport = await FileImport.open(ctx, file, handle);
      if (await fileImport.alreadyDone()) {
        ctx.progress.bytes((await handle.stat()).size);
        ctx.tally.filesCompleted.push(`${file} (already imported)`);
        continue;
      }
      await fileImport.importAll();
    } catch (error) {
      if (!(error instanceof UnknownFormatError)) throw error;
      ctx.tally.filesFailed.push({ path: file, error: error.message });
    } finally {
      await handle.close();
    }
  }
}

async function followAll(ctx: ImportContext, files: string[], options: ImportOptions): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const followers = files.map((file) =>
      followPath(ctx, file, controller.signal, { pollMs: options.pollMs, flushMs: options.flushMs }).catch((error: unknown) => {
        if (error instanceof ImportRefusedError) {
          controller.abort();
          throw error;
        }
        ctx.tally.filesFailed.push({ path: file, error: error instanceof Error ? error.message : String(error) });
      }),
    );
    await Promise.all(followers);
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
