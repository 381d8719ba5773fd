import {
  BadRequestException,
  Controller,
  HttpCode,
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
import { isTelemetryType } from '@vigil/contracts';
import { bodyCodingOf } from '@vigil/ingest';
import { IdempotencyInterceptor } from './idempotency';
import { TelemetryBusUnavailableError, TelemetryIntake, type EventsResponse } from './telemetry-intake';

export { UNAVAILABLE_RETRY_AFTER_SECONDS, type EventsResponse } from './telemetry-intake';

/**
 * POST /v1/events/{type}: decode (in an ingest thread, under the 10 MB decoded cap; a body with an Idempotency-Key
 * is decoded before the handler, see create-http-app.ts), split, validate, publish durably, then answer. The 200
 * is sent only after the bus has the events on disk.
 */
@Controller('v1/events')
@UseGuards(ApiKeyGuard)
@UseInterceptors(IdempotencyInterceptor)
export class IngestController {
  constructor(private readonly intake: TelemetryIntake) {}

  @Post(':type')
  @HttpCode(200)
  async ingest(@Param('type') type: string, @Req() request: FastifyRequest, @CurrentPrincipal() principal: Principal): Promise<EventsResponse> {
    if (!isTelemetryType(type)) {
      throw new NotFoundException({ message: `Unknown event type "${type}"; use dns, ip, tls, http or lease` });
    }
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    let outcome;
    try {
      outcome = await this.intake.accept(principal.workspaceId, type, body, new Date(), bodyCodingOf(request));
    } catch (error) {
      // Nothing was accepted: the sensor keeps the batch and retries, so any bus failure is a 503, never a 500.
      if (!(error instanceof TelemetryBusUnavailableError)) throw error;
      throw Object.assign(new ServiceUnavailableException({ message: error.message }), { retryAfterSeconds: error.retryAfterSeconds });
    }
    if (outcome.notJson) {
      throw new BadRequestException({ message: 'The body is not a sequence of JSON objects (one event object per event)' });
    }
    return { received: outcome.received, accepted: outcome.accepted, rejected: outcome.rejected };
  }
}
