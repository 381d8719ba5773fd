import { serviceForPath } from './routing';

describe('serviceForPath', () => {
  it.each([
    ['/v1/events/dns', 'ingest-gateway'],
    ['/v1/events/lease?x=1', 'ingest-gateway'],
    ['/v1/findings?schema=ocsf&follow=abc', 'findings-api'],
    ['/v1/alerts', 'findings-api'],
    ['/v1/account/status', 'account'],
    ['/admin/v1/keys/vgl_abc/revoke', 'account'],
    ['/v1/ae/inventory/threats', 'rules'],
    ['/v1/detections?import_mode=merge', 'rules'],
  ])('routes %s to %s', (path, app) => {
    expect(serviceForPath(path)).toBe(app);
  });

  it('refuses a path no service serves', () => {
    expect(() => serviceForPath('/v2/anything')).toThrow('no service serves /v2/anything');
  });
});
