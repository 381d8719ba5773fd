import Redis from 'ioredis';

export type CountersLogger = (message: string) => void;

/**
 * An ioredis client tuned to fail fast: no offline queue and a short command timeout, so that while Redis is
 * unreachable a request is answered from the fallback at once instead of waiting for a reconnect. ioredis
 * keeps reconnecting in the background; connection errors are logged at most once per `logEveryMs`.
 */
export function createRedisClient(url: string, log: CountersLogger, options: { commandTimeoutMs?: number; logEveryMs?: number } = {}): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: options.commandTimeoutMs ?? 1000,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  });
  let lastLogged = 0;
  client.on('error', (error: Error) => {
    const now = Date.now();
    if (now - lastLogged < (options.logEveryMs ?? 30_000)) return;
    lastLogged = now;
    log(`Redis ${redactUrl(url)} unreachable, using per-process fallbacks: ${error.message}`);
  });
  return client;
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(invalid URL)';
  }
}

export function defaultCountersLogger(message: string): void {
  process.stderr.write(`[counters] ${message}\n`);
}
