import { ScoringBacklog } from './scoring-backlog';

describe('ScoringBacklog', () => {
  let now = 0;
  const backlog = () => new ScoringBacklog(() => now);

  beforeEach(() => {
    now = 0;
  });

  it('admits everything until armed', () => {
    const b = backlog();
    b.published(10_000_000);
    expect(b.admit()).toBe(true);
  });

  it('refuses once the backlog exceeds the allowed delay at the measured scoring rate', () => {
    const b = backlog();
    b.arm({ maxDelayMs: 500, floorEvents: 1_000 });
    // Scoring runs at 40 events/ms for two seconds.
    for (let t = 0; t < 2_000; t += 100) {
      now = t + 100;
      b.published(4_000);
      b.scored(4_000);
    }
    expect(b.limitEvents).toBeCloseTo(20_000, -2);
    b.published(19_000);
    expect(b.admit()).toBe(true);
    b.published(2_000);
    expect(b.admit()).toBe(false);
    expect(b.shedCount).toBe(1);
    b.scored(5_000);
    expect(b.admit()).toBe(true);
  });

  it('always admits up to the floor, even before any rate is known', () => {
    const b = backlog();
    b.arm({ maxDelayMs: 500, floorEvents: 50_000 });
    b.published(50_000);
    expect(b.admit()).toBe(true);
    b.published(1);
    expect(b.admit()).toBe(false);
  });

  it('never counts a negative backlog when scoring drains what an earlier process accepted', () => {
    const b = backlog();
    b.arm({ maxDelayMs: 500, floorEvents: 10 });
    b.scored(1_000);
    b.published(10);
    expect(b.backlogEvents).toBe(0);
    expect(b.admit()).toBe(true);
  });

  it('is disabled by a zero delay', () => {
    const b = backlog();
    b.arm({ maxDelayMs: 0, floorEvents: 1 });
    b.published(1_000_000);
    expect(b.admit()).toBe(true);
  });
});
