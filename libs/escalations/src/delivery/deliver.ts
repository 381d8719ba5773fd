import type { RetrySettings } from '../destinations/destination';
import type { EscalationItem } from '../payload/escalation-item';
import { DeliveryError, describeCause, type EscalationTransport } from '../transports/transport';
import { backoffMs } from './retry-policy';

export type DeliveryOutcome = { ok: true; attempts: number } | { ok: false; attempts: number; error: string };

/** Thrown when delivery stops because the worker is stopping: the item is neither delivered nor dead-lettered. */
export class DeliveryCancelledError extends Error {
  override readonly name = 'DeliveryCancelledError';
  constructor() {
    super('delivery cancelled');
  }
}

/**
 * Thrown instead of waiting when the next attempt is due later than `DeliveryRun.holdMs` allows: the caller hands
 * its partition back to the bus (which calls it again), so a long back-off never holds up a consumer-group
 * rebalance, and resumes with `resume` on the next call.
 */
export class DeliveryPausedError extends Error {
  override readonly name = 'DeliveryPausedError';
  constructor(
    readonly resume: { attempts: number; resumeAt: number },
    readonly lastError: string,
  ) {
    super(`attempt ${resume.attempts} failed (${lastError}); next attempt in ${Math.max(0, resume.resumeAt - Date.now())} ms`);
  }
}

export interface DeliveryRun {
  /** An attempt failed and another follows after `waitMs`. */
  onRetry?(attempt: number, error: string, waitMs: number): void;
  /** Where a paused delivery left off (attempts made, when the next is due). */
  resume?: { attempts: number; resumeAt: number };
  /** Longest this call may wait before pausing with DeliveryPausedError (default: no limit). */
  holdMs?: number;
}

/** Waits `ms`, or rejects with DeliveryCancelledError as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new DeliveryCancelledError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new DeliveryCancelledError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Sends one item, retrying failed attempts with back-off (see retry-policy.ts) until it is delivered, an attempt
 * fails in a way retrying cannot fix, or `retry.maxAttempts` are used up.
 */
export async function deliverWithRetries(
  transport: EscalationTransport,
  item: EscalationItem,
  retry: RetrySettings,
  signal: AbortSignal,
  run: DeliveryRun = {},
): Promise<DeliveryOutcome> {
  const holdUntil = run.holdMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + run.holdMs;
  const pauseOrWait = async (attempts: number, resumeAt: number, lastError: string) => {
    if (resumeAt > holdUntil) throw new DeliveryPausedError({ attempts, resumeAt }, lastError);
    await sleep(Math.max(0, resumeAt - Date.now()), signal);
  };
  if (run.resume) await pauseOrWait(run.resume.attempts, run.resume.resumeAt, 'resuming');
  for (let attempt = (run.resume?.attempts ?? 0) + 1; ; attempt++) {
    if (signal.aborted) throw new DeliveryCancelledError();
    try {
      await transport.send(item, signal);
      return { ok: true, attempts: attempt };
    } catch (error) {
      if (signal.aborted) throw new DeliveryCancelledError();
      const message = describeCause(error);
      const retryable = !(error instanceof DeliveryError) || error.retryable;
      if (!retryable || attempt >= retry.maxAttempts) return { ok: false, attempts: attempt, error: message };
      const waitMs = backoffMs(retry, attempt, error instanceof DeliveryError ? error.retryAfterMs : undefined);
      run.onRetry?.(attempt, message, waitMs);
      await pauseOrWait(attempt, Date.now() + waitMs, message);
    }
  }
}
