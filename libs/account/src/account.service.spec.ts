import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { hashApiKey, KeyDirectory } from '@vigil/auth';
import { BUS, type Bus } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import { TOPICS, type ApiKeyRecord } from '@vigil/contracts';
import { PlatformModule } from '@vigil/platform';
import { makeTempDir } from '@vigil/testing';
import { AccountCoreModule } from './account.module';
import { AccountService } from './account.service';

describe('AccountService (real chdb and local bus)', () => {
  const temp = makeTempDir('vigil-account-');
  let app: INestApplicationContext;
  let accounts: AccountService;
  const announced = new KeyDirectory();

  beforeAll(async () => {
    const config = loadConfig({ VIGIL_DATA_DIR: temp.path, VIGIL_BOOTSTRAP_KEY: 'vgl_bootstrapkey0000000000000001' });
    app = await NestFactory.createApplicationContext(
      { module: class AccountSpecModule {}, imports: [PlatformModule.forRoot(config, { http: false }), AccountCoreModule] },
      { logger: false },
    );
    await app.init();
    accounts = app.get(AccountService);
    const bus = app.get<Bus>(BUS);
    await bus.subscribe({ topic: TOPICS.apiKeys.name }, async (batch) => {
      for (const record of batch.records) announced.apply(JSON.parse(record.value.toString()) as ApiKeyRecord);
    });
  });

  afterAll(async () => {
    await app.close();
    temp.cleanup();
  });

  const eventuallyKnown = async (key: string) => {
    for (let i = 0; i < 100 && announced.lookup(key).outcome === 'unknown'; i++) await new Promise((r) => setTimeout(r, 20));
    return announced.lookup(key);
  };

  it('creates the bootstrap key once, active, in the default workspace', async () => {
    await accounts.ensureKey('vgl_bootstrapkey0000000000000001');
    const keys = (await accounts.listKeys()).filter((k) => k.keyHash === hashApiKey('vgl_bootstrapkey0000000000000001'));
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ status: 'active', workspaceName: 'default', expiresAt: null });
  });

  it('stores only the hash, and announces keys on the control topic', async () => {
    const { key, record, workspace } = await accounts.createKey({ workspace: 'acme', inactive: true, expiresInSeconds: 3600 });
    expect(record.keyHash).toBe(hashApiKey(key));
    expect(JSON.stringify(await accounts.listKeys())).not.toContain(key);
    expect(workspace.workspaceId).toMatch(/^[0-9a-f-]{36}$/);
    const seen = await eventuallyKnown(key);
    expect(seen.outcome === 'ok' && seen.principal.registered).toBe(false);
    expect(Date.parse(record.expiresAt!) - Date.parse(record.createdAt)).toBe(3_600_000);
  });

  it('keeps one workspace per name and separates workspaces', async () => {
    const a = await accounts.createKey({ workspace: 'team-a' });
    const a2 = await accounts.createKey({ workspace: 'team-a' });
    const b = await accounts.createKey({ workspace: 'team-b' });
    expect(a2.workspace.workspaceId).toBe(a.workspace.workspaceId);
    expect(b.workspace.workspaceId).not.toBe(a.workspace.workspaceId);
  });

  it('activates and revokes by prefix, with a higher version each time', async () => {
    const { key, record } = await accounts.createKey({ inactive: true });
    const activated = await accounts.setStatus(record.prefix, 'active');
    expect(activated.status).toBe('active');
    expect(activated.version).toBeGreaterThan(record.version);
    const revoked = await accounts.setStatus(record.keyHash, 'revoked');
    expect(revoked.version).toBeGreaterThan(activated.version);
    for (let i = 0; i < 100 && announced.lookup(key).outcome !== 'revoked'; i++) await new Promise((r) => setTimeout(r, 20));
    expect(announced.lookup(key).outcome).toBe('revoked');
    await expect(accounts.setStatus('vgl_nosuchkey', 'active')).rejects.toThrow(/No key matches/);
  });
});
