import { UnauthorizedException } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { ALLOW_EXPIRED_KEY } from '@vigil/auth';
import { loadConfig } from '@vigil/config';
import { credentialRuleFor } from '@vigil/platform';
import { makeTempDir } from '@vigil/testing';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensureAdminToken, ensureAdminTokenFile } from '../admin-token';
import { AccountStatusController } from './account-status.controller';
import { AdminKeysController } from './admin-keys.controller';
import { AdminGuard } from './admin.guard';
import { OperatorTokenVerifier } from './operator-token.verifier';

describe('OperatorTokenVerifier and AdminGuard', () => {
  const temp = makeTempDir('vigil-operator-');
  const config = loadConfig({ VIGIL_DATA_DIR: temp.path });
  afterAll(() => temp.cleanup());

  it('accept only the bearer token from the data directory', async () => {
    const verifier = new OperatorTokenVerifier(config);
    const token = ensureAdminToken(temp.path);
    expect(await verifier.verify({ authorization: `Bearer ${token}` })).toEqual({ accepted: true });
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${token}`, `Bearer ${token}x`, `Bearer`]) {
      expect(await verifier.verify({ authorization })).toEqual({ accepted: false, status: 401, message: expect.stringMatching(/admin token/) });
    }
    const guard = new AdminGuard(verifier);
    const context = (authorization?: string) => new ExecutionContextHost([{ headers: { authorization } }, {}]);
    expect(guard.canActivate(context(`Bearer ${token}`))).toBe(true);
    expect(() => guard.canActivate(context('Bearer wrong'))).toThrow(UnauthorizedException);
  });
});

describe('VIGIL_ADMIN_TOKEN_FILE: one operator token file shared by services', () => {
  const temp = makeTempDir('vigil-token-file-');
  afterAll(() => temp.cleanup());

  it('is the token the verifier takes instead of <data dir>/admin-token, created once when missing', async () => {
    const shared = path.join(temp.path, 'shared', 'admin-token');
    const account = new OperatorTokenVerifier(loadConfig({ VIGIL_DATA_DIR: path.join(temp.path, 'account'), VIGIL_ADMIN_TOKEN_FILE: shared }));
    const token = fs.readFileSync(shared, 'utf8').trim();
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect(fs.statSync(shared).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(path.join(temp.path, 'account', 'admin-token'))).toBe(false);
    // A second service pointed at the same file accepts the same token.
    const rules = new OperatorTokenVerifier(loadConfig({ VIGIL_DATA_DIR: path.join(temp.path, 'rules'), VIGIL_ADMIN_TOKEN_FILE: shared }));
    for (const verifier of [account, rules]) expect(await verifier.verify({ authorization: `Bearer ${token}` })).toEqual({ accepted: true });
    expect(fs.readdirSync(path.dirname(shared))).toEqual(['admin-token']);
  });

  it('refuses an empty file and names a file it cannot create', () => {
    const empty = path.join(temp.path, 'empty-token');
    fs.writeFileSync(empty, '\n');
    expect(() => ensureAdminTokenFile(empty)).toThrow(/empty/);
    // A parent that is a file fails for root too (as a read-only mount would for the service's user).
    const notADirectory = path.join(temp.path, 'not-a-directory');
    fs.writeFileSync(notADirectory, 'x');
    expect(() => ensureAdminTokenFile(path.join(notADirectory, 'admin-token'))).toThrow(/not-a-directory\/admin-token does not exist and cannot be created/);
  });
});

/** The route table (checked before the body) and the controllers' own guards must agree. */
describe('the account routes in ROUTE_CREDENTIALS', () => {
  const routeOf = (controller: object, method?: (...args: never[]) => unknown) => {
    const base = Reflect.getMetadata(PATH_METADATA, controller) as string;
    const own = method ? (Reflect.getMetadata(PATH_METADATA, method) as string) : '/';
    return ('/' + [base, own].join('/')).replace(/\/+/g, '/').replace(/\/$/, '');
  };

  it('lets expired keys in exactly where @AllowExpiredKey does', () => {
    const handler = AccountStatusController.prototype.get;
    const route = routeOf(AccountStatusController, handler);
    expect(route).toBe('/v1/account/status');
    expect(Reflect.getMetadata(ALLOW_EXPIRED_KEY, handler)).toBe(true);
    expect(credentialRuleFor(route)).toEqual(expect.objectContaining({ credential: 'api-key', expiredKeyAllowed: true }));
  });

  it('puts every operator route behind the operator token', () => {
    const proto = AdminKeysController.prototype as unknown as Record<string, (...args: never[]) => unknown>;
    for (const name of ['list', 'create', 'activate', 'revoke', 'setExpiry']) {
      expect(credentialRuleFor(routeOf(AdminKeysController, proto[name]))?.credential).toBe('operator-token');
    }
  });
});
