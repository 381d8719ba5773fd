import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import * as path from 'node:path';

export type BusConfig = { kind: 'local'; dir: string } | { kind: 'kafka'; brokers: string[] };
export type StoreConfig = { kind: 'chdb'; path: string } | { kind: 'clickhouse'; url: string };
export type CountersConfig = { kind: 'memory' } | { kind: 'redis'; url: string };
export type TlsConfig = { kind: 'none' } | { kind: 'files'; certFile: string; keyFile: string } | { kind: 'self-signed' };

export interface RateLimitConfig {
  /** Requests allowed per key in one window. */
  points: number;
  windowSeconds: number;
}

/** Formats of run-time intel lists (see `IndicatorStore.loadList`). */
export const INTEL_LIST_FORMATS = ['vigil', 'tsv', 'lines'] as const;
export type IntelListFormat = (typeof INTEL_LIST_FORMATS)[number];
const INTEL_KINDS = ['domain', 'ip', 'cidr', 'ip_port', 'url', 'ja3', 'ja3s', 'cert'] as const;

/** One entry of `VIGIL_INTEL_LISTS`. */
export interface IntelListConfig {
  format: IntelListFormat;
  /** A file path (resolved to absolute) or an http(s) URL. */
  source: string;
  /** `lines`: the `<category>:<family>` label of every entry. */
  label?: string;
  /** `lines`: the kind of every entry (else guessed per line; hashes need it). */
  kind?: (typeof INTEL_KINDS)[number];
  /** `tsv`: the category put in front of each row's family (default `blocklist`). */
  category?: string;
}

/** The SFTP ingest endpoint of the ingest gateway (`VIGIL_SFTP_PORT`); absent: off. */
export interface SftpConfig {
  host: string;
  port: number;
  /** OpenSSH private host key; generated (ed25519) on first start when the file does not exist. */
  hostKeyFile: string;
  /** Largest file content accepted, after decompression (a gzip bomb stops here). */
  maxFileBytes: number;
  /** Uploads (files opened for writing) per workspace and window, per gateway process. */
  uploadRate: RateLimitConfig;
  /** SSH connections open at once; further ones are closed on arrival. */
  maxConnections: number;
}

/** The dnstap (Frame Streams) listener of the ingest gateway (`VIGIL_DNSTAP_PORT` / `VIGIL_DNSTAP_SOCKET`); absent: off. */
export interface DnstapConfig {
  host: string;
  /** TCP port; undefined: no TCP listener. */
  port?: number;
  /** Unix socket path (absolute); undefined: no socket. */
  socketPath?: string;
  /** The workspace (id or name) every dnstap event is attributed to. */
  workspace: string;
  /** Largest data frame taken; a longer one is skipped (counted and logged), the stream goes on. */
  maxFrameBytes: number;
  /** Connections open at once; further ones are closed on arrival. */
  maxConnections: number;
}

/** The web console under /console. */
export interface ConsoleConfig {
  /** Operators sign in with this password; unset: with the admin token from `<data dir>/admin-token`. */
  adminPassword?: string;
  /** A console session ends this long after sign-in. */
  sessionMinutes: number;
}

export interface RemoteServicesConfig {
  /** `VIGIL_ACCOUNT_URL`: base URL of the account service. */
  accountUrl?: string;
  /** `VIGIL_ACCOUNT_ADMIN_TOKEN`: its operator token; unset: the one in this process's `<data dir>/admin-token`. */
  accountAdminToken?: string;
  /** `VIGIL_RULES_URL`: base URL of the rules service. */
  rulesUrl?: string;
}

export interface IntelConfig {
  lists: IntelListConfig[];
  /** Seconds between re-reads of the lists; 0: never. */
  refreshSeconds: number;
}

/**
 * Connection-level limits of the HTTP server: what a client may hold without sending a complete request.
 * See README "Configuration" for why the defaults suit 10 MB telemetry bodies from sensors on slow links.
 */
export interface HttpLimitsConfig {
  /** The request line and headers must arrive within this many ms of the request's start (408 after). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this many ms (408 after): cuts off slow bodies. */
  requestTimeoutMs: number;
  /** A connection with no traffic either way for this many ms while a request is open is closed. */
  idleTimeoutMs: number;
  /** An idle keep-alive connection (between requests) is closed after this many ms. */
  keepAliveTimeoutMs: number;
  /** Requests served on one keep-alive connection before the server asks the client to reconnect. */
  maxRequestsPerConnection: number;
  /** Open connections at once; further ones are refused (closed at once) until one ends. */
  maxConnections: number;
}

export interface VigilConfig {
  host: string;
  port: number;
  dataDir: string;
  /** `VIGIL_ADMIN_TOKEN_FILE`: the operator token file, when not `<data dir>/admin-token` (a file shared by services). */
  adminTokenFile?: string;
  tls: TlsConfig;
  http: HttpLimitsConfig;
  bus: BusConfig;
  store: StoreConfig;
  counters: CountersConfig;
  rateLimit: RateLimitConfig;
  /** A key created active at start-up when it does not exist (automation and tests). */
  bootstrapKey?: string;
  /**
   * Milliseconds a stored finding/alert waits before it is served, so concurrent inserts are never skipped.
   * Default 1000 with a ClickHouse server (other processes may be inserting); 0 with the embedded store, whose
   * only writer is this process and follows its own inserts in flight instead.
   */
  visibilityDelayMs: number;
  /** Scoring engine: how often each partition's detection state is checkpointed and its offset committed. */
  snapshotIntervalMs: number;
  /** Scoring engine: estimated memory all detection state of the process may hold (`VIGIL_SCORING_MEMORY_MB`). */
  scoringMemoryBytes: number;
  /** All-in-one: telemetry is refused (429) while scoring is further behind than this (`VIGIL_SCORING_BACKLOG_MS`; 0: never). */
  scoringBacklogMs: number;
  /** All-in-one: how long a telemetry body waits for scoring to make room before that 429 (`VIGIL_SCORING_ADMISSION_WAIT_MS`; 0: refused at once). */
  scoringAdmissionWaitMs: number;
  /**
   * Scoring engine: worker threads that score (`VIGIL_SCORING_WORKERS`, default the number of cores); 0 scores in
   * the main thread. Optional here so hand-built configurations in tests score in their own thread.
   */
  scoringWorkers?: number;
  /** Nice value of the scoring worker threads (`VIGIL_SCORING_NICE`, 0–19; Linux). */
  scoringNice?: number;
  /** Threads that parse and validate telemetry bodies (`VIGIL_INGEST_WORKERS`; 0: the main thread). */
  ingestWorkers?: number;
  /** Nice value of the ingest threads (`VIGIL_INGEST_NICE`, 0–19; Linux): below HTTP, above scoring. */
  ingestNice?: number;
  logLevel: 'error' | 'warn' | 'log' | 'debug';
  /** `VIGIL_LOG_FORMAT`: JSON lines (pino), Nest's readable lines, or `auto` (JSON unless stdout is a terminal). */
  logFormat?: 'auto' | 'json' | 'text';
  /**
   * Where the console reaches services that do not run in its process (split deployment): the account service's
   * operator API and the rules service's /v1 API.
   */
  remoteServices?: RemoteServicesConfig;
  /** The web console's sign-in (optional here so hand-built configurations in tests need not name it). */
  console?: ConsoleConfig;
  intel: IntelConfig;
  /** Resolvers the network's hosts are meant to use (`VIGIL_DNS_RESOLVERS`): DNS to them is not resolver bypass. */
  dnsResolvers: string[];
  /** SFTP ingest (optional here so hand-built configurations in tests need not name it); undefined: off. */
  sftp?: SftpConfig;
  /** dnstap ingest (optional here so hand-built configurations in tests need not name it); undefined: off. */
  dnstap?: DnstapConfig;
}

/** Raised for invalid configuration; the message names the variable. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function readInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function readUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return raw;
}

/** `VIGIL_RATE_LIMIT` is `<requests>/<seconds>s`, e.g. `1200/60s`. */
function readRateLimit(env: Env): RateLimitConfig {
  const raw = env.VIGIL_RATE_LIMIT?.trim();
  if (!raw) return { points: 1200, windowSeconds: 60 };
  const match = /^(\d+)\/(\d+)s$/.exec(raw);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
    throw new ConfigError(`VIGIL_RATE_LIMIT must look like "<requests>/<seconds>s" (e.g. 1200/60s), got "${raw}"`);
  }
  return { points: Number(match[1]), windowSeconds: Number(match[2]) };
}

function readTls(env: Env): TlsConfig {
  const cert = env.VIGIL_TLS_CERT?.trim();
  const key = env.VIGIL_TLS_KEY?.trim();
  const selfSigned = env.VIGIL_TLS_SELF_SIGNED?.trim();
  if (selfSigned && !['0', '1', 'true', 'false'].includes(selfSigned)) {
    throw new ConfigError(`VIGIL_TLS_SELF_SIGNED must be 1 or 0, got "${selfSigned}"`);
  }
  if (cert && !key) throw new ConfigError('VIGIL_TLS_KEY must be set when VIGIL_TLS_CERT is');
  if (key && !cert) throw new ConfigError('VIGIL_TLS_CERT must be set when VIGIL_TLS_KEY is');
  if (cert && key) return { kind: 'files', certFile: cert, keyFile: key };
  if (selfSigned === '1' || selfSigned === 'true') return { kind: 'self-signed' };
  return { kind: 'none' };
}

/** `VIGIL_HEADERS_TIMEOUT_MS`, `VIGIL_REQUEST_TIMEOUT_MS`, ...: connection-level limits (see HttpLimitsConfig). */
function readHttpLimits(env: Env): HttpLimitsConfig {
  const limits: HttpLimitsConfig = {
    headersTimeoutMs: readInteger(env, 'VIGIL_HEADERS_TIMEOUT_MS', 30_000, 1000, 600_000),
    requestTimeoutMs: readInteger(env, 'VIGIL_REQUEST_TIMEOUT_MS', 300_000, 1000, 3_600_000),
    idleTimeoutMs: readInteger(env, 'VIGIL_IDLE_TIMEOUT_MS', 60_000, 1000, 3_600_000),
    keepAliveTimeoutMs: readInteger(env, 'VIGIL_KEEP_ALIVE_TIMEOUT_MS', 72_000, 1000, 600_000),
    maxRequestsPerConnection: readInteger(env, 'VIGIL_MAX_REQUESTS_PER_CONNECTION', 1000, 1, 1_000_000),
    maxConnections: readInteger(env, 'VIGIL_MAX_CONNECTIONS', 1000, 1, 1_000_000),
  };
  // Node refuses a headers timeout longer than the request timeout (the headers are part of the request).
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) {
    throw new ConfigError(
      `VIGIL_HEADERS_TIMEOUT_MS (${limits.headersTimeoutMs}) must not exceed VIGIL_REQUEST_TIMEOUT_MS (${limits.requestTimeoutMs})`,
    );
  }
  return limits;
}

function readConsoleConfig(env: Env): ConsoleConfig {
  const adminPassword = env.VIGIL_ADMIN_PASSWORD || undefined;
  if (adminPassword !== undefined && adminPassword.length < 12) {
    throw new ConfigError('VIGIL_ADMIN_PASSWORD must be at least 12 characters long');
  }
  return { ...(adminPassword ? { adminPassword } : {}), sessionMinutes: readInteger(env, 'VIGIL_CONSOLE_SESSION_MINUTES', 480, 5, 10_080) };
}

function readLogLevel(env: Env): VigilConfig['logLevel'] {
  const raw = (env.VIGIL_LOG_LEVEL ?? 'log').trim();
  if (!['error', 'warn', 'log', 'debug'].includes(raw)) {
    throw new ConfigError(`VIGIL_LOG_LEVEL must be one of error, warn, log, debug; got "${raw}"`);
  }
  return raw as VigilConfig['logLevel'];
}

function readLogFormat(env: Env): NonNullable<VigilConfig['logFormat']> {
  const raw = (env.VIGIL_LOG_FORMAT ?? 'auto').trim() || 'auto';
  if (!['auto', 'json', 'text'].includes(raw)) throw new ConfigError(`VIGIL_LOG_FORMAT must be auto, json or text; got "${raw}"`);
  return raw as NonNullable<VigilConfig['logFormat']>;
}

/** `VIGIL_ADMIN_TOKEN_FILE`: an absolute or relative path of the operator token file. */
function readAdminTokenFile(env: Env): Pick<VigilConfig, 'adminTokenFile'> {
  const raw = env.VIGIL_ADMIN_TOKEN_FILE?.trim();
  if (!raw) return {};
  if (raw.endsWith('/')) throw new ConfigError(`VIGIL_ADMIN_TOKEN_FILE must name a file, got the directory "${raw}"`);
  return { adminTokenFile: path.resolve(raw) };
}

/** `VIGIL_ACCOUNT_URL`, `VIGIL_ACCOUNT_ADMIN_TOKEN`, `VIGIL_RULES_URL`: services the console calls over HTTP. */
function readRemoteServices(env: Env): RemoteServicesConfig {
  const accountAdminToken = env.VIGIL_ACCOUNT_ADMIN_TOKEN?.trim() || undefined;
  if (accountAdminToken !== undefined && !/^[\x21-\x7e]{16,512}$/.test(accountAdminToken)) {
    throw new ConfigError('VIGIL_ACCOUNT_ADMIN_TOKEN must be 16-512 printable characters without spaces');
  }
  const accountUrl = readUrl(env, 'VIGIL_ACCOUNT_URL', ['http:', 'https:']);
  const rulesUrl = readUrl(env, 'VIGIL_RULES_URL', ['http:', 'https:']);
  return {
    ...(accountUrl ? { accountUrl: accountUrl.replace(/\/+$/, '') } : {}),
    ...(accountAdminToken ? { accountAdminToken } : {}),
    ...(rulesUrl ? { rulesUrl: rulesUrl.replace(/\/+$/, '') } : {}),
  };
}

const INTEL_ENTRY = /^([a-z]+)(?:\(([^()]*)\))?:(.+)$/s;
const LABEL = /^[a-z0-9_]+:\S.*$/;

/**
 * `VIGIL_INTEL_LISTS`: comma-separated `<format>[(<options>)]:<path or http(s) URL>` entries:
 * `vigil:<src>` (labels inside the file), `tsv(<category>):<src>` (`indicator<TAB>kind<TAB>family` rows;
 * category optional), `lines(<category>:<family>[;<kind>]):<src>` (one indicator per line, label required).
 */
function readIntelLists(env: Env): IntelListConfig[] {
  const raw = env.VIGIL_INTEL_LISTS?.trim();
  if (!raw) return [];
  return raw.split(',').map((part) => {
    const entry = part.trim();
    const fail = (why: string): never => {
      throw new ConfigError(`VIGIL_INTEL_LISTS entry "${entry}": ${why} (expected <format>[(<options>)]:<path or URL>, format ${INTEL_LIST_FORMATS.join(', ')})`);
    };
    const match = INTEL_ENTRY.exec(entry);
    if (match === null) return fail('not of the form format:source');
    const [, format, options, rawSource] = match;
    if (!(INTEL_LIST_FORMATS as readonly string[]).includes(format)) return fail(`unknown format "${format}"`);
    const source = rawSource.trim();
    if (source === '') return fail('empty source');
    const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(source);
    if (isUrl && !/^https?:\/\//i.test(source)) return fail('only http and https URLs are supported');
    const list: IntelListConfig = { format: format as IntelListFormat, source: isUrl ? source : path.resolve(source) };
    const opts = options?.trim() ?? '';
    if (format === 'vigil' && opts !== '') return fail('the vigil format takes no options');
    if (format === 'tsv' && opts !== '') {
      if (!/^[a-z0-9_]+$/.test(opts)) return fail(`category "${opts}" must be lower-case letters, digits or "_"`);
      list.category = opts;
    }
    if (format === 'lines') {
      const [label, kind] = opts.split(';').map((s) => s.trim());
      if (!label || !LABEL.test(label)) return fail('the lines format needs a label such as lines(c2:Emotet)');
      list.label = label;
      if (kind !== undefined && kind !== '') {
        if (!(INTEL_KINDS as readonly string[]).includes(kind)) return fail(`unknown kind "${kind}" (one of ${INTEL_KINDS.join(', ')})`);
        list.kind = kind as IntelListConfig['kind'];
      }
    }
    return list;
  });
}

/** `VIGIL_SFTP_*`: the SFTP ingest endpoint, off unless `VIGIL_SFTP_PORT` is set. */
function readSftp(env: Env, host: string, dataDir: string): SftpConfig | undefined {
  const rawPort = env.VIGIL_SFTP_PORT?.trim();
  if (!rawPort) return undefined;
  const rawRate = env.VIGIL_SFTP_RATE_LIMIT?.trim() || '120/60s';
  const rate = /^(\d+)\/(\d+)s$/.exec(rawRate);
  if (!rate || Number(rate[1]) < 1 || Number(rate[2]) < 1) {
    throw new ConfigError(`VIGIL_SFTP_RATE_LIMIT must look like "<uploads>/<seconds>s" (e.g. 120/60s), got "${rawRate}"`);
  }
  return {
    host: env.VIGIL_SFTP_HOST?.trim() || host,
    port: readInteger(env, 'VIGIL_SFTP_PORT', 0, 1, 65535),
    hostKeyFile: path.resolve(env.VIGIL_SFTP_HOST_KEY?.trim() || path.join(dataDir, 'sftp', 'ssh_host_ed25519_key')),
    maxFileBytes: readInteger(env, 'VIGIL_SFTP_MAX_FILE_MB', 256, 1, 65_536) * 1024 * 1024,
    uploadRate: { points: Number(rate[1]), windowSeconds: Number(rate[2]) },
    maxConnections: readInteger(env, 'VIGIL_SFTP_MAX_CONNECTIONS', 64, 1, 10_000),
  };
}

/** `VIGIL_DNSTAP_*`: the dnstap listener, off unless `VIGIL_DNSTAP_PORT` or `VIGIL_DNSTAP_SOCKET` is set. */
function readDnstap(env: Env, host: string): DnstapConfig | undefined {
  const rawPort = env.VIGIL_DNSTAP_PORT?.trim();
  const socketPath = env.VIGIL_DNSTAP_SOCKET?.trim();
  if (!rawPort && !socketPath) return undefined;
  const workspace = env.VIGIL_DNSTAP_WORKSPACE?.trim();
  if (!workspace) throw new ConfigError('VIGIL_DNSTAP_WORKSPACE (the workspace id or name of the dnstap events) must be set when VIGIL_DNSTAP_PORT or VIGIL_DNSTAP_SOCKET is');
  return {
    host: env.VIGIL_DNSTAP_HOST?.trim() || host,
    ...(rawPort ? { port: readInteger(env, 'VIGIL_DNSTAP_PORT', 0, 1, 65535) } : {}),
    ...(socketPath ? { socketPath: path.resolve(socketPath) } : {}),
    workspace,
    maxFrameBytes: readInteger(env, 'VIGIL_DNSTAP_MAX_FRAME_KB', 64, 1, 1024) * 1024,
    maxConnections: readInteger(env, 'VIGIL_DNSTAP_MAX_CONNECTIONS', 64, 1, 10_000),
  };
}

/** `VIGIL_DNS_RESOLVERS`: comma-separated IPv4/IPv6 addresses. */
function readResolvers(env: Env): string[] {
  const raw = env.VIGIL_DNS_RESOLVERS?.trim();
  if (!raw) return [];
  return raw.split(',').map((part) => {
    const ip = part.trim();
    if (isIP(ip) === 0) throw new ConfigError(`VIGIL_DNS_RESOLVERS must be comma-separated IP addresses, got "${ip}"`);
    return ip;
  });
}

/**
 * Reads and validates the whole configuration from the environment, failing fast with the variable's name.
 * Embedded defaults: local bus, chdb and in-process counters under VIGIL_DATA_DIR; each of KAFKA_BROKERS,
 * CLICKHOUSE_URL and REDIS_URL switches its part to the external server.
 */
export function loadConfig(env: Env = process.env): VigilConfig {
  const host = env.VIGIL_HOST?.trim() || '127.0.0.1';
  const dataDir = path.resolve(env.VIGIL_DATA_DIR?.trim() || './data');
  const brokers = env.KAFKA_BROKERS?.trim();
  if (brokers !== undefined && brokers !== '' && !/^[^,\s]+:\d+(,[^,\s]+:\d+)*$/.test(brokers)) {
    throw new ConfigError(`KAFKA_BROKERS must be a comma-separated list of host:port, got "${brokers}"`);
  }
  const clickhouseUrl = readUrl(env, 'CLICKHOUSE_URL', ['http:', 'https:']);
  const redisUrl = readUrl(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const bootstrapKey = env.VIGIL_BOOTSTRAP_KEY?.trim() || undefined;
  if (bootstrapKey !== undefined && !/^[A-Za-z0-9_-]{16,128}$/.test(bootstrapKey)) {
    throw new ConfigError('VIGIL_BOOTSTRAP_KEY must be 16-128 characters of letters, digits, "_" or "-"');
  }
  return {
    host,
    port: readInteger(env, 'VIGIL_PORT', 8080, 0, 65535),
    dataDir,
    ...readAdminTokenFile(env),
    tls: readTls(env),
    http: readHttpLimits(env),
    bus: brokers ? { kind: 'kafka', brokers: brokers.split(',') } : { kind: 'local', dir: path.join(dataDir, 'bus') },
    store: clickhouseUrl ? { kind: 'clickhouse', url: clickhouseUrl } : { kind: 'chdb', path: path.join(dataDir, 'clickhouse') },
    counters: redisUrl ? { kind: 'redis', url: redisUrl } : { kind: 'memory' },
    rateLimit: readRateLimit(env),
    bootstrapKey,
    visibilityDelayMs: readInteger(env, 'VIGIL_VISIBILITY_DELAY_MS', clickhouseUrl ? 1000 : 0, 0, 60000),
    snapshotIntervalMs: readInteger(env, 'VIGIL_SNAPSHOT_INTERVAL_MS', 10_000, 100, 3_600_000),
    scoringMemoryBytes: readInteger(env, 'VIGIL_SCORING_MEMORY_MB', 64, 16, 262_144) * 1024 * 1024,
    scoringBacklogMs: readInteger(env, 'VIGIL_SCORING_BACKLOG_MS', 500, 0, 600_000),
    scoringAdmissionWaitMs: readInteger(env, 'VIGIL_SCORING_ADMISSION_WAIT_MS', 5_000, 0, 60_000),
    scoringWorkers: readInteger(env, 'VIGIL_SCORING_WORKERS', availableParallelism(), 0, 64),
    scoringNice: readInteger(env, 'VIGIL_SCORING_NICE', 10, 0, 19),
    ingestWorkers: readInteger(env, 'VIGIL_INGEST_WORKERS', Math.max(1, Math.floor(availableParallelism() / 2)), 0, 64),
    ingestNice: readInteger(env, 'VIGIL_INGEST_NICE', 5, 0, 19),
    logLevel: readLogLevel(env),
    logFormat: readLogFormat(env),
    remoteServices: readRemoteServices(env),
    console: readConsoleConfig(env),
    intel: {
      lists: readIntelLists(env),
      refreshSeconds: readInteger(env, 'VIGIL_INTEL_REFRESH_SECONDS', 3600, 0, 7 * 86_400),
    },
    dnsResolvers: readResolvers(env),
    sftp: readSftp(env, host, dataDir),
    dnstap: readDnstap(env, host),
  };
}

/** Nest injection token for the process's VigilConfig. */
export const VIGIL_CONFIG = Symbol('VIGIL_CONFIG');
