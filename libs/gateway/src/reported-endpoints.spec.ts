import type { TelemetryEvent } from '@vigil/contracts';
import { EndpointSet, type PackedEndpoints } from './endpoints';
import { ReportedEndpoints } from './reported-endpoints';

function packed(ips: string[]): PackedEndpoints {
  const set = new EndpointSet();
  for (const srcIP of ips) set.add({ ts: '2026-11-29T00:00:00.000Z', srcIP } as TelemetryEvent);
  return set.packed();
}

describe('ReportedEndpoints', () => {
  it('leaves out endpoints marked in the scope, and only those', () => {
    const reported = new ReportedEndpoints();
    const first = reported.unreported('day-1', packed(['10.0.0.1', '10.0.0.2']), 0);
    expect(first.ids).toEqual(['ip:10.0.0.1', 'ip:10.0.0.2']);
    // Not marked yet (the counter has not taken them): still unreported.
    expect(reported.unreported('day-1', packed(['10.0.0.1']), 0).ids).toEqual(['ip:10.0.0.1']);
    reported.markReported('day-1', first.hashes, 0);
    expect(reported.unreported('day-1', packed(['10.0.0.1', '10.0.0.3', '10.0.0.2']), 1).ids).toEqual(['ip:10.0.0.3']);
    expect(reported.unreported('day-2', packed(['10.0.0.1']), 1).ids).toEqual(['ip:10.0.0.1']);
  });

  it('sends everything again once a scope is older than the refresh interval', () => {
    const reported = new ReportedEndpoints({ refreshMs: 1_000 });
    reported.markReported('day-1', reported.unreported('day-1', packed(['10.0.0.1']), 0).hashes, 0);
    expect(reported.unreported('day-1', packed(['10.0.0.1']), 999).ids).toEqual([]);
    expect(reported.unreported('day-1', packed(['10.0.0.1']), 1_000).ids).toEqual(['ip:10.0.0.1']);
  });

  it('remembers at most so many scopes and hashes per scope, sending the rest every time', () => {
    const reported = new ReportedEndpoints({ maxScopes: 2, maxPerScope: 2 });
    const three = packed(['10.0.0.1', '10.0.0.2', '10.0.0.3']);
    reported.markReported('a', reported.unreported('a', three, 0).hashes, 0);
    expect(reported.unreported('a', three, 0).ids).toEqual(['ip:10.0.0.3']);
    reported.markReported('b', reported.unreported('b', three, 0).hashes, 0);
    reported.markReported('c', reported.unreported('c', three, 0).hashes, 0); // 'a' is forgotten
    expect(reported.unreported('a', three, 0).ids).toHaveLength(3);
    expect(reported.unreported('c', three, 0).ids).toEqual(['ip:10.0.0.3']);
  });
});
