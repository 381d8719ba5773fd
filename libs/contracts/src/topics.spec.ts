import { ALL_TOPICS, telemetryKey, TOPICS } from './topics';

describe('topics', () => {
  it('keys telemetry by workspace and source IP', () => {
    expect(telemetryKey('ws1', '10.0.0.1')).toBe('ws1|10.0.0.1');
    expect(telemetryKey('ws1', undefined)).toBe('ws1|');
  });
  it('compacts only control-plane topics and the scoring state', () => {
    const compacted = ALL_TOPICS.filter((t) => t.cleanup === 'compact').map((t) => t.name);
    expect(compacted.every((n) => n.startsWith('ctl.') || n === TOPICS.scoringState.name)).toBe(true);
    expect(TOPICS.events.cleanup).toBe('delete');
  });
});
