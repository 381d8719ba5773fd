import type { ApiKeyRecord } from '@vigil/contracts';
import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key';
import { apiKeyFromAuthorization } from './basic-auth';
import { KeyDirectory } from './key-directory';

const basic = (user: string, password = '') => 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64');

function recordFor(key: string, patch: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  return {
    keyHash: hashApiKey(key),
    prefix: apiKeyPrefix(key),
    workspaceId: '0b6f3b3e-0000-4000-8000-000000000001',
    status: 'active',
    createdAt: '2026-01-01T00:00:00.000Z',
    expiresAt: null,
    version: 1,
    ...patch,
  };
}

describe('api keys', () => {
  it('generates distinct, well-formed keys whose hash is not the key', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).toMatch(/^vgl_[0-9A-Za-z]{32}$/);
    expect(a).not.toBe(b);
    expect(hashApiKey(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(a)).not.toContain(a.slice(4));
  });

  it('reads the key from the Basic user name and ignores the password', () => {
    expect(apiKeyFromAuthorization(basic('vgl_abc'))).toBe('vgl_abc');
    expect(apiKeyFromAuthorization(basic('vgl_abc', '-'))).toBe('vgl_abc');
    expect(apiKeyFromAuthorization(basic('vgl_abc', 'anything:with:colons'))).toBe('vgl_abc');
    expect(apiKeyFromAuthorization('Basic ' + Buffer.from('vgl_nocolon').toString('base64'))).toBe('vgl_nocolon');
    expect(apiKeyFromAuthorization(undefined)).toBeUndefined();
    expect(apiKeyFromAuthorization('Bearer x')).toBeUndefined();
    expect(apiKeyFromAuthorization(basic(''))).toBeUndefined();
  });
});

describe('KeyDirectory', () => {
  it('maps key states onto the principal', () => {
    const directory = new KeyDirectory();
    const active = generateApiKey();
    const inactive = generateApiKey();
    const revoked = generateApiKey();
    const expired = generateApiKey();
    directory.apply(recordFor(active));
    directory.apply(recordFor(inactive, { status: 'inactive' }));
    directory.apply(recordFor(revoked, { status: 'revoked' }));
    directory.apply(recordFor(expired, { expiresAt: '2020-01-01T00:00:00.000Z' }));

    const ok = directory.lookup(active);
    expect(ok.outcome === 'ok' && ok.principal.registered && !ok.principal.expired).toBe(true);
    const pending = directory.lookup(inactive);
    expect(pending.outcome === 'ok' && pending.principal.registered).toBe(false);
    expect(directory.lookup(revoked).outcome).toBe('revoked');
    const old = directory.lookup(expired);
    expect(old.outcome === 'ok' && old.principal.expired).toBe(true);
    expect(directory.lookup(generateApiKey()).outcome).toBe('unknown');
  });

  it('keeps the highest version of a record', () => {
    const directory = new KeyDirectory();
    const key = generateApiKey();
    directory.apply(recordFor(key, { status: 'revoked', version: 3 }));
    directory.apply(recordFor(key, { status: 'active', version: 2 }));
    expect(directory.lookup(key).outcome).toBe('revoked');
  });
});
