import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { BUS, createBus, type Bus } from '@vigil/bus';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { CountersModule } from '@vigil/counters';
import { ChdbStoreFactory, STORE_FACTORY, createStoreFactory, type EngineMemory, type StoreFactory } from '@vigil/store';
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
    // Both gauges are filled from one reading per scrape (one engine query).
    let reading: { at: number; memory: Promise<EngineMemory | undefined> } | undefined;
    const read = () => {
      if (reading === undefined || Date.now() - reading.at > 1000) reading = { at: Date.now(), memory: factory.trackedMemory().catch(() => undefined) };
      return reading.memory;
    };
    metricsRegistry.removeSingleMetric('vigil_store_engine_memory_bytes');
    metricsRegistry.removeSingleMetric('vigil_store_engine_activity_memory_bytes');
    new Gauge({
      name: 'vigil_store_engine_memory_bytes',
      help: 'Memory tracked by the embedded ClickHouse engine (chdb) of this process',
      registers: [metricsRegistry],
      async collect() {
        const memory = await read();
        if (memory !== undefined) this.set(memory.total);
      },
    });
    new Gauge({
      name: 'vigil_store_engine_activity_memory_bytes',
      help: 'Part of vigil_store_engine_memory_bytes held by what the engine is doing now: merges, inserts and queries',
      labelNames: ['activity'],
      registers: [metricsRegistry],
      async collect() {
        const memory = await read();
        if (memory === undefined) return;
        for (const activity of ['merges', 'inserts', 'queries'] as const) this.set({ activity }, memory[activity]);
      },
    });
  }
  return factory;
}
