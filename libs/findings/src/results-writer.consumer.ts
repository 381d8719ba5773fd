import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type BusRecord, type Subscription } from '@vigil/bus';
import { TOPICS } from '@vigil/contracts';
import { Readiness } from '@vigil/platform';
import { FindingsStoreService } from './findings-store.service';
import type { RecordRepository } from './record-repository';

/**
 * Stores findings and alerts from the bus. Offsets are committed after the insert, and inserts are idempotent,
 * so re-delivery after a crash stores nothing twice. Records that can never be stored go to the dead-letter topic.
 */
@Injectable()
export class ResultsWriterConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ResultsWriterConsumer.name);
  private readonly subscriptions: Subscription[] = [];

  constructor(
    @Inject(BUS) private readonly bus: Bus,
    private readonly stores: FindingsStoreService,
    private readonly readiness: Readiness,
  ) {
    readiness.expect('results-writer');
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscriptions.push(
      await this.bus.subscribe({ topic: TOPICS.findings.name, group: 'findings-writer', fromBeginning: true }, (batch) => this.write(batch, this.stores.findings)),
      await this.bus.subscribe({ topic: TOPICS.alerts.name, group: 'alerts-writer', fromBeginning: true }, (batch) => this.write(batch, this.stores.alerts)),
    );
    this.readiness.ready('results-writer');
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.close()));
  }

  private async write(batch: BusBatch, repository: RecordRepository<unknown, unknown>): Promise<void> {
    const records: unknown[] = [];
    const deadLetters: BusRecord[] = [];
    for (const record of batch.records) {
      try {
        records.push(JSON.parse(record.value.toString('utf8')));
      } catch {
        deadLetters.push({ key: record.key, value: record.value, headers: { reason: 'unreadable JSON', source: batch.topic } });
      }
    }
    const result = await repository.insert(records);
    for (const rejected of result.rejected) {
      deadLetters.push({ key: batch.topic, value: Buffer.from(JSON.stringify(rejected.record)), headers: { reason: rejected.reason, source: batch.topic } });
    }
    if (deadLetters.length) {
      this.logger.warn(`${deadLetters.length} record(s) from ${batch.topic} sent to ${TOPICS.deadLetter.name}`);
      await this.bus.publish(TOPICS.deadLetter.name, deadLetters);
    }
  }
}
