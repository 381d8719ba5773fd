export { LocalBus, type LocalBusOptions } from './local-bus';
export { murmur2Partition } from './murmur2';
