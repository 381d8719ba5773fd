import { MAX_LIMIT, parseTelemetryQuery } from './telemetry-query';

describe('telemetry search parameters', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');

  it('defaults to the last hour, 1000 events, all types', () => {
    expect(parseTelemetryQuery({ workspace: 'acme' }, now)).toEqual({ workspace: 'acme', sinceMs: now - 3_600_000, untilMs: now, types: [], limit: 1000, host: undefined });
  });

  it('reads hosts, relative and absolute times, types and limits', () => {
    const query = parseTelemetryQuery({ workspace: 'w', host: 'WKS-7.corp', since: '2h', until: '2026-03-10T11:30:00Z', type: 'dns,http', limit: '25' }, now);
    expect(query).toEqual({ workspace: 'w', host: { name: 'wks-7.corp' }, sinceMs: now - 7_200_000, untilMs: now - 1_800_000, types: ['dns', 'http'], limit: 25 });
    expect(parseTelemetryQuery({ workspace: 'w', host: '10.1.2.3' }, now).host).toEqual({ ip: '10.1.2.3' });
  });

  it.each([
    [{}, /workspace .* is required/],
    [{ workspace: 'w', since: '2d' }, /at most 24 hours/],
    [{ workspace: 'w', since: '2026-03-10T13:00:00Z' }, /since must be before until/],
    [{ workspace: 'w', since: '2026-01-01T00:00:00Z', until: '2026-01-01T01:00:00Z' }, /30 days/],
    [{ workspace: 'w', since: 'yesterday' }, /ISO 8601/],
    [{ workspace: 'w', type: 'dns,smtp' }, /type must be one or more of/],
    [{ workspace: 'w', limit: String(MAX_LIMIT + 1) }, /limit must be a whole number from 1 to 10000/],
    [{ workspace: 'w', limit: '0' }, /limit/],
    [{ workspace: ['a', 'b'] }, /given once/],
    [{ workspace: 'w', colour: 'red' }, /unknown parameter/],
  ])('refuses %j', (params, message) => {
    expect(() => parseTelemetryQuery(params as Record<string, unknown>, now)).toThrow(message);
  });
});
