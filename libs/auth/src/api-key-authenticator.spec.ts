import { ForbiddenException, UnauthorizedException } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import type { Bus } from '@vigil/bus';
import type { ApiKeyRecord } from '@vigil/contracts';
import { MemoryRateLimiter } from '@vigil/counters';
import { apiKeyPrefix, generateApiKey, hashApiKey } from './api-key';
import { ApiKeyAuthenticator } from './api-key-authenticator';
import { AllowExpiredKey, ApiKeyGuard, TooManyRequestsException } from './api-key.guard';
import { KeyDirectoryService } from './key-directory.service';
import type { Principal } from './key-directory';

const basic = (key: string) => 'Basic ' + Buffer.from(`${key}:`).toString('base64');

function record(key: string, patch: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
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

const keys = { active: generateApiKey(), revoked: generateApiKey(), expired: generateApiKey() };

/** The real key directory (fed directly instead of from the bus) and the real in-process rate limiter. */
function authenticator(points = 100): ApiKeyAuthenticator {
  const directory = new KeyDirectoryService({} as Bus);
  directory.apply(record(keys.active));
  directory.apply(record(keys.revoked, { status: 'revoked' }));
  directory.apply(record(keys.expired, { expiresAt: '2020-01-01T00:00:00.000Z' }));
  return new ApiKeyAuthenticator(directory, new MemoryRateLimiter({ points, windowSeconds: 60 }));
}

describe('ApiKeyAuthenticator', () => {
  it('refuses a missing, unknown or revoked key with 401', async () => {
    const verifier = authenticator();
    for (const authorization of [undefined, 'Bearer x', basic(generateApiKey()), basic(keys.revoked)]) {
      const check = await verifier.verify({ authorization }, { expiredKeyAllowed: false });
      expect(check).toEqual({ accepted: false, status: 401, message: expect.any(String) });
    }
  });

  it('refuses an expired key with 403 unless the route lets expired keys in', async () => {
    const verifier = authenticator();
    expect(await verifier.verify({ authorization: basic(keys.expired) }, { expiredKeyAllowed: false })).toMatchObject({ accepted: false, status: 403 });
    const allowed = await verifier.verify({ authorization: basic(keys.expired) }, { expiredKeyAllowed: true });
    expect(allowed.accepted && (allowed.principal as Principal).expired).toBe(true);
  });

  it('counts each accepted request against the key\'s limit and answers 429 with the wait past it', async () => {
    const verifier = authenticator(2);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await verifier.verify({ authorization: basic(keys.active) }, { expiredKeyAllowed: false }));
    expect(statuses.slice(0, 2).every((check) => check.accepted)).toBe(true);
    expect(statuses[2]).toMatchObject({ accepted: false, status: 429, retryAfterSeconds: expect.any(Number) });
  });
});

class Routes {
  findings(): void {}
  @AllowExpiredKey()
  status(): void {}
}

function contextFor(request: object, handler: () => void): ExecutionContextHost {
  const context = new ExecutionContextHost([request, {}], Routes, handler);
  context.setType('http');
  return context;
}

describe('ApiKeyGuard', () => {
  it('does the whole check itself where no request gate ran', async () => {
    const guard = new ApiKeyGuard(authenticator(1), new Reflector());
    const request: { headers: object; principal?: Principal } = { headers: { authorization: basic(keys.active) } };
    await expect(guard.canActivate(contextFor(request, Routes.prototype.findings))).resolves.toBe(true);
    expect(request.principal?.workspaceId).toBe('0b6f3b3e-0000-4000-8000-000000000001');
    await expect(guard.canActivate(contextFor({ headers: { authorization: basic(keys.active) } }, Routes.prototype.findings))).rejects.toBeInstanceOf(TooManyRequestsException);
    await expect(guard.canActivate(contextFor({ headers: {} }, Routes.prototype.findings))).rejects.toBeInstanceOf(UnauthorizedException);
    await expect(guard.canActivate(contextFor({ headers: { authorization: basic(keys.expired) } }, Routes.prototype.findings))).rejects.toBeInstanceOf(ForbiddenException);
  });

  it('does not count a request the gate already authenticated, and still honours @AllowExpiredKey', async () => {
    const guard = new ApiKeyGuard(authenticator(1), new Reflector());
    const gatePrincipal = (await authenticator().verify({ authorization: basic(keys.active) }, { expiredKeyAllowed: false })) as { principal: Principal };
    for (let i = 0; i < 3; i++) {
      await expect(guard.canActivate(contextFor({ headers: {}, principal: gatePrincipal.principal }, Routes.prototype.findings))).resolves.toBe(true);
    }
    const expired: Principal = { ...gatePrincipal.principal, expired: true, expiresAt: '2020-01-01T00:00:00.000Z' };
    await expect(guard.canActivate(contextFor({ headers: {}, principal: expired }, Routes.prototype.findings))).rejects.toBeInstanceOf(ForbiddenException);
    await expect(guard.canActivate(contextFor({ headers: {}, principal: expired }, Routes.prototype.status))).resolves.toBe(true);
  });
});
