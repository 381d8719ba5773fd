import { createStoreFactory } from './create-store-factory';
import { StoreConfigError } from './errors';
import { buildHttpClientConfig, HttpStoreFactory } from './http-store-factory';

describe('buildHttpClientConfig', () => {
  it('targets the configured URL, credentials and database', () => {
    const config = { url: 'https://ch.example:8443', username: 'vigil', password: 's3cret' };
    expect(buildHttpClientConfig(config, 'findings')).toMatchObject({
      url: 'https://ch.example:8443',
      username: 'vigil',
      password: 's3cret',
      database: 'findings',
    });
    expect(buildHttpClientConfig({ url: 'http://localhost:8123' })).not.toHaveProperty('database');
    expect(buildHttpClientConfig({ url: 'http://localhost:8123' })).not.toHaveProperty('username');
  });

  it('refuses URLs that are not http(s) and unsafe database names', () => {
    expect(() => buildHttpClientConfig({ url: 'tcp://localhost:9000' })).toThrow(StoreConfigError);
    expect(() => buildHttpClientConfig({ url: 'not a url' })).toThrow(/not a URL/);
    expect(() => buildHttpClientConfig({ url: 'http://localhost:8123' }, 'a-b')).toThrow(/invalid database name/);
    expect(() => createStoreFactory({ kind: 'clickhouse', url: 'ftp://x' })).toThrow(StoreConfigError);
    expect(createStoreFactory({ kind: 'clickhouse', url: 'http://localhost:8123' })).toBeInstanceOf(HttpStoreFactory);
  });
});
