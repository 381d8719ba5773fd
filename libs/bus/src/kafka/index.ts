export { KafkaBus, type KafkaBusOptions } from './kafka-bus';
export type { KafkaLogLevel } from './kafka-log';
