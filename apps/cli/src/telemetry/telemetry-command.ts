import { parseArgs } from 'node:util';
import { loadConfig, type VigilConfig } from '@vigil/config';
import { errorMessage, OperatorApiUnavailableError, operatorStream } from '../escalations/operator-request';
import { UsageError } from '../keys-command';

export const TELEMETRY_USAGE = `  telemetry search --workspace W [--host IP|NAME] [--since 2h|ISO] [--until ISO] [--type dns,ip,...] [--limit N]
                                                                archived events as NDJSON on stdout (30 days kept, ≤ 24 h per search)`;

/**
 * `vigil telemetry search`: streams archived events from the running server's operator API to stdout, one JSON
 * event per line; the server's closing control line (cut at the limit, or failed) goes to stderr instead.
 */
export async function runTelemetryCommand(argv: string[], config: VigilConfig = loadConfig()): Promise<number> {
  const [action, ...rest] = argv;
  if (action !== 'search') throw new UsageError(`telemetry takes search\n${TELEMETRY_USAGE}`);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { workspace: { type: 'string' }, host: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' }, type: { type: 'string' }, limit: { type: 'string' } },
  });
  if (positionals.length) throw new UsageError(`telemetry search takes options only, got "${positionals[0]}"`);
  if (!values.workspace) throw new UsageError('telemetry search needs --workspace (a workspace name or id)');
  const query = new URLSearchParams(Object.entries(values).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  let exitCode = 0;
  try {
    const response = await operatorStream(config, `/admin/v1/telemetry?${query}`, (line) => {
      if (line.startsWith('{"truncated"')) {
        process.stderr.write(`vigil: more events matched; output stopped at --limit ${values.limit ?? 'default (1000)'}; narrow the search\n`);
        return true;
      }
      if (line.startsWith('{"error"')) {
        process.stderr.write(`vigil: ${(JSON.parse(line) as { error: string }).error}\n`);
        exitCode = 1;
        return true;
      }
      return process.stdout.write(line + '\n');
    });
    if (response.status !== 200) {
      process.stderr.write(`vigil: ${errorMessage(response)}\n`);
      return response.status === 400 ? 2 : 1;
    }
    // The caller exits the process next: let a piped stdout take everything first.
    await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
    return exitCode;
  } catch (error) {
    if (!(error instanceof OperatorApiUnavailableError)) throw error;
    process.stderr.write(`vigil: ${error.message}\n`);
    return 1;
  }
}
