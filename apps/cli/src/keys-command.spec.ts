import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AccountModule } from '@vigil/account';
import { loadConfig, type VigilConfig } from '@vigil/config';
import { createVigilApp } from '@vigil/platform';
import { makeTempDir } from '@vigil/testing';
import { expiryFrom, runKeysCommand, UsageError } from './keys-command';

describe('expiryFrom (keys expire <prefix> <when>)', () => {
  const now = new Date('2026-11-26T10:00:00.000Z');

  it('takes a duration from now, an RFC 3339 date-time or never', () => {
    expect(expiryFrom('30d', now)).toBe('2026-12-26T10:00:00.000Z');
    expect(expiryFrom('90m', now)).toBe('2026-11-26T11:30:00.000Z');
    expect(expiryFrom('2027-01-31T00:00:00+01:00', now)).toBe('2027-01-31T00:00:00+01:00');
    expect(expiryFrom('never', now)).toBeNull();
  });

  it('refuses anything else with a usage error', () => {
    for (const when of [undefined, 'soon', '2027-01-31', '2027-01-31T00:00:00', '-5d']) expect(() => expiryFrom(when, now)).toThrow(UsageError);
  });
});

describe('vigil keys expire', () => {
  const temp = makeTempDir('vigil-cli-expire-');
  let app: NestFastifyApplication | undefined;
  let config: VigilConfig;

  beforeAll(async () => {
    const base = loadConfig({ VIGIL_DATA_DIR: temp.path, VIGIL_LOG_LEVEL: 'error' });
    app = await createVigilApp({ name: 'cli-expire-spec', features: [AccountModule] }, base);
    await app.listen({ port: 0, host: '127.0.0.1' });
    config = { ...base, port: (app.getHttpServer().address() as { port: number }).port };
  });

  afterAll(async () => {
    await app?.close();
    temp.cleanup();
  });

  it('sets and clears the expiry through the running server, and on the data directory when none runs', async () => {
    const created = await runKeysCommand(config, { action: 'create', workspace: 'cli-expire' });
    const prefix = /prefix: (\S+)/.exec(created)![1];
    expect(await runKeysCommand(config, { action: 'expire', prefix, when: '2030-06-01T00:00:00Z' })).toBe(`key ${prefix} expires at 2030-06-01T00:00:00.000Z`);
    expect(await runKeysCommand(config, { action: 'list' })).toMatch(new RegExp(`${prefix}….*2030-06-01T00:00:00.000Z`));
    await expect(runKeysCommand(config, { action: 'expire', prefix: 'nosuchprefix', when: 'never' })).rejects.toThrow(/No key matches/);

    await app!.close();
    app = undefined;
    expect(await runKeysCommand(config, { action: 'expire', prefix, when: 'never' })).toBe(`key ${prefix} never expires`);
    expect(await runKeysCommand(config, { action: 'list' })).toMatch(new RegExp(`${prefix}…\\tactive\\tcli-expire\\t\\S+\\tnever`));
  });
});
