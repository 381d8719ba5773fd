import { promisify } from 'node:util';
import { gzip, constants as zlibConstants } from 'node:zlib';
import type { TelemetryType } from '@vigil/contracts';

const gzipAsync = promisify(gzip);

export interface EventsAnswer {
  received: number;
  accepted: number;
  rejected: Record<string, number>;
}

export type PostResult = { kind: 'answered'; answer: EventsAnswer; replayed: boolean } | { kind: 'key_conflict' };

export interface EventsClientOptions {
  url: string;
  key: string;
  /** Give up on one batch after this long without success (server down, always 429/503). */
  retryForMs: number;
  /** Told about each wait, for the progress display. */
  onRetry?: (reason: string, waitMs: number) => void;
  sleep?: (ms: number) => Promise<void>;
}

export class ImportRefusedError extends Error {}

/**
 * POST /v1/events/{type} as any sensor does: NDJSON body, gzip, HTTP Basic with the API key, an Idempotency-Key
 * per batch. 429 and 503 (and 409: the same key still being processed) are waited out — `Retry-After` when the
 * server sends one, else exponential backoff with jitter — as are network errors; any other error status ends
 * the import with the server's message. 422 (the key was used for another body) is reported to the caller.
 */
export class EventsClient {
  private readonly authorization: string;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: EventsClientOptions) {
    this.authorization = 'Basic ' + Buffer.from(`${options.key}:`).toString('base64');
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async post(type: TelemetryType, ndjson: Buffer, idempotencyKey: string): Promise<PostResult> {
    const body = await gzipAsync(ndjson, { level: zlibConstants.Z_BEST_SPEED });
    const url = `${this.options.url.replace(/\/+$/, '')}/v1/events/${type}`;
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      let waitMs: number;
      let reason: string;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { authorization: this.authorization, 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip', 'idempotency-key': idempotencyKey, accept: 'application/json' },
          body,
        });
        const text = await response.text();
        if (response.status === 200) return { kind: 'answered', answer: JSON.parse(text) as EventsAnswer, replayed: response.headers.get('idempotent-replayed') === 'true' };
        if (response.status === 422) return { kind: 'key_conflict' };
        if (response.status !== 429 && response.status !== 503 && response.status !== 409 && response.status !== 502 && response.status !== 504) {
          throw new ImportRefusedError(`the server refused a ${type} batch: ${response.status} ${messageOf(text)}`);
        }
        const retryAfter = Number(response.headers.get('retry-after'));
        waitMs = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff(attempt);
        reason = `${response.status} ${messageOf(text)}`;
      } catch (error) {
        if (error instanceof ImportRefusedError) throw error;
        waitMs = backoff(attempt);
        reason = `cannot reach ${this.options.url}: ${describe(error)}`;
      }
      if (Date.now() + waitMs - started > this.options.retryForMs) throw new ImportRefusedError(`giving up on a ${type} batch after ${Math.round((Date.now() - started) / 1000)} s: ${reason}`);
      this.options.onRetry?.(reason, waitMs);
      await this.sleep(waitMs);
    }
  }
}

/** 0.5 s, 1 s, 2 s, ... up to 30 s, each ±25 %. */
function backoff(attempt: number): number {
  const base = Math.min(30_000, 500 * 2 ** Math.min(attempt, 10));
  return Math.round(base * (0.75 + Math.random() * 0.5));
}

function messageOf(text: string): string {
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string') return message;
  } catch {
    // not JSON
  }
  return text.slice(0, 200);
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
