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

  describe('waiting for room', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    /** Armed with a 1,000-event floor and no rate yet, so the limit is 1,000 events. */
    function armed(options: { admissionWaitMs?: number; maxWaiting?: number } = {}): ScoringBacklog {
      const b = backlog();
      b.arm({ maxDelayMs: 500, floorEvents: 1_000, admissionWaitMs: 5_000, ...options });
      return b;
    }

    it('lets a body in as soon as scoring has made room, instead of refusing it', async () => {
      const b = armed();
      b.published(3_000);
      const admission = b.admit();
      expect(admission).toBeInstanceOf(Promise);
      expect(b.waitingCount).toBe(1);
      b.scored(1_500);
      expect(b.waitingCount).toBe(1);
      b.scored(600);
      expect(b.waitingCount).toBe(0);
      await expect(admission).resolves.toBe(true);
      expect(b.waitedCount).toBe(1);
      expect(b.shedCount).toBe(0);
    });

    it('lets waiting bodies in one at a time, in arrival order, each once the previous one was published', async () => {
      const b = armed();
      b.published(3_000);
      const order: string[] = [];
      const first = Promise.resolve(b.admit()).then((ok) => order.push(`first ${ok}`));
      const second = Promise.resolve(b.admit()).then((ok) => order.push(`second ${ok}`));
      b.scored(3_000);
      await first;
      expect(order).toEqual(['first true']);
      // The room is there, but the first body has not shown up in the backlog yet: a newcomer queues too.
      expect(b.admit()).toBeInstanceOf(Promise);
      expect(b.waitingCount).toBe(2);
      b.published(2_000);
      expect(b.waitingCount).toBe(2);
      b.scored(1_000);
      await second;
      expect(order).toEqual(['first true', 'second true']);
      expect(b.waitingCount).toBe(1);
    });

    it('moves on when a body let in is never published (refused as bad, or its sender gone)', async () => {
      const b = armed();
      b.published(3_000);
      const first = b.admit();
      const second = b.admit();
      b.scored(3_000);
      await expect(first).resolves.toBe(true);
      jest.advanceTimersByTime(1_999);
      expect(b.waitingCount).toBe(1);
      jest.advanceTimersByTime(1);
      await expect(second).resolves.toBe(true);
    });

    it('hands the room on when the body let in is answered without being published, and skips senders gone', async () => {
      const b = armed();
      b.published(3_000);
      const first = b.admit();
      const hungUp = b.admit(() => true);
      const third = b.admit();
      b.scored(3_000);
      await expect(first).resolves.toBe(true);
      expect(b.waitingCount).toBe(2);
      b.settled();
      await expect(hungUp).resolves.toBe(false);
      await expect(third).resolves.toBe(true);
      expect(b.waitedCount).toBe(2);
    });

    it('refuses a body still waiting when its time is up, and one that finds the queue full at once', async () => {
      const b = armed({ admissionWaitMs: 300, maxWaiting: 2 });
      b.published(3_000);
      const waiting = [b.admit(), b.admit()];
      expect(b.admit()).toBe(false);
      expect(b.shedCount).toBe(1);
      jest.advanceTimersByTime(300);
      await expect(Promise.all(waiting)).resolves.toEqual([false, false]);
      expect(b.waitingCount).toBe(0);
      expect(b.shedCount).toBe(3);
      // Scoring catching up later lets nobody in twice: the refused bodies are gone from the queue.
      b.scored(3_000);
      expect(b.waitedCount).toBe(0);
      expect(b.admit()).toBe(true);
    });

    it('refuses the bodies waiting when scoring stops, and later ones at once', async () => {
      const b = armed();
      b.published(3_000);
      const waiting = b.admit();
      b.stopWaiting();
      await expect(waiting).resolves.toBe(false);
      expect(b.admit()).toBe(false);
      expect(b.shedCount).toBe(2);
    });

    it('refuses at once when waiting is turned off', () => {
      const b = armed({ admissionWaitMs: 0 });
      b.published(3_000);
      expect(b.admit()).toBe(false);
      expect(b.waitingCount).toBe(0);
    });
  });
});
