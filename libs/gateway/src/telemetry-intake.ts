import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { BUS, BusBackpressureError, type Bus } from '@vigil/bus';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { TOPICS, type TelemetryType } from '@vigil/contracts';
import { DISTINCT_COUNTER, endpointsSeenScope, type DistinctCounter } from '@vigil/counters';
import type { ContentCoding } from '@vigil/ingest';
import { scoringBacklog } from '@vigil/platform';
import type { PackedEndpoints } from './endpoints';
import { ingestMetrics } from './ingest-metrics';
import { IngestThreadsBusyError, TelemetryPreparer } from './prepare/telemetry-preparer';
import { ReportedEndpoints } from './reported-endpoints';

/** Retry-After for a bus failure that is not backpressure (e.g. the broker is unreachable). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
/** While the endpoint counter fails (Redis unreachable), one warning per this long, not one per body. */
const COUNT_FAILURE_WARNING_EVERY_MS = 60_000;

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
 * split, validate and normalise a body of JSON events and pack them per host (in an ingest thread, see
 * TelemetryPreparer), publish durably, count the endpoints seen and the ingest metrics. Resolves only once the
 * bus has the events on disk.
 */
@Injectable()
export class TelemetryIntake implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(TelemetryIntake.name);
  private readonly preparer: TelemetryPreparer;
  private readonly reportedEndpoints = new ReportedEndpoints();
  private uncountedSinceWarning = 0;
  private lastCountWarningMs = -Infinity;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(DISTINCT_COUNTER) private readonly endpoints: DistinctCounter,
    @Inject(VIGIL_CONFIG) config: VigilConfig,
  ) {
    this.preparer = new TelemetryPreparer(config.ingestWorkers ?? 0, config.ingestNice ?? 0);
  }

  /**
   * `notJson`: the body held no JSON object at all (nothing published). `body` as received with `coding`, which is
   * undone off the event loop (BodyDecodingError: 400 corrupt, 413 past the cap); it is consumed (see TelemetryPreparer).
   */
  async accept(workspaceId: string, type: TelemetryType, body: Buffer, now = new Date(), coding: ContentCoding = 'identity'): Promise<IntakeOutcome> {
    let prepared;
    try {
      prepared = await this.preparer.prepare(workspaceId, type, body, now.getTime(), coding);
    } catch (error) {
      if (error instanceof IngestThreadsBusyError) throw new TelemetryBusUnavailableError(error.message, 1);
      throw error;
    }
    if (prepared.notJson) return { notJson: true };
    const { records } = prepared;
    try {
      await this.bus.publish(TOPICS.events.name, records);
    } catch (error) {
      if (error instanceof BusBackpressureError) throw new TelemetryBusUnavailableError(error.message, error.retryAfterSeconds);
      this.logger.warn(`publishing ${records.length} record(s) failed: ${String(error)}`);
      throw new TelemetryBusUnavailableError('the event bus is unavailable; retry later', UNAVAILABLE_RETRY_AFTER_SECONDS);
    }
    scoringBacklog.published(prepared.accepted);
    await this.countEndpoints(endpointsSeenScope(workspaceId, now), prepared.endpoints, now.getTime());
    ingestMetrics.record(type, prepared.received, prepared.accepted, prepared.rejected);
    return { notJson: false, received: prepared.received, accepted: prepared.accepted, rejected: prepared.rejected };
  }

  /**
   * The events are durable by now, so a counter that fails (Redis unreachable) must not turn the answer into an
   * error the sender would retry: the endpoints stay unmarked and go with the next body that has them.
   */
  private async countEndpoints(scope: string, endpoints: PackedEndpoints, nowMs: number): Promise<void> {
    const fresh = this.reportedEndpoints.unreported(scope, endpoints, nowMs);
    if (fresh.ids.length === 0) return;
    try {
      await this.endpoints.add(scope, fresh.ids);
    } catch (error) {
      this.uncountedSinceWarning += fresh.ids.length;
      if (nowMs - this.lastCountWarningMs >= COUNT_FAILURE_WARNING_EVERY_MS) {
        this.logger.warn(`counting endpoints failed (${this.uncountedSinceWarning} since the last warning); they go again with later bodies: ${String(error)}`);
        this.lastCountWarningMs = nowMs;
        this.uncountedSinceWarning = 0;
      }
      return;
    }
    this.reportedEndpoints.markReported(scope, fresh.hashes, nowMs);
  }

  async onModuleInit(): Promise<void> {
    await this.preparer.warmUp();
  }

  async onModuleDestroy(): Promise<void> {
    await this.preparer.close();
  }
}
