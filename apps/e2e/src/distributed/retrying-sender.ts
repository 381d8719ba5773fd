import { basicAuth, toNdjson, type ServiceProcess } from '@vigil/testing';

/** What became of the events a sender was given. */
export interface SendLedger {
  /** Tokens of events in a request that was finally answered 200. */
  answered: Set<string>;
  /** Tokens of events sent more than once (a try got no answer or a 5xx/429): they may be scored more than once. */
  resent: Set<string>;
  /** Tokens never answered 200 within the deadline (not owed a score). */
  abandoned: Set<string>;
  /** How the tries ended: HTTP status, or `no answer`. */
  outcomes: Record<string, number>;
}

export interface TokenedEvent {
  token: string;
  event: Record<string, unknown>;
}

const TRY_TIMEOUT_MS = 15_000;
const GIVE_UP_MS = 90_000;
const MAX_PAUSE_MS = 1_000;

/**
 * Posts DNS events the way a sensor does behind a load balancer: a request that gets no answer, 503 or 429 is
 * sent again (the same events) to the next gateway replica after a pause (Retry-After, capped to keep tests
 * short), until one answers 200.
 */
export class RetryingSender {
  readonly ledger: SendLedger = { answered: new Set(), resent: new Set(), abandoned: new Set(), outcomes: {} };
  private turn = 0;

  constructor(
    private readonly gateways: () => ServiceProcess[],
    private readonly key: string,
  ) {}

  async send(batch: TokenedEvent[]): Promise<void> {
    const body = toNdjson(batch.map((b) => b.event));
    const deadline = Date.now() + GIVE_UP_MS;
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) batch.forEach((b) => this.ledger.resent.add(b.token));
      const gateways = this.gateways();
      const target = gateways[this.turn++ % gateways.length];
      const outcome = await this.tryOnce(target, body);
      this.ledger.outcomes[outcome.label] = (this.ledger.outcomes[outcome.label] ?? 0) + 1;
      if (outcome.label === '200') {
        const accepted = (JSON.parse(outcome.text ?? '{}') as { accepted?: number }).accepted;
        if (accepted !== batch.length) throw new Error(`${target.name} accepted ${accepted} of ${batch.length} events: ${outcome.text}`);
        batch.forEach((b) => this.ledger.answered.add(b.token));
        return;
      }
      if (outcome.label !== 'no answer' && !['429', '503'].includes(outcome.label) && !outcome.label.startsWith('5')) {
        throw new Error(`POST /v1/events/dns on ${target.name}: unexpected ${outcome.label}: ${outcome.text}`);
      }
      if (Date.now() > deadline) {
        batch.forEach((b) => this.ledger.abandoned.add(b.token));
        return;
      }
      await new Promise((r) => setTimeout(r, Math.min(outcome.retryAfterMs ?? 200, MAX_PAUSE_MS)));
    }
  }

  private async tryOnce(target: ServiceProcess, body: Buffer): Promise<{ label: string; text?: string; retryAfterMs?: number }> {
    try {
      const res = await fetch(`${target.baseUrl}/v1/events/dns`, {
        method: 'POST',
        headers: { authorization: basicAuth(this.key), 'content-type': 'application/x-ndjson' },
        body,
        signal: AbortSignal.timeout(TRY_TIMEOUT_MS),
      });
      const text = await res.text();
      const retryAfter = Number(res.headers.get('retry-after'));
      return { label: String(res.status), text, retryAfterMs: Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : undefined };
    } catch {
      return { label: 'no answer' };
    }
  }
}
