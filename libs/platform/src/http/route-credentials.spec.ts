import { credentialRuleFor, type CredentialRule } from './route-credentials';

describe('ROUTE_CREDENTIALS', () => {
  it.each([
    ['/healthz', 'none'],
    ['/readyz', 'none'],
    ['/metrics', 'none'],
    ['/openapi.json', 'none'],
    ['/console', 'none'],
    ['/console/assets/app.js', 'none'],
    ['/v1/events/:type', 'api-key'],
    ['/v1/detections', 'api-key'],
    ['/v1/findings', 'api-key'],
    ['/v1/account/status', 'api-key'],
    ['/admin/v1/keys', 'operator-token'],
    ['/admin/v1/keys/:prefix/revoke', 'operator-token'],
  ])('%s needs %s', (route, credential) => {
    expect(credentialRuleFor(route)?.credential).toBe(credential);
  });

  it('lets expired keys in on account status only', () => {
    expect(credentialRuleFor('/v1/account/status')?.expiredKeyAllowed).toBe(true);
    for (const route of ['/v1/findings', '/v1/events/:type', '/v1/account/other']) {
      expect(credentialRuleFor(route)?.expiredKeyAllowed).toBeFalsy();
    }
  });

  it('covers nothing it does not name: no prefix tricks, no unlisted routes', () => {
    expect(credentialRuleFor('/healthz/extra')).toBeUndefined();
    expect(credentialRuleFor('/consoles')).toBeUndefined();
    expect(credentialRuleFor('/v1')).toBeUndefined();
    expect(credentialRuleFor('/administrator')).toBeUndefined();
    expect(credentialRuleFor('/v2/anything')).toBeUndefined();
  });

  it('takes the first row that covers a route', () => {
    const rules: CredentialRule[] = [
      { route: '/v1/open', credential: 'none' },
      { route: '/v1/*', credential: 'api-key' },
    ];
    expect(credentialRuleFor('/v1/open', rules)?.credential).toBe('none');
    expect(credentialRuleFor('/v1/closed', rules)?.credential).toBe('api-key');
  });
});
