import type { INestApplication, LoggerService } from '@nestjs/common';
import type { HttpDrain } from '../http/http-drain';

/**
 * Signals that end a Vigil process gracefully. SIGUSR2 is left alone (Nest's own list includes it), so that
 * `node --heapsnapshot-signal=SIGUSR2` takes a heap snapshot instead of stopping the service.
 */
export const SHUTDOWN_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/**
 * How long requests in flight get to finish at shutdown. Kubernetes kills a pod 30 s after SIGTERM by default;
 * the rest of that time is for the modules to close (bus consumers commit, state checkpoints, stores flush).
 */
export const HTTP_DRAIN_DEADLINE_MS = 15_000;

/**
 * On the first of {@link SHUTDOWN_SIGNALS}: drains HTTP (requests in flight finish, new ones get 503), then closes
 * the application (Nest's destroy and shutdown hooks), then ends the process by the same signal, as Nest's
 * `enableShutdownHooks` does. Later signals are ignored while this runs.
 */
export function closeOnShutdownSignals(app: INestApplication, drain: HttpDrain, logger: LoggerService, drainDeadlineMs = HTTP_DRAIN_DEADLINE_MS): void {
  let received = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (received) return;
    received = true;
    void (async () => {
      const inFlight = drain.requestsInFlight;
      const cutOff = await drain.drain(drainDeadlineMs);
      if (cutOff > 0) logger.warn(`${signal}: ${cutOff} request(s) still in flight after ${drainDeadlineMs} ms are cut off`);
      else if (inFlight > 0) logger.log(`${signal}: ${inFlight} request(s) in flight finished before shutdown`);
      await app.close();
      for (const s of SHUTDOWN_SIGNALS) process.removeListener(s, onSignal);
      process.kill(process.pid, signal);
    })().catch((error: unknown) => {
      logger.error(`${signal}: shutdown failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exit(1);
    });
  };
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, onSignal);
}
