import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '@vigil/config';
import { ESCALATIONS_USAGE, runEscalationsCommand } from './escalations/escalations-command';
import { runExplainDns } from './explain-command';
import { IMPORT_USAGE, ImportUsageError, runImport } from './import/import-command';
import { runKeysCommand, UsageError, type KeysInvocation } from './keys-command';
import { runSftpKeysCommand, SFTP_KEYS_USAGE } from './sftp-keys/sftp-keys-command';
import { runTelemetryCommand, TELEMETRY_USAGE } from './telemetry/telemetry-command';

const USAGE = `usage: npm run vigil -- <command>
  keys create [--workspace NAME] [--inactive] [--expires 30d]   create a key (printed once)
  keys list                                                     list keys (prefixes only)
  keys activate <prefix>                                        activate a key
  keys revoke <prefix>                                          revoke a key
  keys expire <prefix> <30d | RFC 3339 date-time | never>       set or clear a key's expiry
  explain dns [--json] <name>... | -                            the engine's view of DNS names (stdin: one per line)
${ESCALATIONS_USAGE}
${TELEMETRY_USAGE}
${SFTP_KEYS_USAGE}
${IMPORT_USAGE}`;

async function main(argv: string[]): Promise<number> {
  // These groups parse their own options (they talk to the running server's operator API).
  if (argv[0] === 'escalations') return runEscalationsCommand(argv.slice(1));
  if (argv[0] === 'telemetry') return runTelemetryCommand(argv.slice(1));
  if (argv[0] === 'import') return runImport(argv.slice(1));
  if (argv[0] === 'sftp-keys') return runSftpKeysCommand(argv.slice(1));
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      workspace: { type: 'string' },
      inactive: { type: 'boolean' },
      expires: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
      json: { type: 'boolean' },
    },
  });
  const [group, action, prefix, when] = positionals;
  if (group === 'explain' && action === 'dns') {
    process.stdout.write((await runExplainDns(positionals.slice(2), values.json ?? false)) + '\n');
    return 0;
  }
  if (values.help || group !== 'keys' || !['create', 'list', 'activate', 'revoke', 'expire'].includes(action ?? '')) {
    process.stderr.write(USAGE + '\n');
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const output = await runKeysCommand(config, { action: action as KeysInvocation['action'], prefix, workspace: values.workspace, inactive: values.inactive, expires: values.expires, when });
  process.stdout.write(output + '\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ImportUsageError || error instanceof ConfigError || (error as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      process.stderr.write(`vigil: ${(error as Error).message}\n`);
      process.exit(2);
    }
    process.stderr.write(`vigil: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
