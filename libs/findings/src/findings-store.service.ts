import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { STORE_FACTORY, type StoreFactory } from '@vigil/store';
import { FINDINGS_DATABASE, FINDINGS_MIGRATIONS } from './migrations';
import { AlertsRepository, FindingsRepository } from './repositories';

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
    const options = { visibilityDelayMs: this.config.visibilityDelayMs, soleWriter: this.config.store.kind === 'chdb' };
    this.findings = new FindingsRepository(store, options);
    this.alerts = new AlertsRepository(store, options);
  }
}
