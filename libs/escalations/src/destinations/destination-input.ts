import { isIP } from 'node:net';
import { ESCALATION_FORMATS, type ClientCertificate, type EscalationFormat, type EscalationTarget, type KafkaTarget, type RetrySettings, type SyslogTarget, type WebhookTarget } from './destination';
import { InputReader, InvalidDestinationError } from './input-reader';
import { checkClientCertificate, parseCertificates } from './pem';

/**
 * The body of `POST /admin/v1/escalations`, validated. Exactly one of `webhook`, `syslog`, `kafka` describes the
 * target. A webhook without `secret` gets a generated one (returned once by the API).
 */
export interface DestinationInput {
  /** Workspace id or name, resolved by the service. */
  workspace: string;
  name?: string;
  format: EscalationFormat;
  minSeverity: number;
  retry: RetrySettings;
  target: EscalationTarget | (Omit<WebhookTarget, 'secret'> & { secret?: string });
}

export const DEFAULT_RETRY: RetrySettings = { maxAttempts: 8, initialBackoffMs: 1_000, maxBackoffMs: 60_000 };
const DEFAULT_TIMEOUT_MS = 10_000;
const MAX_PEM = 64 * 1024;
const MAX_HEADERS = 20;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;
/** Headers Vigil sets itself (the signature scheme and the body framing depend on them). */
const RESERVED_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'host', 'connection', 'idempotency-key', 'user-agent', 'expect', 'upgrade']);
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*\.?$/;
/** RFC 5424 PRINTUSASCII. */
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;
const KAFKA_TOPIC = /^[A-Za-z0-9._-]{1,249}$/;
const LOOPBACK_NAMES = new Set(['localhost', 'localhost.', 'ip6-localhost']);

export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (LOOPBACK_NAMES.has(bare.toLowerCase())) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1';
  return false;
}

export function parseDestinationInput(body: unknown): DestinationInput {
  const input = InputReader.of(body, '');
  const workspace = input.requiredString('workspace', { max: 200 });
  const name = input.string('name', { max: 100 });
  const format = input.oneOf('format', ESCALATION_FORMATS, 'ocsf');
  const minSeverity = input.integer('minSeverity', 1, 5, 1);
  const retry = readRetry(input.object('retry'));
  const kinds = (['webhook', 'syslog', 'kafka'] as const).filter((kind) => input.has(kind));
  if (kinds.length !== 1) throw new InvalidDestinationError('give exactly one of webhook, syslog, kafka');
  const kind = kinds[0];
  const reader = input.object(kind)!;
  const target = kind === 'webhook' ? readWebhook(reader) : kind === 'syslog' ? readSyslog(reader) : readKafka(reader);
  input.done();
  return { workspace, name, format, minSeverity, retry, target };
}

function readRetry(reader: InputReader | undefined): RetrySettings {
  if (!reader) return { ...DEFAULT_RETRY };
  const maxAttempts = reader.integer('maxAttempts', 1, 50, DEFAULT_RETRY.maxAttempts);
  const initialBackoffMs = reader.integer('initialBackoffMs', 10, 600_000, DEFAULT_RETRY.initialBackoffMs);
  const maxBackoffMs = reader.integer('maxBackoffMs', initialBackoffMs, 3_600_000, Math.max(DEFAULT_RETRY.maxBackoffMs, initialBackoffMs));
  reader.done();
  return { maxAttempts, initialBackoffMs, maxBackoffMs };
}

function readTimeout(reader: InputReader): number {
  return reader.integer('timeoutMs', 1_000, 120_000, DEFAULT_TIMEOUT_MS);
}

function readCaCert(reader: InputReader): string | undefined {
  const pem = reader.string('caCert', { max: MAX_PEM });
  if (pem !== undefined) parseCertificates(pem, reader.name('caCert'));
  return pem;
}

function readClientCertificate(reader: InputReader): ClientCertificate | undefined {
  const cert = reader.string('clientCert', { max: MAX_PEM });
  const key = reader.string('clientKey', { max: MAX_PEM });
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) throw new InvalidDestinationError(`${reader.name('clientCert')} and ${reader.name('clientKey')} go together`);
  checkClientCertificate(cert, key, reader.location);
  return { cert, key };
}

function readWebhook(reader: InputReader): DestinationInput['target'] {
  const rawUrl = reader.requiredString('url', { max: 2048 });
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return reader.fail('url', 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') reader.fail('url', 'must use https (or http)');
  if (url.username !== '' || url.password !== '') reader.fail('url', 'must not carry credentials; send them in a header (headers)');
  if (url.hash !== '') reader.fail('url', 'must not have a #fragment');
  const allowHttp = reader.boolean('allowHttp', false);
  if (url.protocol === 'http:' && !allowHttp && !isLoopbackHost(url.hostname)) {
    reader.fail('url', 'uses plain http to a host that is not loopback; use https, or set allowHttp (CLI --insecure-http) to accept that');
  }
  const secret = reader.string('secret', { min: 16, max: 1024 });
  const headers = readHeaders(reader);
  const caCert = readCaCert(reader);
  if (caCert !== undefined && url.protocol !== 'https:') reader.fail('caCert', 'applies to https URLs only');
  const timeoutMs = readTimeout(reader);
  reader.done();
  return { kind: 'webhook', url: url.toString(), secret, headers, caCert, allowHttp, timeoutMs };
}

function readHeaders(reader: InputReader): Record<string, string> {
  const headers = reader.object('headers');
  if (!headers) return {};
  const out: Record<string, string> = {};
  const raw = reader.raw('headers') as Record<string, unknown>;
  const names = Object.keys(raw);
  if (names.length > MAX_HEADERS) reader.fail('headers', `may hold at most ${MAX_HEADERS} headers`);
  for (const name of names) {
    if (!HEADER_NAME.test(name)) reader.fail('headers', `has an invalid header name ${JSON.stringify(name.slice(0, 64))}`);
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('x-vigil-')) reader.fail('headers', `must not set ${name}: Vigil sets it`);
    if (Object.keys(out).some((existing) => existing.toLowerCase() === lower)) reader.fail('headers', `names ${name} twice`);
    const value = headers.string(name, { max: 4096 });
    if (value === undefined || /[\r\n\0]/.test(value)) reader.fail('headers', `${name} must be a one-line string`);
    out[name] = value;
  }
  return out;
}

function readSyslog(reader: InputReader): SyslogTarget {
  const host = reader.requiredString('host', { max: 253 });
  if (isIP(host) === 0 && !HOST_NAME.test(host)) reader.fail('host', 'must be a host name or an IP address');
  const port = reader.integer('port', 1, 65_535, 0);
  if (port === 0) reader.fail('port', 'is required');
  const transport = reader.oneOf('transport', ['tcp', 'tls'] as const, 'tls');
  const encoding = reader.oneOf('encoding', ['json', 'cef'] as const, 'json');
  const facility = reader.integer('facility', 0, 23, 16);
  const appName = reader.string('appName', { max: 48, pattern: PRINTABLE_ASCII, patternText: 'printable ASCII without spaces' }) ?? 'vigil';
  const hostname = reader.string('hostname', { max: 255, pattern: PRINTABLE_ASCII, patternText: 'printable ASCII without spaces' });
  const caCert = readCaCert(reader);
  const clientCertificate = readClientCertificate(reader);
  if (transport === 'tcp' && (caCert !== undefined || clientCertificate !== undefined)) reader.fail('transport', 'must be tls for caCert, clientCert and clientKey');
  const timeoutMs = readTimeout(reader);
  reader.done();
  return { kind: 'syslog', host, port, transport, encoding, facility, appName, hostname, caCert, clientCertificate, timeoutMs };
}

function readKafka(reader: InputReader): KafkaTarget {
  const brokers = reader.raw('brokers');
  if (!Array.isArray(brokers) || brokers.length === 0 || brokers.length > 32) reader.fail('brokers', 'must be a list of 1 to 32 "host:port" addresses');
  for (const broker of brokers) {
    const match = typeof broker === 'string' ? /^(.+):(\d{1,5})$/.exec(broker) : null;
    const host = match?.[1].replace(/^\[(.*)\]$/, '$1') ?? '';
    if (!match || Number(match[2]) < 1 || Number(match[2]) > 65_535 || (isIP(host) === 0 && !HOST_NAME.test(host))) {
      reader.fail('brokers', `has an invalid address ${JSON.stringify(String(broker).slice(0, 100))} (expected host:port)`);
    }
  }
  const topic = reader.requiredString('topic', { max: 249, pattern: KAFKA_TOPIC, patternText: 'a Kafka topic name (letters, digits, . _ -)' });
  const tls = reader.boolean('tls', false);
  const caCert = readCaCert(reader);
  const clientCertificate = readClientCertificate(reader);
  if (!tls && (caCert !== undefined || clientCertificate !== undefined)) reader.fail('tls', 'must be true for caCert, clientCert and clientKey');
  const saslReader = reader.object('sasl');
  let sasl: KafkaTarget['sasl'];
  if (saslReader) {
    const mechanism = saslReader.oneOf('mechanism', ['plain', 'scram-sha-256', 'scram-sha-512'] as const, 'plain');
    const username = saslReader.requiredString('username', { max: 256 });
    const password = saslReader.requiredString('password', { max: 1024 });
    saslReader.done();
    sasl = { mechanism, username, password };
  }
  const timeoutMs = readTimeout(reader);
  reader.done();
  return { kind: 'kafka', brokers: brokers as string[], topic, tls, caCert, clientCertificate, sasl, timeoutMs };
}
