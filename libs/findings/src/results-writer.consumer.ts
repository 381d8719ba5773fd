import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type BusBatch, type Subscription } from '@vigil/bus';
import { TOPICS } from '@vigil/contracts';
import { Readiness } from '@vigil/platform';
import { FindingsStoreService } from './findings-store.service';
import { writeBusBatch, type RecordSink } from './bus-batch-writer';
import { resultsWriterMetrics } from './results-writer-metrics';

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
      await this.bus.subscribe({ topic: TOPICS.findings.name, group: 'findings-writer', fromBeginning: true }, (batch) => this.write(batch, this.stores.findings, 'findings')),
      await this.bus.subscribe({ topic: TOPICS.alerts.name, group: 'alerts-writer', fromBeginning: true }, (batch) => this.write(batch, this.stores.alerts, 'alerts')),
    );
    this.readiness.ready('results-writer');
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.subscriptions.map((s) => s.close()));
  }

  private async write(batch: BusBatch, repository: RecordSink<unknown>, kind: 'findings' | 'alerts'): Promise<void> {
    const { deadLetters } = await writeBusBatch(repository, batch);
    resultsWriterMetrics.stored(kind, batch.records.map((record) => record.timestamp));
    if (deadLetters.length) {
      this.logger.warn(`${deadLetters.length} record(s) from ${batch.topic} sent to ${TOPICS.deadLetter.name}`);
      await this.bus.publish(TOPICS.deadLetter.name, deadLetters);
    }
  }
}
