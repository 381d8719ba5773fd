import type { EscalationItem } from '../payload/escalation-item';
import { DeliveryError, type EscalationTransport } from '../transports/transport';
import { DeliveryPausedError, deliverWithRetries } from './deliver';

/** A transport that fails its first `failures` sends (pure logic: the real transports have their own specs). */
function flaky(failures: number, retryable = true): EscalationTransport & { sends: number } {
  return {
    sends: 0,
    async send() {
      this.sends++;
      if (this.sends <= failures) throw new DeliveryError(`failure ${this.sends}`, retryable);
    },
    async close() {},
  };
}

const item = { idempotencyKey: 'k:1' } as EscalationItem;
const retry = { maxAttempts: 4, initialBackoffMs: 10, maxBackoffMs: 20 };
const signal = () => new AbortController().signal;

describe('deliverWithRetries', () => {
  it('retries until delivered, and gives up after maxAttempts or at once for a non-retryable failure', async () => {
    expect(await deliverWithRetries(flaky(2), item, retry, signal())).toEqual({ ok: true, attempts: 3 });
    expect(await deliverWithRetries(flaky(9), item, retry, signal())).toEqual({ ok: false, attempts: 4, error: 'failure 4' });
    expect(await deliverWithRetries(flaky(9, false), item, retry, signal())).toEqual({ ok: false, attempts: 1, error: 'failure 1' });
  });

  it('pauses instead of waiting past holdMs, and resumes where it left off', async () => {
    const transport = flaky(2);
    const slow = { maxAttempts: 4, initialBackoffMs: 200, maxBackoffMs: 200 };
    const paused = await deliverWithRetries(transport, item, slow, signal(), { holdMs: 50 }).catch((e: unknown) => e);
    expect(paused).toBeInstanceOf(DeliveryPausedError);
    const { resume } = paused as DeliveryPausedError;
    expect(resume.attempts).toBe(1);
    expect(resume.resumeAt).toBeGreaterThan(Date.now());
    const second = await deliverWithRetries(transport, item, slow, signal(), { holdMs: 50, resume }).catch((e: unknown) => e);
    // Still too early: paused again without an attempt.
    expect(second).toBeInstanceOf(DeliveryPausedError);
    expect(transport.sends).toBe(1);
    const outcome = await deliverWithRetries(transport, item, slow, signal(), { resume });
    expect(outcome).toEqual({ ok: true, attempts: 3 });
    expect(transport.sends).toBe(3);
  });
});
