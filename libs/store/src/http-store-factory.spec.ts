import * as net from 'node:net';
import { createClient } from '@clickhouse/client';
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

/** How the real @clickhouse/client resolved our options (no request is sent). */
function connectionOf(config: ReturnType<typeof buildHttpClientConfig>) {
  const client = createClient(config);
  const params = (client as unknown as { connectionParams: { url: URL; database: string; auth: { username: string; password: string } } }).connectionParams;
  return { client, params };
}

describe('HttpStoreFactory client configuration (real client, no server)', () => {
  it('targets the configured URL, user and database', async () => {
    const { client, params } = connectionOf(buildHttpClientConfig({ url: 'https://ch.example:8443', username: 'vigil', password: 'pw' }, 'findings'));
    expect(params.url.toString()).toBe('https://ch.example:8443/');
    expect(params.database).toBe('findings');
    expect(params.auth.username).toBe('vigil');
    await client.close();
  });

  it('takes percent-encoded credentials from CLICKHOUSE_URL itself, as docker-compose.yml and the manifests set it', async () => {
    const { client, params } = connectionOf(buildHttpClientConfig({ url: 'http://vigil:p%40ss%3Aword@clickhouse:8123' }, 'account'));
    expect(params.auth).toMatchObject({ username: 'vigil', password: 'p@ss:word' });
    expect(params.url.host).toBe('clickhouse:8123');
    expect(params.database).toBe('account');
    await client.close();
  });

  it('rejects open() with a connection error when no server listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as net.AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const factory = new HttpStoreFactory({ url: `http://127.0.0.1:${port}` });
    try {
      await expect(factory.open('findings', [])).rejects.toThrow(/ECONNREFUSED|connect/);
    } finally {
      await factory.close();
    }
  });
});
