import type { TelemetryType } from '@vigil/contracts';
import type { ImportedEvent } from '@vigil/log-formats';

export interface BatchLimits {
  /** Decoded body size per request (the API's limit is 10 MiB). */
  maxBytes: number;
  maxEvents: number;
}

export const DEFAULT_LIMITS: BatchLimits = { maxBytes: 10_000_000, maxEvents: 65_535 };

interface Body {
  lines: string[];
  bytes: number;
}

/**
 * The events read from one byte range of a file, as NDJSON bodies per event type (a Suricata EVE range holds
 * several types). The range, not the events, identifies the batch: read again after a crash it gives the same
 * bodies, so it can be sent again under the same Idempotency-Keys.
 */
export class Batch {
  end: number;
  private readonly bodies = new Map<TelemetryType, Body>();
  private full = false;

  constructor(
    readonly start: number,
    private readonly limits: BatchLimits,
  ) {
    this.end = start;
  }

  add(event: ImportedEvent): void {
    let body = this.bodies.get(event.type);
    if (body === undefined) this.bodies.set(event.type, (body = { lines: [], bytes: 0 }));
    const line = JSON.stringify(event.event) + '\n';
    body.lines.push(line);
    body.bytes += Buffer.byteLength(line);
    // Leave room for one more large record before the API's limit.
    if (body.lines.length >= this.limits.maxEvents || body.bytes >= this.limits.maxBytes - 64 * 1024) this.full = true;
  }

  get isFull(): boolean {
    return this.full;
  }

  get eventCount(): number {
    let count = 0;
    for (const body of this.bodies.values()) count += body.lines.length;
    return count;
  }

  /** Each type's NDJSON body. */
  *requests(): Iterable<{ type: TelemetryType; body: Buffer; events: number }> {
    for (const [type, body] of this.bodies) yield { type, body: Buffer.from(body.lines.join('')), events: body.lines.length };
  }
}
