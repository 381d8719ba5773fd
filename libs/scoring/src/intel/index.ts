export { IntelRuntime } from './intel-runtime';
export type { IntelRuntimeOptions } from './intel-runtime';
export { IntelProvider, IntelProviders, IntelRuntimeProvider } from './intel.provider';
