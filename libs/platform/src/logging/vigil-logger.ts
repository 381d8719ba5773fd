import type { LoggerService } from '@nestjs/common';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { VigilConfig } from '@vigil/config';

/**
 * Paths pino replaces with "[Redacted]" in every line: credentials (API keys travel as the Basic user name in
 * Authorization), console session cookies and CSRF tokens, in requests and responses.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
];

const PINO_LEVELS: Record<VigilConfig['logLevel'], pino.Level> = { error: 'error', warn: 'warn', log: 'info', debug: 'debug' };

/** JSON lines when asked, or by default when stdout is not a terminal (a container, a pipe, a file). */
export function wantsJsonLogs(format: VigilConfig['logFormat'], stdoutIsTty = process.stdout.isTTY === true): boolean {
  if (format === 'json') return true;
  if (format === 'text') return false;
  return !stdoutIsTty;
}

/** The process's pino logger at VIGIL_LOG_LEVEL; `destination` defaults to stdout. */
export function createPinoLogger(config: Pick<VigilConfig, 'logLevel'>, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: PINO_LEVELS[config.logLevel],
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: REDACTED_PATHS },
    formatters: { level: (label) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Nest's logger interface over pino: `context` becomes a field, error stacks a `stack` field. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    // Nest calls error(message, stack?, context?).
    const [stack, context] = rest.length >= 2 ? rest : rest.length === 1 && typeof rest[0] === 'string' && rest[0].includes('\n') ? [rest[0]] : [undefined, rest[0]];
    this.emit('error', message, typeof context === 'string' ? context : undefined, typeof stack === 'string' ? { stack } : {});
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    this.emit(level, message, context, {});
  }

  private emit(level: pino.Level, message: unknown, context: string | undefined, extra: Record<string, unknown>): void {
    const fields: Record<string, unknown> = { ...(context ? { context } : {}), ...extra };
    if (message instanceof Error) this.logger[level]({ ...fields, err: message }, message.message);
    else if (typeof message === 'object' && message !== null) this.logger[level]({ ...fields, data: message });
    else this.logger[level](fields, String(message));
  }
}
