import type { FactoryProvider, Provider } from '@nestjs/common';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { IndicatorStore } from '@vigil/detection-engine';
import { IntelRuntime } from './intel-runtime';

/**
 * The process's intel runtime (seed, configured lists, refresh timer; stopped on module destroy), or null when
 * scoring runs in worker threads: each thread then keeps its own, and this thread would hold a copy for nothing.
 */
export const IntelRuntimeProvider: FactoryProvider<Promise<IntelRuntime | null>> = {
  provide: IntelRuntime,
  useFactory: async (config: VigilConfig) => ((config.scoringWorkers ?? 0) > 0 ? null : IntelRuntime.start(config.intel)),
  inject: [VIGIL_CONFIG],
};

/** The shared {@link IndicatorStore} (null in worker mode): inject it with `@Inject(IndicatorStore)`. */
export const IntelProvider: FactoryProvider<IndicatorStore | null> = {
  provide: IndicatorStore,
  useFactory: (runtime: IntelRuntime | null) => runtime?.store ?? null,
  inject: [IntelRuntime],
};

/** Both providers: add these to the scoring module's `providers`. */
export const IntelProviders: Provider[] = [IntelRuntimeProvider, IntelProvider];
