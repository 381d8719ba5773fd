import {
  BadRequestException,
  Controller,
  HttpCode,
  Inject,
  Logger,
  NotFoundException,
  Param,
  Post,
  Req,
  ServiceUnavailableException,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeyGuard, CurrentPrincipal, type Principal } from '@vigil/auth';
import { BUS, BusBackpressureError, type Bus } from '@vigil/bus';
import { isTelemetryType, TOPICS } from '@vigil/contracts';
import { DISTINCT_COUNTER, endpointsSeenScope, type DistinctCounter } from '@vigil/counters';
import { parseTelemetryBatch } from '@vigil/ingest';
import { packTelemetryRecords } from './pack-batches';
import { endpointsOf } from './endpoints';
import { ingestMetrics } from './ingest-metrics';
import { IdempotencyInterceptor } from './idempotency';

/** Retry-After for a bus failure that is not backpressure (e.g. the broker is unreachable). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

export interface EventsResponse {
  received: number;
  accepted: number;
  rejected: Record<string, number>;
}

/**
 * POST /v1/events/{type}: decode (decompression and the 10 MB cap happen before the handler), split,
 * validate, publish durably, then answer. The 200 is sent only after the bus has the events on disk.
 */
@Controller('v1/events')
@UseGuards(ApiKeyGuard)
@UseInterceptors(IdempotencyInterceptor)
export class IngestController {
  private readonly logger = new Logger(IngestController.name);

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(DISTINCT_COUNTER) private readonly endpoints: DistinctCounter,
  ) {}

  @Post(':type')
  @HttpCode(200)
  async ingest(@Param('type') type: string, @Req() request: FastifyRequest, @CurrentPrincipal() principal: Principal): Promise<EventsResponse> {
    if (!isTelemetryType(type)) {
      throw new NotFoundException({ message: `Unknown event type "${type}"; use dns, ip, tls, http or lease` });
    }
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const now = new Date();
    const parsed = parseTelemetryBatch(type, body, now);
    if (parsed.notJson) {
      throw new BadRequestException({ message: 'The body is not a sequence of JSON objects (one event object per event)' });
    }
    const records = packTelemetryRecords(principal.workspaceId, type, parsed.events, now.getTime());
    try {
      await this.bus.publish(TOPICS.events.name, records);
    } catch (error) {
      // Nothing was accepted: the sensor keeps the batch and retries, so any bus failure is a 503, never a 500.
      const retryAfterSeconds = error instanceof BusBackpressureError ? error.retryAfterSeconds : UNAVAILABLE_RETRY_AFTER_SECONDS;
      if (!(error instanceof BusBackpressureError)) this.logger.warn(`publishing ${records.length} record(s) failed: ${String(error)}`);
      throw Object.assign(
        new ServiceUnavailableException({ message: error instanceof BusBackpressureError ? error.message : 'the event bus is unavailable; retry later' }),
        { retryAfterSeconds },
      );
    }
    await this.endpoints.add(endpointsSeenScope(principal.workspaceId, now), endpointsOf(parsed.events));
    ingestMetrics.record(type, parsed.received, parsed.events.length, parsed.rejected);
    return { received: parsed.received, accepted: parsed.events.length, rejected: parsed.rejected };
  }
}
