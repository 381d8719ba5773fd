export * from './bus';
export { LocalBus, type LocalBusOptions, murmur2Partition } from './local';
