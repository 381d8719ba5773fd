import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type Subscription } from '@vigil/bus';
import { TOPICS } from '@vigil/contracts';
import { Readiness } from '@vigil/platform';
import { CoalescingInserter, STORE_FACTORY, type ServiceStore, type StoreFactory } from '@vigil/store';
import { archiveRowOf } from './archive-row';
import { ARCHIVE_TABLE, TELEMETRY_MIGRATIONS } from './migrations';

export const TELEMETRY_ARCHIVE_GROUP = 'telemetry-archive';

/**
 * One insert carries the batches of every partition that queued while the previous one ran or lingered, up to
 * MAX_INSERT_BYTES. Small batches linger up to INSERT_LINGER_MS for more to join them: a 300 KB part costs the
 * engine three times the merge CPU of a 4 MB one, and the archive is read by searches, not by anything waiting on
 * the second.
 */
const MAX_INSERT_BYTES = 8 * 1024 * 1024;
const INSERT_LINGER_MS = 1000;

/** Stores every accepted event (30-day retention), as one more consumer of the events topic. */
@Injectable()
export class TelemetryArchiveConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private store!: ServiceStore;
  private inserter!: CoalescingInserter;
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
    // Every partition's batches go through one insert at a time, so the archive never has a dozen inserts in
    // flight ahead of the findings a SOC tool is waiting for.
    this.inserter = new CoalescingInserter(
      (body) => this.store.insertLines(ARCHIVE_TABLE, body),
      { maxBytes: MAX_INSERT_BYTES, lingerMs: INSERT_LINGER_MS },
    );
    this.subscription = await this.bus.subscribe({ topic: TOPICS.events.name, group: TELEMETRY_ARCHIVE_GROUP, fromBeginning: true }, (batch) =>
      this.archive(batch),
    );
    this.readiness.ready('telemetry-archive');
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }

  private async archive(batch: BusBatch): Promise<void> {
    if (batch.records.length === 0) return;
    // Joined once, into the insert (not here and again there): every accepted byte passes through, and each copy
    // adds to the external memory that brings on the main thread's full collections.
    await this.inserter.add(batch.records.flatMap(archiveRowOf));
  }
}
