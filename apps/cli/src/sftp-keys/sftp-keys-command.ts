import * as fs from 'node:fs';
import { parseArgs } from 'node:util';
import { loadConfig, type VigilConfig } from '@vigil/config';
import { errorMessage, OperatorApiUnavailableError, operatorRequest, type OperatorResponse } from '../escalations/operator-request';
import { UsageError } from '../keys-command';

export const SFTP_KEYS_USAGE = `  sftp-keys add --workspace W [--name N] [--json] <key.pub | ->  let this public key upload logs over SFTP (user = workspace id)
  sftp-keys list [--workspace W] [--json]                       registered SFTP keys (fingerprints)
  sftp-keys remove <id>                                         stop accepting a key`;

interface ListedKey {
  id: string;
  workspaceId: string;
  workspaceName?: string;
  name: string;
  algorithm: string;
  fingerprint: string;
  createdAt: string;
}

/** `vigil sftp-keys ...` against the running server's operator API; returns the exit code. */
export async function runSftpKeysCommand(argv: string[], config: VigilConfig = loadConfig()): Promise<number> {
  const [action, ...rest] = argv;
  try {
    switch (action) {
      case 'add':
        return await add(config, rest);
      case 'list':
        return await list(config, rest);
      case 'remove':
        return await remove(config, rest);
      default:
        throw new UsageError(`sftp-keys takes add, list or remove\n${SFTP_KEYS_USAGE}`);
    }
  } catch (error) {
    if (!(error instanceof OperatorApiUnavailableError)) throw error;
    process.stderr.write(`vigil: ${error.message}\n`);
    return 1;
  }
}

/** 400 and 404 are the caller's mistake (exit 2), anything else the server's (exit 1). */
function failed(response: OperatorResponse): number {
  process.stderr.write(`vigil: ${errorMessage(response)}\n`);
  return response.status === 400 || response.status === 404 ? 2 : 1;
}

async function add(config: VigilConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { workspace: { type: 'string' }, name: { type: 'string' }, json: { type: 'boolean' } } });
  if (!values.workspace) throw new UsageError('sftp-keys add needs --workspace (a workspace name or id)');
  if (positionals.length !== 1) throw new UsageError('sftp-keys add takes one public key file (or - for standard input)');
  const publicKey = positionals[0] === '-' ? fs.readFileSync(0, 'utf8') : readKeyFile(positionals[0]);
  const response = await operatorRequest(config, { method: 'POST', path: '/admin/v1/sftp-keys', body: { workspace: values.workspace, publicKey, ...(values.name ? { name: values.name } : {}) } });
  if (response.status !== 201 && response.status !== 200) return failed(response);
  const key = response.body as ListedKey;
  process.stdout.write(
    values.json
      ? JSON.stringify(key, null, 2) + '\n'
      : `SFTP key ${key.id} added: ${key.algorithm} ${key.fingerprint} (${key.name}, workspace ${key.workspaceName ?? key.workspaceId}); sign in as user ${key.workspaceId}\n`,
  );
  return 0;
}

function readKeyFile(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

async function list(config: VigilConfig, args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { workspace: { type: 'string' }, json: { type: 'boolean' } } });
  if (positionals.length) throw new UsageError(`sftp-keys list takes no arguments, got "${positionals[0]}"`);
  const query = values.workspace === undefined ? '' : `?workspace=${encodeURIComponent(values.workspace)}`;
  const response = await operatorRequest(config, { method: 'GET', path: `/admin/v1/sftp-keys${query}` });
  if (response.status !== 200) return failed(response);
  const keys = response.body as ListedKey[];
  if (values.json) {
    process.stdout.write(JSON.stringify(keys, null, 2) + '\n');
    return 0;
  }
  if (keys.length === 0) {
    process.stdout.write('no SFTP keys\n');
    return 0;
  }
  const rows = keys.map((k) => [k.id, k.name, k.workspaceName ?? '-', k.workspaceId, k.algorithm, k.fingerprint, k.createdAt].join('\t'));
  process.stdout.write(['ID\tNAME\tWORKSPACE\tUSER (WORKSPACE ID)\tTYPE\tFINGERPRINT\tCREATED', ...rows].join('\n') + '\n');
  return 0;
}

async function remove(config: VigilConfig, args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  if (positionals.length !== 1) throw new UsageError('sftp-keys remove takes one key id (see "sftp-keys list")');
  const response = await operatorRequest(config, { method: 'DELETE', path: `/admin/v1/sftp-keys/${encodeURIComponent(positionals[0])}` });
  if (response.status !== 200) return failed(response);
  process.stdout.write(`SFTP key ${positionals[0]} removed\n`);
  return 0;
}
