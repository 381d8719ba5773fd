import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { STORE_FACTORY, type StoreFactory } from '@vigil/store';
import { FINDINGS_DATABASE, FINDINGS_MIGRATIONS } from './migrations';
import { AlertsRepository, FindingsRepository } from './repositories';

/**
 * Each partition of the findings and alerts topics delivers a few records about once a second, and every insert
 * costs the store a few milliseconds of CPU however few its rows: waiting this long lets the deliveries of other
 * partitions join (sustained bench: about 13 inserts a second per table without it).
 */
const INSERT_LINGER_MS = 100;

/** Opens the findings-api's own database once and holds its two repositories. */
@Injectable()
export class FindingsStoreService implements OnModuleInit {
  findings!: FindingsRepository;
  alerts!: AlertsRepository;

  constructor(
    @Inject(STORE_FACTORY) private readonly stores: StoreFactory,
    @Inject(VIGIL_CONFIG) private readonly config: VigilConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    const store = await this.stores.open(FINDINGS_DATABASE, FINDINGS_MIGRATIONS);
    // The embedded engine binds its data directory to this one process: nothing else writes these tables.
    const options = { visibilityDelayMs: this.config.visibilityDelayMs, soleWriter: this.config.store.kind === 'chdb', insertLingerMs: INSERT_LINGER_MS };
    this.findings = new FindingsRepository(store, options);
    this.alerts = new AlertsRepository(store, options);
  }
}
