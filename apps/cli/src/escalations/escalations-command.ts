import { parseArgs } from 'node:util';
import { loadConfig, type VigilConfig } from '@vigil/config';
import { UsageError } from '../keys-command';
import { ADD_OPTIONS, escalationBody, type AddOptions } from './escalation-body';
import { errorMessage, operatorRequest, OperatorApiUnavailableError, type OperatorResponse } from './operator-request';

export const ESCALATIONS_USAGE = `  escalations add --workspace W (--webhook URL | --syslog HOST:PORT | --kafka BROKERS --topic T) [options]
                                                                push findings (or alerts) to a SIEM
      [--name N] [--format ocsf|alert] [--min-severity 1-5] [--max-attempts N] [--initial-backoff-ms N] [--max-backoff-ms N]
      [--timeout-ms N (per attempt)] [--json]
      webhook: [--secret-file F] [--header 'Name: value']... [--ca-file F] [--insecure-http]
      syslog:  [--transport tls|tcp] [--encoding json|cef] [--facility 0-23] [--app-name A] [--hostname H]
               [--ca-file F] [--client-cert-file F --client-key-file F]
      kafka:   [--tls] [--ca-file F] [--client-cert-file F --client-key-file F]
               [--sasl-mechanism plain|scram-sha-256|scram-sha-512 --sasl-username U --sasl-password-file F]
  escalations list [--workspace W] [--json]                     destinations (secrets as fingerprints)
  escalations remove <id>                                       stop and delete a destination
  escalations test <id>                                         send a synthetic finding and report the outcome`;

interface ListedDestination {
  id: string;
  name: string;
  workspaceId: string;
  workspaceName?: string;
  kind: string;
  format: string;
  minSeverity: number;
  target: string;
  settings: Record<string, unknown>;
  secret?: string;
}

interface TestOutcome {
  ok: boolean;
  attempts: number;
  errors: string[];
  idempotencyKey: string;
  ms: number;
}

/** `vigil escalations ...` against the running server's operator API; returns the exit code. */
export async function runEscalationsCommand(argv: string[], config: VigilConfig = loadConfig()): Promise<number> {
  const [action, ...rest] = argv;
  try {
    switch (action) {
      case 'add':
        return await add(config, rest);
      case 'list':
        return await list(config, rest);
      case 'remove':
        return await remove(config, rest);
      case 'test':
        return await test(config, rest);
      default:
        throw new UsageError(`escalations takes add, list, remove or test\n${ESCALATIONS_USAGE}`);
    }
  } catch (error) {
    if (!(error instanceof OperatorApiUnavailableError)) throw error;
    process.stderr.write(`vigil: ${error.message}\n`);
    return 1;
  }
}

/** 400 is the caller's mistake (exit 2), anything else the server's (exit 1). */
function failed(response: OperatorResponse): number {
  process.stderr.write(`vigil: ${errorMessage(response)}\n`);
  return response.status === 400 || response.status === 404 ? 2 : 1;
}

function oneId(args: string[], action: string): string {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError(`escalations ${action} takes one destination id (see "escalations list")`);
  return positionals[0];
}

async function add(config: VigilConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { ...ADD_OPTIONS, json: { type: 'boolean' } } });
  if (positionals.length) throw new UsageError(`escalations add takes options only, got "${positionals[0]}"`);
  const response = await operatorRequest(config, { method: 'POST', path: '/admin/v1/escalations', body: escalationBody(values as AddOptions) });
  if (response.status !== 201 && response.status !== 200) return failed(response);
  const created = response.body as ListedDestination;
  if (values.json) {
    process.stdout.write(JSON.stringify(created, null, 2) + '\n');
    return 0;
  }
  const lines = [`escalation ${created.id} added: ${created.kind} ${created.target} (${created.name}, workspace ${created.workspaceName ?? created.workspaceId}, format ${created.format}, min severity ${created.minSeverity})`];
  if (created.secret !== undefined) lines.push(`webhook signing secret (shown once, store it now): ${created.secret}`);
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

async function list(config: VigilConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { workspace: { type: 'string' }, json: { type: 'boolean' } } });
  if (positionals.length) throw new UsageError(`escalations list takes no arguments, got "${positionals[0]}"`);
  const query = values.workspace === undefined ? '' : `?workspace=${encodeURIComponent(values.workspace)}`;
  const response = await operatorRequest(config, { method: 'GET', path: `/admin/v1/escalations${query}` });
  if (response.status !== 200) return failed(response);
  const destinations = response.body as ListedDestination[];
  if (values.json) {
    process.stdout.write(JSON.stringify(destinations, null, 2) + '\n');
    return 0;
  }
  if (destinations.length === 0) {
    process.stdout.write('no escalation destinations\n');
    return 0;
  }
  const rows = destinations.map((d) =>
    [d.id, d.name, d.workspaceName ?? d.workspaceId, d.kind, d.format, d.minSeverity, d.target, secretsOf(d.settings)].join('\t'),
  );
  process.stdout.write(['ID\tNAME\tWORKSPACE\tKIND\tFORMAT\tMIN_SEVERITY\tTARGET\tSECRETS', ...rows].join('\n') + '\n');
  return 0;
}

/** The fingerprints a listing shows for a destination's secrets, e.g. `secret=sha256:… Authorization=sha256:…`. */
function secretsOf(settings: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const key of ['secret', 'clientKey']) if (typeof settings[key] === 'string') parts.push(`${key}=${settings[key] as string}`);
  for (const [name, value] of Object.entries((settings.headers as Record<string, string> | undefined) ?? {})) parts.push(`${name}=${value}`);
  const password = (settings.sasl as { password?: string } | undefined)?.password;
  if (password) parts.push(`sasl=${password}`);
  return parts.join(' ') || '-';
}

async function remove(config: VigilConfig, args: string[]): Promise<number> {
  const id = oneId(args, 'remove');
  const response = await operatorRequest(config, { method: 'DELETE', path: `/admin/v1/escalations/${encodeURIComponent(id)}` });
  if (response.status !== 200) return failed(response);
  process.stdout.write(`escalation ${id} removed\n`);
  return 0;
}

async function test(config: VigilConfig, args: string[]): Promise<number> {
  const id = oneId(args, 'test');
  const response = await operatorRequest(config, { method: 'POST', path: `/admin/v1/escalations/${encodeURIComponent(id)}/test`, timeoutMs: 60_000 });
  if (response.status !== 200) return failed(response);
  const outcome = response.body as TestOutcome;
  const lines = outcome.ok
    ? [`delivered: test finding ${outcome.idempotencyKey} accepted after ${outcome.attempts} attempt(s) in ${outcome.ms} ms`]
    : [`FAILED after ${outcome.attempts} attempt(s) in ${outcome.ms} ms (test finding ${outcome.idempotencyKey})`];
  outcome.errors.forEach((error, i) => lines.push(`  attempt ${i + 1}: ${error}`));
  (outcome.ok ? process.stdout : process.stderr).write(lines.join('\n') + '\n');
  return outcome.ok ? 0 : 1;
}
