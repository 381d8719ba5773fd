import { logLevel, type LogEntry, type logCreator } from 'kafkajs';
import type { BusLogger } from '../local/partition-log';

export type KafkaLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

export const KAFKAJS_LEVEL: Record<KafkaLogLevel, logLevel> = {
  nothing: logLevel.NOTHING,
  error: logLevel.ERROR,
  warn: logLevel.WARN,
  info: logLevel.INFO,
  debug: logLevel.DEBUG,
};

const LEVEL_NAMES: Record<number, string> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/** Routes kafkajs' own log lines into the bus logger as one line each. */
export function kafkaLogCreator(log: BusLogger): logCreator {
  return () =>
    ({ namespace, level, log: entry }: LogEntry) => {
      const { message, ...extra } = entry;
      delete (extra as Record<string, unknown>).timestamp;
      delete (extra as Record<string, unknown>).logger;
      const details = Object.keys(extra).length > 0 ? ` ${JSON.stringify(extra)}` : '';
      log(`${LEVEL_NAMES[level] ?? String(level)} ${namespace}: ${message}${details}`);
    };
}
