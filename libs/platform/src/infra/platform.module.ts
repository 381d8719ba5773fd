import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { BUS, createBus, type Bus } from '@vigil/bus';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { CountersModule } from '@vigil/counters';
import { ChdbStoreFactory, STORE_FACTORY, createStoreFactory, type StoreFactory } from '@vigil/store';
import { Gauge } from 'prom-client';
import { metricsRegistry } from '../ops/metrics';
import { OpsController } from '../ops/ops.controller';
import { Readiness } from '../ops/readiness';

/**
 * What every Vigil process has once: its configuration, its connection to the bus, its store factory, its
 * counters, readiness and the operational endpoints. Feature modules get these by injection token.
 */
@Global()
@Module({})
export class PlatformModule implements OnApplicationShutdown {
  constructor(
    @Inject(BUS) private readonly bus: Bus,
    @Inject(STORE_FACTORY) private readonly stores: StoreFactory,
  ) {}

  static forRoot(config: VigilConfig, options: { http?: boolean } = {}): DynamicModule {
    return {
      module: PlatformModule,
      imports: [CountersModule.forRoot(config)],
      controllers: options.http === false ? [] : [OpsController],
      providers: [
        { provide: VIGIL_CONFIG, useValue: config },
        { provide: BUS, useFactory: () => createBus(config) },
        { provide: STORE_FACTORY, useFactory: () => withEngineMemoryMetric(createStoreFactory(config.store)) },
        Readiness,
      ],
      exports: [VIGIL_CONFIG, BUS, STORE_FACTORY, Readiness, CountersModule],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
    await this.stores.close();
  }
}

/** Embedded mode: the in-process ClickHouse engine's own memory is part of this process's RSS; report it. */
function withEngineMemoryMetric(factory: StoreFactory): StoreFactory {
  if (factory instanceof ChdbStoreFactory) {
    metricsRegistry.removeSingleMetric('vigil_store_engine_memory_bytes');
    new Gauge({
      name: 'vigil_store_engine_memory_bytes',
      help: 'Memory tracked by the embedded ClickHouse engine (chdb) of this process',
      registers: [metricsRegistry],
      async collect() {
        const bytes = await factory.trackedMemoryBytes().catch(() => undefined);
        if (bytes !== undefined) this.set(bytes);
      },
    });
  }
  return factory;
}
