export * from './bus';
export { LocalBus, type LocalBusOptions, murmur2Partition } from './local';
export { createBus } from './bus-factory';
