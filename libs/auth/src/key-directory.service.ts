import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { BUS, type Bus, type Subscription } from '@vigil/bus';
import { TOPICS, type ApiKeyRecord } from '@vigil/contracts';
import { KeyDirectory } from './key-directory';

/** Keeps this service's KeyDirectory in step with `ctl.api-keys.v1`; start-up waits until it has caught up. */
@Injectable()
export class KeyDirectoryService extends KeyDirectory implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(KeyDirectoryService.name);
  private subscription?: Subscription;

  constructor(@Inject(BUS) private readonly bus: Bus) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    this.subscription = await this.bus.subscribe({ topic: TOPICS.apiKeys.name }, async (batch) => {
      for (const record of batch.records) {
        try {
          this.apply(JSON.parse(record.value.toString('utf8')) as ApiKeyRecord);
        } catch (error) {
          this.logger.warn(`skipping an unreadable api-key record at offset ${record.offset}: ${String(error)}`);
        }
      }
    });
    await this.subscription.caughtUp;
  }

  async onModuleDestroy(): Promise<void> {
    await this.subscription?.close();
  }
}
