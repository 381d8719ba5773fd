import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type Subscription } from '@vigil/bus';
import { TOPICS, type TelemetryBatch } from '@vigil/contracts';
import { Readiness } from '@vigil/platform';
import { STORE_FACTORY, type ServiceStore, type StoreFactory } from '@vigil/store';
import { TELEMETRY_MIGRATIONS } from './migrations';

export const TELEMETRY_ARCHIVE_GROUP = 'telemetry-archive';

const toClickHouseTime = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '');

/** Stores every accepted event (30-day retention), as one more consumer of the events topic. */
@Injectable()
export class TelemetryArchiveConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private store!: ServiceStore;
  private subscription?: Subscription;

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(STORE_FACTORY) private readonly stores: StoreFactory,
    private readonly readiness: Readiness,
  ) {
    readiness.expect('telemetry-archive');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.store = await this.stores.open('telemetry', TELEMETRY_MIGRATIONS);
    this.subscription = await this.bus.subscribe({ topic: TOPICS.events.name, group: TELEMETRY_ARCHIVE_GROUP, fromBeginning: true }, (batch) =>
      this.archive(batch),
    );
    this.readiness.ready('telemetry-archive');
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  private async archive(batch: BusBatch): Promise<void> {
    const rows: Record<string, unknown>[] = [];
    for (const record of batch.records) {
      let telemetry: TelemetryBatch;
      try {
        telemetry = JSON.parse(record.value.toString('utf8')) as TelemetryBatch;
      } catch {
        continue; // the scoring engine dead-letters unreadable records; nothing to archive
      }
      telemetry.events.forEach((event, index) => {
        const ts = Date.parse(event.ts);
        rows.push({
          workspace_id: telemetry.workspaceId,
          type: telemetry.type,
          ts: toClickHouseTime(Number.isFinite(ts) ? ts : telemetry.receivedAt),
          src_ip: event.srcIP ?? '',
          event_id: `${telemetry.batchId}:${index}`,
          received_at: toClickHouseTime(telemetry.receivedAt),
          body: JSON.stringify(event),
        });
      });
    }
    if (rows.length) await this.store.client.insert({ table: 'telemetry.events', format: 'JSONEachRow', values: rows });
  }
}
