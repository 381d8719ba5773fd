import type { FactoryProvider, Provider } from '@nestjs/common';
import { VIGIL_CONFIG, type VigilConfig } from '@vigil/config';
import { IndicatorStore } from '@vigil/detection-engine';
import { IntelRuntime } from './intel-runtime';

/** The process's intel runtime (seed, configured lists, refresh timer; stopped on module destroy). */
export const IntelRuntimeProvider: FactoryProvider<Promise<IntelRuntime>> = {
  provide: IntelRuntime,
  useFactory: (config: VigilConfig) => IntelRuntime.start(config.intel),
  inject: [VIGIL_CONFIG],
};

/** The shared {@link IndicatorStore}: inject it with `@Inject(IndicatorStore)` (or as a constructor type). */
export const IntelProvider: FactoryProvider<IndicatorStore> = {
  provide: IndicatorStore,
  useFactory: (runtime: IntelRuntime) => runtime.store,
  inject: [IntelRuntime],
};

/** Both providers: add these to the scoring module's `providers`. */
export const IntelProviders: Provider[] = [IntelRuntimeProvider, IntelProvider];
