import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type Subscription } from '@vigil/bus';
import { TOPICS } from '@vigil/contracts';
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
    const rows = batch.records.map((record) => {
      const separator = record.key.indexOf('|');
      const receivedAt = Number(record.headers?.receivedAt ?? record.timestamp);
      return {
        workspace_id: record.key.slice(0, separator),
        type: record.headers?.type ?? '',
        src_ip: record.key.slice(separator + 1),
        batch_id: record.headers?.batchId ?? `${batch.topic}:${batch.partition}:${record.offset}`,
        received_at: toClickHouseTime(Number.isFinite(receivedAt) ? receivedAt : record.timestamp),
        event_count: Number(record.headers?.events ?? 0),
        events: record.value.toString('utf8'),
      };
    });
    if (rows.length) await this.store.client.insert({ table: 'telemetry.batches', format: 'JSONEachRow', values: rows });
  }
}
