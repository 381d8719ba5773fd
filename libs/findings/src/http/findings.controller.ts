import { BadRequestException, Controller, Get, Headers, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiKeyGuard, CurrentPrincipal, type Principal } from '@vigil/auth';
import { FindingsStoreService } from '../findings-store.service';
import { pageFor, pageJson } from './results-query';

const NDJSON = 'application/x-ndjson';
const NEWLINE = Buffer.from('\n');

/**
 * GET /v1/findings: OCSF Detection Findings after the bookmark. JSON `{follow, more, records}` (legacy
 * `format=ocsf`: the list under `findings`), or NDJSON with one finding per line; the bookmark and `more`
 * also travel in X-Stream-Follow / X-Stream-More in both modes.
 */
@Controller('v1/findings')
@UseGuards(ApiKeyGuard)
export class FindingsController {
  constructor(private readonly stores: FindingsStoreService) {}

  @Get()
  async list(
    @Query() query: Record<string, unknown>,
    @Headers('accept') accept: string | undefined,
    @CurrentPrincipal() principal: Principal,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    if (query.schema !== undefined && query.schema !== 'ocsf') {
      throw new BadRequestException({ message: `schema must be "ocsf", got ${JSON.stringify(query.schema)}` });
    }
    if (query.format !== undefined && query.format !== 'ocsf') {
      throw new BadRequestException({ message: `format must be "ocsf", got ${JSON.stringify(query.format)}` });
    }
    const page = await pageFor(this.stores.findings, 'findings', principal, query);
    void reply.header('X-Stream-Follow', page.bookmark).header('X-Stream-More', String(page.more));
    if (accept?.toLowerCase().includes(NDJSON)) {
      const body = Buffer.concat(page.bodies.flatMap((item) => [item, NEWLINE]));
      await reply.header('Content-Type', `${NDJSON}; charset=utf-8`).send(body);
      return;
    }
    const listName = query.format === 'ocsf' && query.schema === undefined ? 'findings' : 'records';
    await reply
      .header('Content-Type', 'application/json; charset=utf-8')
      .send(pageJson(page, listName));
  }
}
