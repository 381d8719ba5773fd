import { displayPath, resolveAreaPath } from './path-policy';

describe('resolveAreaPath', () => {
  it.each([
    ['/', { kind: 'root' }],
    ['.', { kind: 'root' }],
    ['', { kind: 'root' }],
    ['/./', { kind: 'root' }],
    ['dns.log', { kind: 'file', name: 'dns.log' }],
    ['/dns.log', { kind: 'file', name: 'dns.log' }],
    ['./conn.09:00:00-10:00:00.log.gz', { kind: 'file', name: 'conn.09:00:00-10:00:00.log.gz' }],
    ['//eve.json', { kind: 'file', name: 'eve.json' }],
    ['.dns.log.part', { kind: 'file', name: '.dns.log.part' }],
  ])('takes %j as %j', (raw, path) => {
    expect(resolveAreaPath(raw)).toEqual({ ok: true, path });
  });

  it.each(['..', '../x.log', '/../etc/passwd', 'a/../b', '/upload/../../x', '..//x', 'x/..'])('refuses traversal in %j', (raw) => {
    expect(resolveAreaPath(raw)).toMatchObject({ ok: false, reason: 'traversal' });
  });

  it.each(['/etc/passwd', 'sub/x.log', '~/x.log', '/home/ws/dns.log', '/proc/self/environ'])('refuses %j as outside the area', (raw) => {
    expect(resolveAreaPath(raw)).toMatchObject({ ok: false, reason: 'outside_area' });
  });

  it.each(['dns\u0000.log', 'a\nb', 'c:\\windows\\x', 'x'.repeat(256), '/' + 'y'.repeat(5000)])('refuses the malformed name %j', (raw) => {
    expect(resolveAreaPath(raw)).toMatchObject({ ok: false, reason: 'invalid_name' });
  });

  it('shows paths as absolute within the area', () => {
    expect(displayPath({ kind: 'root' })).toBe('/');
    expect(displayPath({ kind: 'file', name: 'dns.log' })).toBe('/dns.log');
  });
});
