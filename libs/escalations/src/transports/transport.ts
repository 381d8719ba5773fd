import type { EscalationItem } from '../payload/escalation-item';

/**
 * A failed delivery attempt. `retryable` false means another attempt would fail the same way (e.g. HTTP 400 or
 * 401): the delivery is dead-lettered at once. Messages name the target, never a secret.
 */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';

  constructor(
    message: string,
    readonly retryable: boolean,
    /** The receiver's Retry-After, in milliseconds (HTTP 429 and 503). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** One destination's connection: sends one item per call and resolves once the target has taken it. */
export interface EscalationTransport {
  send(item: EscalationItem, signal: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** An error's code or message, for a DeliveryError (never an object dump that could hold options). */
export function describeCause(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
