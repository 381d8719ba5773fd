import { Controller, Get, Header, HttpCode, Res, ServiceUnavailableException } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { openApiDocument } from '@vigil/contracts';
import { metricsRegistry } from './metrics';
import { Readiness } from './readiness';

/** Liveness, readiness, Prometheus metrics and the OpenAPI document. No authentication. */
@Controller()
export class OpsController {
  constructor(private readonly readiness: Readiness) {}

  @Get('healthz')
  live(): { status: string } {
    return { status: 'ok' };
  }

  @Get('readyz')
  ready(): { status: string } {
    const { ready, waitingFor } = this.readiness.status();
    if (!ready) throw new ServiceUnavailableException({ message: `Not ready: waiting for ${waitingFor.join(', ')}` });
    return { status: 'ready' };
  }

  @Get('metrics')
  @HttpCode(200)
  async metrics(@Res() reply: FastifyReply): Promise<void> {
    const body = await metricsRegistry.metrics();
    await reply.header('Content-Type', metricsRegistry.contentType).send(body);
  }

  @Get('openapi.json')
  @Header('Content-Type', 'application/json; charset=utf-8')
  openApi(): unknown {
    return openApiDocument;
  }
}
