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
  ])('fails fast naming the variable for %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('parses the rate limit and TLS options', () => {
    const config = loadConfig({ VIGIL_RATE_LIMIT: '5/2s', VIGIL_TLS_SELF_SIGNED: '1' });
    expect(config.rateLimit).toEqual({ points: 5, windowSeconds: 2 });
    expect(config.tls).toEqual({ kind: 'self-signed' });
  });
});
