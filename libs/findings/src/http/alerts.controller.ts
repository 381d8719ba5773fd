import { Controller, Get, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard, CurrentPrincipal, type Principal } from '@vigil/auth';
import type { Alert, ThreatDictionary } from '@vigil/contracts';
import { THREAT_DICTIONARY } from '@vigil/detection-engine';
import { FindingsStoreService } from '../findings-store.service';
import { pageFor, pageJson } from './results-query';

/**
 * GET /v1/alerts (deprecated): always the four keys `follow`, `more`, `alerts`, `threats`; `threats` holds every
 * threat an alert of the page names (the whole dictionary with `threats=all`).
 */
@Controller('v1/alerts')
@UseGuards(ApiKeyGuard)
export class AlertsController {
  constructor(private readonly stores: FindingsStoreService) {}

  @Get()
  async list(@Query() query: Record<string, unknown>, @CurrentPrincipal() principal: Principal, @Res() reply: FastifyReply): Promise<void> {
    const page = await pageFor(this.stores.alerts, 'alerts', principal, query);
    const threats: ThreatDictionary = {};
    if (query.threats === 'all') Object.assign(threats, THREAT_DICTIONARY);
    for (const body of page.bodies) {
      // Only the threat ids are needed; the alerts themselves are served as stored.
      for (const id of (JSON.parse(body.toString('utf8')) as Pick<Alert, 'threats'>).threats) {
        threats[id] = THREAT_DICTIONARY[id] ?? { title: id, severity: 3 };
      }
    }
    await reply
      .header('X-Stream-Follow', page.bookmark)
      .header('X-Stream-More', String(page.more))
      .header('Content-Type', 'application/json; charset=utf-8')
      .send(pageJson(page, 'alerts', `,"threats":${JSON.stringify(threats)}`));
  }
}
