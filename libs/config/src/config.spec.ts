import * as path from 'node:path';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('defaults to the embedded mode on 127.0.0.1:8080 with ./data', () => {
    const config = loadConfig({});
    expect(config.host).toBe('127.0.0.1');
    expect(config.port).toBe(8080);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.bus).toEqual({ kind: 'local', dir: path.resolve('./data/bus') });
    expect(config.store.kind).toBe('chdb');
    expect(config.counters.kind).toBe('memory');
    expect(config.tls.kind).toBe('none');
    expect(config.snapshotIntervalMs).toBe(10_000);
    expect(loadConfig({ VIGIL_SNAPSHOT_INTERVAL_MS: '2500' }).snapshotIntervalMs).toBe(2500);
  });

  it('switches each part to its server when configured', () => {
    const config = loadConfig({
      KAFKA_BROKERS: 'k1:9092,k2:9092',
      CLICKHOUSE_URL: 'http://ch:8123',
      REDIS_URL: 'redis://r:6379',
    });
    expect(config.bus).toEqual({ kind: 'kafka', brokers: ['k1:9092', 'k2:9092'] });
    expect(config.store).toEqual({ kind: 'clickhouse', url: 'http://ch:8123' });
    expect(config.counters).toEqual({ kind: 'redis', url: 'redis://r:6379' });
  });

  it.each([
    [{ VIGIL_PORT: 'eighty' }, 'VIGIL_PORT'],
    [{ VIGIL_PORT: '70000' }, 'VIGIL_PORT'],
    [{ VIGIL_TLS_CERT: '/c.pem' }, 'VIGIL_TLS_KEY'],
    [{ VIGIL_TLS_KEY: '/k.pem' }, 'VIGIL_TLS_CERT'],
    [{ VIGIL_RATE_LIMIT: 'lots' }, 'VIGIL_RATE_LIMIT'],
    [{ KAFKA_BROKERS: 'nohostport' }, 'KAFKA_BROKERS'],
    [{ CLICKHOUSE_URL: 'redis://x' }, 'CLICKHOUSE_URL'],
    [{ REDIS_URL: 'not a url' }, 'REDIS_URL'],
    [{ VIGIL_BOOTSTRAP_KEY: 'short' }, 'VIGIL_BOOTSTRAP_KEY'],
    [{ VIGIL_LOG_LEVEL: 'loud' }, 'VIGIL_LOG_LEVEL'],
    [{ VIGIL_SNAPSHOT_INTERVAL_MS: '50' }, 'VIGIL_SNAPSHOT_INTERVAL_MS'],
    [{ VIGIL_INTEL_REFRESH_SECONDS: 'hourly' }, 'VIGIL_INTEL_REFRESH_SECONDS'],
    [{ VIGIL_INTEL_REFRESH_SECONDS: '999999999' }, 'VIGIL_INTEL_REFRESH_SECONDS'],
    [{ VIGIL_INTEL_LISTS: '/data/feed.txt' }, 'VIGIL_INTEL_LISTS'],
    [{ VIGIL_INTEL_LISTS: 'xml:/data/feed.xml' }, 'VIGIL_INTEL_LISTS'],
    [{ VIGIL_INTEL_LISTS: 'lines:/data/feed.txt' }, 'VIGIL_INTEL_LISTS'],
    [{ VIGIL_INTEL_LISTS: 'lines(nocategory):/data/feed.txt' }, 'VIGIL_INTEL_LISTS'],
    [{ VIGIL_INTEL_LISTS: 'lines(c2:X;sha1):/data/feed.txt' }, 'VIGIL_INTEL_LISTS'],
    [{ VIGIL_INTEL_LISTS: 'tsv(Bad Category):/data/t.tsv' }, 'VIGIL_INTEL_LISTS'],
    [{ VIGIL_INTEL_LISTS: 'vigil(x):/data/s.vigil' }, 'VIGIL_INTEL_LISTS'],
    [{ VIGIL_INTEL_LISTS: 'vigil:ftp://host/list' }, 'VIGIL_INTEL_LISTS'],
    [{ VIGIL_INTEL_LISTS: 'vigil:' }, 'VIGIL_INTEL_LISTS'],
    [{ VIGIL_DNS_RESOLVERS: '10.0.0.53,dns.local' }, 'VIGIL_DNS_RESOLVERS'],
    [{ VIGIL_HEADERS_TIMEOUT_MS: '30s' }, 'VIGIL_HEADERS_TIMEOUT_MS'],
    [{ VIGIL_HEADERS_TIMEOUT_MS: '999' }, 'VIGIL_HEADERS_TIMEOUT_MS'],
    [{ VIGIL_REQUEST_TIMEOUT_MS: '0' }, 'VIGIL_REQUEST_TIMEOUT_MS'],
    [{ VIGIL_REQUEST_TIMEOUT_MS: '10000', VIGIL_HEADERS_TIMEOUT_MS: '20000' }, 'VIGIL_HEADERS_TIMEOUT_MS'],
    [{ VIGIL_IDLE_TIMEOUT_MS: '-1' }, 'VIGIL_IDLE_TIMEOUT_MS'],
    [{ VIGIL_KEEP_ALIVE_TIMEOUT_MS: '600001' }, 'VIGIL_KEEP_ALIVE_TIMEOUT_MS'],
    [{ VIGIL_MAX_REQUESTS_PER_CONNECTION: '0' }, 'VIGIL_MAX_REQUESTS_PER_CONNECTION'],
    [{ VIGIL_MAX_CONNECTIONS: 'many' }, 'VIGIL_MAX_CONNECTIONS'],
    [{ VIGIL_ADMIN_PASSWORD: 'short' }, 'VIGIL_ADMIN_PASSWORD'],
    [{ VIGIL_CONSOLE_SESSION_MINUTES: '1' }, 'VIGIL_CONSOLE_SESSION_MINUTES'],
  ])('fails fast naming the variable for %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('has connection-level limits that fit 10 MB bodies on slow links, each configurable', () => {
    expect(loadConfig({}).http).toEqual({
      headersTimeoutMs: 30_000,
      requestTimeoutMs: 300_000,
      idleTimeoutMs: 60_000,
      keepAliveTimeoutMs: 72_000,
      maxRequestsPerConnection: 1000,
      maxConnections: 1000,
    });
    const custom = loadConfig({
      VIGIL_HEADERS_TIMEOUT_MS: '1000',
      VIGIL_REQUEST_TIMEOUT_MS: '3000',
      VIGIL_IDLE_TIMEOUT_MS: '2000',
      VIGIL_KEEP_ALIVE_TIMEOUT_MS: '5000',
      VIGIL_MAX_REQUESTS_PER_CONNECTION: '10',
      VIGIL_MAX_CONNECTIONS: '4',
    }).http;
    expect(custom).toEqual({
      headersTimeoutMs: 1000,
      requestTimeoutMs: 3000,
      idleTimeoutMs: 2000,
      keepAliveTimeoutMs: 5000,
      maxRequestsPerConnection: 10,
      maxConnections: 4,
    });
  });

  it('parses the rate limit and TLS options', () => {
    const config = loadConfig({ VIGIL_RATE_LIMIT: '5/2s', VIGIL_TLS_SELF_SIGNED: '1' });
    expect(config.rateLimit).toEqual({ points: 5, windowSeconds: 2 });
    expect(config.tls).toEqual({ kind: 'self-signed' });
  });

  it('has no run-time intel lists by default and refreshes hourly', () => {
    expect(loadConfig({}).intel).toEqual({ lists: [], refreshSeconds: 3600 });
    expect(loadConfig({}).dnsResolvers).toEqual([]);
    expect(loadConfig({ VIGIL_INTEL_REFRESH_SECONDS: '0' }).intel.refreshSeconds).toBe(0);
  });

  it('parses intel list entries of every format, from paths and URLs', () => {
    const { lists } = loadConfig({
      VIGIL_INTEL_LISTS:
        'vigil:/srv/intel/extra.vigil.gz, tsv(c2):https://intel.example/trails.tsv,' +
        'lines(c2:Cobalt Strike;ja3):feeds/ja3.txt,lines(miner:pool):http://127.0.0.1:9/pools.txt,tsv:/t.tsv',
    }).intel;
    expect(lists).toEqual([
      { format: 'vigil', source: '/srv/intel/extra.vigil.gz' },
      { format: 'tsv', source: 'https://intel.example/trails.tsv', category: 'c2' },
      { format: 'lines', source: path.resolve('feeds/ja3.txt'), label: 'c2:Cobalt Strike', kind: 'ja3' },
      { format: 'lines', source: 'http://127.0.0.1:9/pools.txt', label: 'miner:pool' },
      { format: 'tsv', source: '/t.tsv' },
    ]);
  });

  it('has SFTP ingest off by default; VIGIL_SFTP_PORT turns it on with bounded defaults', () => {
    expect(loadConfig({}).sftp).toBeUndefined();
    expect(loadConfig({ VIGIL_SFTP_PORT: '2222', VIGIL_DATA_DIR: '/srv/vigil' }).sftp).toEqual({
      host: '127.0.0.1',
      port: 2222,
      hostKeyFile: '/srv/vigil/sftp/ssh_host_ed25519_key',
      maxFileBytes: 256 * 1024 * 1024,
      uploadRate: { points: 120, windowSeconds: 60 },
      maxConnections: 64,
    });
    const custom = loadConfig({ VIGIL_SFTP_PORT: '22', VIGIL_SFTP_HOST: '0.0.0.0', VIGIL_SFTP_HOST_KEY: '/etc/vigil/key', VIGIL_SFTP_MAX_FILE_MB: '16', VIGIL_SFTP_RATE_LIMIT: '10/30s', VIGIL_SFTP_MAX_CONNECTIONS: '5' }).sftp;
    expect(custom).toEqual({ host: '0.0.0.0', port: 22, hostKeyFile: '/etc/vigil/key', maxFileBytes: 16 * 1024 * 1024, uploadRate: { points: 10, windowSeconds: 30 }, maxConnections: 5 });
    for (const [env, name] of [
      [{ VIGIL_SFTP_PORT: '0' }, 'VIGIL_SFTP_PORT'],
      [{ VIGIL_SFTP_PORT: '2222', VIGIL_SFTP_RATE_LIMIT: 'lots' }, 'VIGIL_SFTP_RATE_LIMIT'],
      [{ VIGIL_SFTP_PORT: '2222', VIGIL_SFTP_MAX_FILE_MB: '0' }, 'VIGIL_SFTP_MAX_FILE_MB'],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(name);
    }
  });

  it('has dnstap ingest off by default; VIGIL_DNSTAP_PORT or _SOCKET turns it on and needs VIGIL_DNSTAP_WORKSPACE', () => {
    expect(loadConfig({}).dnstap).toBeUndefined();
    expect(loadConfig({ VIGIL_DNSTAP_PORT: '6000', VIGIL_DNSTAP_WORKSPACE: 'acme' }).dnstap).toEqual({
      host: '127.0.0.1',
      port: 6000,
      workspace: 'acme',
      maxFrameBytes: 64 * 1024,
      maxConnections: 64,
    });
    const custom = loadConfig({ VIGIL_DNSTAP_SOCKET: '/run/vigil/dnstap.sock', VIGIL_DNSTAP_HOST: '0.0.0.0', VIGIL_DNSTAP_WORKSPACE: 'acme', VIGIL_DNSTAP_MAX_FRAME_KB: '128', VIGIL_DNSTAP_MAX_CONNECTIONS: '4' }).dnstap;
    expect(custom).toEqual({ host: '0.0.0.0', socketPath: '/run/vigil/dnstap.sock', workspace: 'acme', maxFrameBytes: 128 * 1024, maxConnections: 4 });
    for (const [env, name] of [
      [{ VIGIL_DNSTAP_PORT: '6000' }, 'VIGIL_DNSTAP_WORKSPACE'],
      [{ VIGIL_DNSTAP_SOCKET: '/tmp/d.sock', VIGIL_DNSTAP_WORKSPACE: ' ' }, 'VIGIL_DNSTAP_WORKSPACE'],
      [{ VIGIL_DNSTAP_PORT: '0', VIGIL_DNSTAP_WORKSPACE: 'acme' }, 'VIGIL_DNSTAP_PORT'],
      [{ VIGIL_DNSTAP_PORT: '6000', VIGIL_DNSTAP_WORKSPACE: 'acme', VIGIL_DNSTAP_MAX_FRAME_KB: '0' }, 'VIGIL_DNSTAP_MAX_FRAME_KB'],
      [{ VIGIL_DNSTAP_PORT: '6000', VIGIL_DNSTAP_WORKSPACE: 'acme', VIGIL_DNSTAP_MAX_CONNECTIONS: 'many' }, 'VIGIL_DNSTAP_MAX_CONNECTIONS'],
    ] as const) {
      expect(() => loadConfig(env)).toThrow(name);
    }
  });

  it('reads the configured DNS resolvers', () => {
    expect(loadConfig({ VIGIL_DNS_RESOLVERS: '10.0.0.53, 2001:db8::53' }).dnsResolvers).toEqual(['10.0.0.53', '2001:db8::53']);
  });

  it('reads the console sign-in settings', () => {
    expect(loadConfig({}).console).toEqual({ sessionMinutes: 480 });
    expect(loadConfig({ VIGIL_ADMIN_PASSWORD: 'correct horse battery', VIGIL_CONSOLE_SESSION_MINUTES: '60' }).console).toEqual({
      adminPassword: 'correct horse battery',
      sessionMinutes: 60,
    });
  });

  it('reads the log format: auto by default, json or text when asked', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ VIGIL_LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ VIGIL_LOG_FORMAT: 'yaml' })).toThrow(/VIGIL_LOG_FORMAT/);
  });

  it('reads where the console reaches the account and rules services', () => {
    expect(loadConfig({}).remoteServices).toEqual({});
    expect(
      loadConfig({ VIGIL_ACCOUNT_URL: 'http://account:8080/', VIGIL_RULES_URL: 'https://rules.internal', VIGIL_ACCOUNT_ADMIN_TOKEN: 'a'.repeat(64) }).remoteServices,
    ).toEqual({ accountUrl: 'http://account:8080', rulesUrl: 'https://rules.internal', accountAdminToken: 'a'.repeat(64) });
    expect(() => loadConfig({ VIGIL_ACCOUNT_URL: 'ftp://account' })).toThrow(/VIGIL_ACCOUNT_URL/);
    expect(() => loadConfig({ VIGIL_RULES_URL: 'not a url' })).toThrow(/VIGIL_RULES_URL/);
    expect(() => loadConfig({ VIGIL_ACCOUNT_ADMIN_TOKEN: 'short' })).toThrow(/VIGIL_ACCOUNT_ADMIN_TOKEN/);
  });

  it('reads the operator token file: <data dir>/admin-token unless VIGIL_ADMIN_TOKEN_FILE names another', () => {
    expect(loadConfig({}).adminTokenFile).toBeUndefined();
    expect(loadConfig({ VIGIL_ADMIN_TOKEN_FILE: '/run/vigil/admin-token' }).adminTokenFile).toBe('/run/vigil/admin-token');
    expect(loadConfig({ VIGIL_ADMIN_TOKEN_FILE: 'secrets/token' }).adminTokenFile).toBe(path.resolve('secrets/token'));
    expect(() => loadConfig({ VIGIL_ADMIN_TOKEN_FILE: '/run/vigil/' })).toThrow(/VIGIL_ADMIN_TOKEN_FILE/);
  });
});
