import type { KeyListing } from '@vigil/account';
import { workspacePrincipal } from './operator.controller';

const now = new Date('2026-06-01T00:00:00Z');
function key(prefix: string, status: KeyListing['status'], expiresAt: string | null): KeyListing {
  return { keyHash: prefix.repeat(4), prefix, workspaceId: 'ws', workspaceName: 'acme', status, createdAt: '2026-01-01T00:00:00Z', expiresAt, version: 1 };
}

describe('workspacePrincipal', () => {
  it('is registered when a key is active and expired only when every usable key is', () => {
    expect(workspacePrincipal('ws', [key('a', 'inactive', null), key('b', 'active', '2026-12-01T00:00:00Z')], now)).toMatchObject({
      keyHash: 'bbbb',
      registered: true,
      expired: false,
      expiresAt: '2026-12-01T00:00:00Z',
    });
    expect(workspacePrincipal('ws', [key('a', 'active', '2026-05-01T00:00:00Z'), key('b', 'revoked', null)], now)).toMatchObject({ registered: true, expired: true });
    expect(workspacePrincipal('ws', [key('a', 'inactive', null)], now)).toMatchObject({ registered: false, expired: false });
  });
});
