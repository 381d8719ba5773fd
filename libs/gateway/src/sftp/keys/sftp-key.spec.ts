import { decodeSftpKeyRecord, SftpKeyDirectory, sftpKeyRecord, type SftpKey, type SftpKeyControlRecord } from './sftp-key';

const key = (id: string, workspaceId = 'ws-1'): SftpKey => ({
  id,
  workspaceId,
  name: `sensor-${id}`,
  algorithm: 'ssh-ed25519',
  publicKey: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGm0',
  fingerprint: 'SHA256:abc',
  comment: '',
  createdAt: '2026-01-01T00:00:00.000Z',
});
const added = (id: string, version: number, workspaceId = 'ws-1'): SftpKeyControlRecord => ({ v: 1, id, workspaceId, version, removed: false, key: key(id, workspaceId) });
const removed = (id: string, version: number): SftpKeyControlRecord => ({ v: 1, id, workspaceId: 'ws-1', version, removed: true });

describe('SFTP key control records', () => {
  it('round-trip through a bus record keyed by key id', () => {
    const record = sftpKeyRecord(added('k1', 5));
    expect(record.key).toBe('k1');
    expect(decodeSftpKeyRecord(record.value)).toEqual(added('k1', 5));
    expect(decodeSftpKeyRecord(sftpKeyRecord(removed('k1', 6)).value)).toEqual(removed('k1', 6));
  });

  it.each(['{}', '{"v":2,"id":"a","workspaceId":"w","version":1,"removed":true}', '{"v":1,"id":"a","workspaceId":"w","version":1,"removed":false}', 'not json'])(
    'refuses %s',
    (text) => {
      expect(() => decodeSftpKeyRecord(Buffer.from(text))).toThrow();
    },
  );

  it('keeps the newest version per key; a removal hides the key, an older add does not bring it back', () => {
    const directory = new SftpKeyDirectory();
    expect(directory.apply(added('k1', 1))).toBe(true);
    expect(directory.apply(added('k2', 2, 'ws-2'))).toBe(true);
    expect(directory.ofWorkspace('ws-1').map((k) => k.id)).toEqual(['k1']);
    expect(directory.apply(removed('k1', 3))).toBe(true);
    expect(directory.apply(added('k1', 2))).toBe(false);
    expect(directory.get('k1')).toBeUndefined();
    expect(directory.active().map((k) => k.id)).toEqual(['k2']);
    expect(directory.maxVersion()).toBe(3);
  });
});
