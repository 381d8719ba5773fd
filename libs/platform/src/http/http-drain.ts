import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { replyWithMessage } from './message-reply';

/** Retry-After of the 503 a request gets while its process drains for shutdown. */
export const DRAINING_RETRY_AFTER_SECONDS = 5;

/**
 * The HTTP side of a graceful shutdown: requests in flight finish while every module is still up, and requests
 * that arrive meanwhile get 503 with Retry-After and `Connection: close` (their client retries, on another replica
 * or after the restart). Nest destroys the modules before it closes the HTTP server, so without this a telemetry
 * body in flight at a rolling restart met a closed ingest pool and answered 500, which clients do not retry.
 */
export class HttpDrain {
  private inFlight = 0;
  private draining = false;
  private onIdle: (() => void) | undefined;

  /** Counts the server's requests and answers those that arrive while draining (as the first onRequest hook). */
  attach(fastify: FastifyInstance, server: Server): void {
    server.on('request', (_request, response) => {
      this.inFlight += 1;
      // 'close' comes once the response is sent or the connection is gone, whichever happens first.
      response.once('close', () => {
        this.inFlight -= 1;
        if (this.inFlight === 0) this.onIdle?.();
      });
    });
    fastify.addHook('onRequest', async (_request, reply) => {
      if (!this.draining) return;
      void reply.header('Retry-After', String(DRAINING_RETRY_AFTER_SECONDS)).header('Connection', 'close');
      return replyWithMessage(reply, 503, `The service is shutting down; retry after ${DRAINING_RETRY_AFTER_SECONDS} s`);
    });
  }

  get requestsInFlight(): number {
    return this.inFlight;
  }

  /**
   * From now on answers new requests 503; resolves once no request is in flight or `deadlineMs` has passed,
   * with the number still in flight (they are cut off when the server closes).
   */
  async drain(deadlineMs: number): Promise<number> {
    this.draining = true;
    if (this.inFlight > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, deadlineMs);
        this.onIdle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.onIdle = undefined;
    }
    return this.inFlight;
  }
}
