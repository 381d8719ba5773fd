import * as fs from 'node:fs';
import { UsageError } from '../keys-command';

/** Options of `vigil escalations add`, as parsed from the command line. */
export interface AddOptions {
  workspace?: string;
  name?: string;
  format?: string;
  'min-severity'?: string;
  webhook?: string;
  syslog?: string;
  kafka?: string;
  topic?: string;
  'secret-file'?: string;
  header?: string[];
  'ca-file'?: string;
  'insecure-http'?: boolean;
  transport?: string;
  encoding?: string;
  facility?: string;
  'app-name'?: string;
  hostname?: string;
  'client-cert-file'?: string;
  'client-key-file'?: string;
  tls?: boolean;
  'sasl-mechanism'?: string;
  'sasl-username'?: string;
  'sasl-password-file'?: string;
  'max-attempts'?: string;
  'initial-backoff-ms'?: string;
  'max-backoff-ms'?: string;
  'timeout-ms'?: string;
}

/** parseArgs option types of `escalations add` (every value is checked again by the server). */
export const ADD_OPTIONS = {
  workspace: { type: 'string' },
  name: { type: 'string' },
  format: { type: 'string' },
  'min-severity': { type: 'string' },
  webhook: { type: 'string' },
  syslog: { type: 'string' },
  kafka: { type: 'string' },
  topic: { type: 'string' },
  'secret-file': { type: 'string' },
  header: { type: 'string', multiple: true },
  'ca-file': { type: 'string' },
  'insecure-http': { type: 'boolean' },
  transport: { type: 'string' },
  encoding: { type: 'string' },
  facility: { type: 'string' },
  'app-name': { type: 'string' },
  hostname: { type: 'string' },
  'client-cert-file': { type: 'string' },
  'client-key-file': { type: 'string' },
  tls: { type: 'boolean' },
  'sasl-mechanism': { type: 'string' },
  'sasl-username': { type: 'string' },
  'sasl-password-file': { type: 'string' },
  'max-attempts': { type: 'string' },
  'initial-backoff-ms': { type: 'string' },
  'max-backoff-ms': { type: 'string' },
  'timeout-ms': { type: 'string' },
} as const;

function readFile(option: string, file: string | undefined): string | undefined {
  if (file === undefined) return undefined;
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--${option}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** A secret file's content without the trailing newline editors add. */
function readSecretFile(option: string, file: string | undefined): string | undefined {
  return readFile(option, file)?.replace(/\r?\n$/, '');
}

function integer(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new UsageError(`--${option} takes a whole number, got "${value}"`);
  return Number(value);
}

function withoutUndefined(object: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));
}

/** `Name: value` → [name, value]. */
function header(text: string): [string, string] {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new UsageError(`--header takes "Name: value", got "${text.slice(0, 40)}"`);
  return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
}

/** The `POST /admin/v1/escalations` body for `vigil escalations add`. Secrets come from files, never from argv. */
export function escalationBody(options: AddOptions): Record<string, unknown> {
  if (!options.workspace) throw new UsageError('escalations add needs --workspace (a workspace name or id)');
  const kinds = (['webhook', 'syslog', 'kafka'] as const).filter((kind) => options[kind] !== undefined);
  if (kinds.length !== 1) throw new UsageError('escalations add needs exactly one of --webhook URL, --syslog HOST:PORT, --kafka BROKERS --topic TOPIC');
  const tlsFiles = {
    caCert: readFile('ca-file', options['ca-file']),
    clientCert: readFile('client-cert-file', options['client-cert-file']),
    clientKey: readFile('client-key-file', options['client-key-file']),
  };
  let target: Record<string, unknown>;
  switch (kinds[0]) {
    case 'webhook':
      target = {
        url: options.webhook,
        secret: readSecretFile('secret-file', options['secret-file']),
        headers: options.header?.length ? Object.fromEntries(options.header.map(header)) : undefined,
        caCert: tlsFiles.caCert,
        allowHttp: options['insecure-http'],
      };
      break;
    case 'syslog': {
      const match = /^(.+):(\d{1,5})$/.exec(options.syslog!);
      if (!match) throw new UsageError(`--syslog takes HOST:PORT, got "${options.syslog}"`);
      target = {
        host: match[1].replace(/^\[(.*)\]$/, '$1'),
        port: Number(match[2]),
        transport: options.transport,
        encoding: options.encoding,
        facility: integer('facility', options.facility),
        appName: options['app-name'],
        hostname: options.hostname,
        ...tlsFiles,
      };
      break;
    }
    case 'kafka': {
      const password = readSecretFile('sasl-password-file', options['sasl-password-file']);
      const sasl = options['sasl-username'] !== undefined || password !== undefined ? withoutUndefined({ mechanism: options['sasl-mechanism'], username: options['sasl-username'], password }) : undefined;
      target = { brokers: options.kafka!.split(',').map((b) => b.trim()), topic: options.topic, tls: options.tls, sasl, ...tlsFiles };
      break;
    }
  }
  target.timeoutMs = integer('timeout-ms', options['timeout-ms']);
  const retry = withoutUndefined({
    maxAttempts: integer('max-attempts', options['max-attempts']),
    initialBackoffMs: integer('initial-backoff-ms', options['initial-backoff-ms']),
    maxBackoffMs: integer('max-backoff-ms', options['max-backoff-ms']),
  });
  return withoutUndefined({
    workspace: options.workspace,
    name: options.name,
    format: options.format,
    minSeverity: integer('min-severity', options['min-severity']),
    retry: Object.keys(retry).length ? retry : undefined,
    [kinds[0]]: withoutUndefined(target),
  });
}
