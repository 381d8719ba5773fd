export * from './bus';
export { LocalBus, type LocalBusOptions, murmur2Partition } from './local';
export { KafkaBus, type KafkaBusOptions, type KafkaLogLevel } from './kafka';
export { createBus } from './bus-factory';
