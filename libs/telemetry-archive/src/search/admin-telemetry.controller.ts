import { Readable } from 'node:stream';
import { BadRequestException, Controller, Get, Inject, Logger, OnModuleInit, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { AdminGuard } from '@vigil/account';
import { UnknownWorkspaceError, WorkspaceDirectoryService } from '@vigil/escalations';
import { STORE_FACTORY, type ServiceStore, type StoreFactory } from '@vigil/store';
import { TELEMETRY_MIGRATIONS } from '../migrations';
import { InvalidTelemetryQueryError, parseTelemetryQuery, type TelemetryQuery } from './telemetry-query';
import { searchArchivedEvents } from './telemetry-search';

const NDJSON = 'application/x-ndjson; charset=utf-8';

/**
 * `GET /admin/v1/telemetry?workspace=&host=&since=&until=&type=&limit=`: the archived events behind a finding,
 * whichever channel they came in through, as NDJSON (one event per line, oldest accepted first), streamed. The
 * answer may end with one control line: `{"truncated":true,"limit":N}` when more events matched than `limit`, or
 * `{"error":"..."}` when the search failed after the first line was sent.
 */
@Controller('admin/v1/telemetry')
@UseGuards(AdminGuard)
export class AdminTelemetryController implements OnModuleInit {
  private readonly logger = new Logger('TelemetrySearch');
  private store!: ServiceStore;

  constructor(
    @Inject(STORE_FACTORY) private readonly stores: StoreFactory,
    private readonly workspaces: WorkspaceDirectoryService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.store = await this.stores.open('telemetry', TELEMETRY_MIGRATIONS);
  }

  @Get()
  async search(@Query() params: Record<string, unknown>, @Res() reply: FastifyReply): Promise<void> {
    let query: TelemetryQuery;
    let workspaceId: string;
    try {
      query = parseTelemetryQuery(params);
      workspaceId = this.workspaces.resolve(query.workspace).workspaceId;
    } catch (error) {
      if (error instanceof InvalidTelemetryQueryError || error instanceof UnknownWorkspaceError) throw new BadRequestException({ message: error.message });
      throw error;
    }
    const lines = searchArchivedEvents(this.store, workspaceId, query);
    // The first line (or the end) is awaited before answering, so a failing search still gets a proper status.
    const first = await lines.next();
    await reply
      .header('Content-Type', NDJSON)
      .header('X-Vigil-Limit', String(query.limit))
      .send(Readable.from(this.withControlLines(first, lines, query.limit), { objectMode: false }));
  }

  private async *withControlLines(first: IteratorResult<string>, rest: AsyncGenerator<string>, limit: number): AsyncGenerator<string> {
    let sent = 0;
    try {
      for (let next = first; !next.done; next = await rest.next()) {
        if (sent === limit) {
          yield `${JSON.stringify({ truncated: true, limit })}\n`;
          return;
        }
        sent++;
        yield next.value;
      }
    } catch (error) {
      this.logger.warn(`telemetry search failed after ${sent} line(s): ${String(error)}`);
      yield `${JSON.stringify({ error: 'the search failed part-way; narrow it or retry' })}\n`;
    } finally {
      await rest.return(undefined);
    }
  }
}
