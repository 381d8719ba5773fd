import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '@vigil/config';
import { runExplainDns } from './explain-command';
import { runKeysCommand, UsageError, type KeysInvocation } from './keys-command';

const USAGE = `usage: npm run vigil -- <command>
  keys create [--workspace NAME] [--inactive] [--expires 30d]   create a key (printed once)
  keys list                                                     list keys (prefixes only)
  keys activate <prefix>                                        activate a key
  keys revoke <prefix>                                          revoke a key
  explain dns [--json] <name>... | -                            the engine's view of DNS names (stdin: one per line)`;

async function main(argv: string[]): Promise<number> {
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
  const [group, action, prefix] = positionals;
  if (group === 'explain' && action === 'dns') {
    process.stdout.write((await runExplainDns(positionals.slice(2), values.json ?? false)) + '\n');
    return 0;
  }
  if (values.help || group !== 'keys' || !['create', 'list', 'activate', 'revoke'].includes(action ?? '')) {
    process.stderr.write(USAGE + '\n');
    return values.help ? 0 : 2;
  }
  const config = loadConfig();
  const output = await runKeysCommand(config, { action: action as KeysInvocation['action'], prefix, workspace: values.workspace, inactive: values.inactive, expires: values.expires });
  process.stdout.write(output + '\n');
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError || (error as { code?: string })?.code?.startsWith?.('ERR_PARSE_ARGS')) {
      process.stderr.write(`vigil: ${(error as Error).message}\n`);
      process.exit(2);
    }
    process.stderr.write(`vigil: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
