import type { Principal } from '@vigil/auth';
import { endpointsSeenScope, MemoryDistinctCounter } from '@vigil/counters';
import { AccountStatusService } from './account-status.service';

const NOW = new Date('2026-06-01T12:00:00.123Z');
const principal = (patch: Partial<Principal> = {}): Principal => ({
  keyHash: 'h',
  workspaceId: 'ws-1',
  registered: true,
  expired: false,
  expiresAt: null,
  ...patch,
});

describe('AccountStatusService', () => {
  const counter = new MemoryDistinctCounter();
  const service = new AccountStatusService(counter);

  beforeAll(async () => {
    await counter.add(endpointsSeenScope('ws-1', NOW), ['ip:10.0.0.1', 'host:a', 'ip:10.0.0.1']);
    await counter.add(endpointsSeenScope('ws-2', NOW), ['ip:10.0.0.9']);
  });

  it('reports an active key with the endpoints its workspace was seen from today', async () => {
    const status = await service.statusOf(principal(), NOW);
    expect(status).toEqual({ today: '2026-06-01T12:00:00.123Z', registered: true, expired: false, endpointsSeenToday: 2, messages: [] });
  });

  it('warns while the key is not activated', async () => {
    const status = await service.statusOf(principal({ registered: false }), NOW);
    expect(status.registered).toBe(false);
    expect(status.messages).toEqual([expect.objectContaining({ level: 2, body: expect.stringMatching(/not activated/) })]);
  });

  it('says ERROR for an expired key and WARN for one expiring soon', async () => {
    const expired = await service.statusOf(principal({ expired: true, expiresAt: '2026-05-01T00:00:00.000Z' }), NOW);
    expect(expired).toMatchObject({ expired: true, expirationDate: '2026-05-01T00:00:00.000Z' });
    expect(expired.messages.map((m) => m.level)).toEqual([3]);
    const soon = await service.statusOf(principal({ expiresAt: '2026-06-05T00:00:00.000Z' }), NOW);
    expect(soon.messages.map((m) => m.level)).toEqual([2]);
    const later = await service.statusOf(principal({ expiresAt: '2027-06-05T00:00:00.000Z' }), NOW);
    expect(later.messages).toEqual([]);
  });
});
