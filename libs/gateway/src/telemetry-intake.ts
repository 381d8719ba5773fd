import { Inject, Injectable, Logger } from '@nestjs/common';
import { BUS, BusBackpressureError, type Bus } from '@vigil/bus';
import { TOPICS, type TelemetryType } from '@vigil/contracts';
import { DISTINCT_COUNTER, endpointsSeenScope, type DistinctCounter } from '@vigil/counters';
import { parseTelemetryBatch } from '@vigil/ingest';
import { endpointsOf } from './endpoints';
import { ingestMetrics } from './ingest-metrics';
import { packTelemetryRecords } from './pack-batches';

/** Retry-After for a bus failure that is not backpressure (e.g. the broker is unreachable). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface EventsResponse {
  received: number;
  accepted: number;
  rejected: Record<string, number>;
}

export type IntakeOutcome = ({ notJson: false } & EventsResponse) | { notJson: true };

/** Nothing of the batch was accepted: the bus refused it (saturated or unreachable); the sender retries. */
export class TelemetryBusUnavailableError extends Error {
  override readonly name = 'TelemetryBusUnavailableError';

  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/**
 * The gateway's one way onto the events topic, for every channel (HTTP `POST /v1/events/{type}`, SFTP uploads):
 * split, validate and normalise a body of JSON events, pack them per host, publish durably, count the
 * endpoints seen and the ingest metrics. Resolves only once the bus has the events on disk.
 */
@Injectable()
export class TelemetryIntake {
  private readonly logger = new Logger(TelemetryIntake.name);

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(DISTINCT_COUNTER) private readonly endpoints: DistinctCounter,
  ) {}

  /** `notJson`: the body held no JSON object at all (nothing published). */
  async accept(workspaceId: string, type: TelemetryType, body: Buffer, now = new Date()): Promise<IntakeOutcome> {
    const parsed = parseTelemetryBatch(type, body, now);
    if (parsed.notJson) return { notJson: true };
    const records = packTelemetryRecords(workspaceId, type, parsed.events, now.getTime());
    try {
      await this.bus.publish(TOPICS.events.name, records);
    } catch (error) {
      if (error instanceof BusBackpressureError) throw new TelemetryBusUnavailableError(error.message, error.retryAfterSeconds);
      this.logger.warn(`publishing ${records.length} record(s) failed: ${String(error)}`);
      throw new TelemetryBusUnavailableError('the event bus is unavailable; retry later', UNAVAILABLE_RETRY_AFTER_SECONDS);
    }
    await this.endpoints.add(endpointsSeenScope(workspaceId, now), endpointsOf(parsed.events));
    ingestMetrics.record(type, parsed.received, parsed.events.length, parsed.rejected);
    return { notJson: false, received: parsed.received, accepted: parsed.events.length, rejected: parsed.rejected };
  }
}
