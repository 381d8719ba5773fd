import { HttpException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@vigil/auth';
import { BusBackpressureError, type Bus, type BusRecord } from '@vigil/bus';
import { loadConfig } from '@vigil/config';
import { MemoryDistinctCounter } from '@vigil/counters';
import { IngestController, UNAVAILABLE_RETRY_AFTER_SECONDS } from './ingest.controller';
import { TelemetryIntake } from './telemetry-intake';

const principal = { workspaceId: 'ws-1' } as Principal;
const body = Buffer.from('{"srcIP":"10.0.0.5","query":"example.com","qtype":"A"}\n');
const request = { body } as unknown as FastifyRequest;

/** A bus whose publish fails the given way; the controller's answer to the failure is what is tested. */
function failingBus(error: Error): Bus & { published: BusRecord[][] } {
  const published: BusRecord[][] = [];
  return {
    published,
    publish: async (_topic, records) => {
      published.push(records);
      throw error;
    },
    subscribe: async () => {
      throw new Error('not used');
    },
    close: async () => undefined,
  };
}

async function statusOf(promise: Promise<unknown>): Promise<{ status: number; retryAfter?: number; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof HttpException)) throw error;
    const response = error.getResponse() as { message: string };
    return { status: error.getStatus(), retryAfter: (error as { retryAfterSeconds?: number }).retryAfterSeconds, message: response.message };
  }
  throw new Error('expected the request to be refused');
}

describe('IngestController when the bus cannot take the events', () => {
  it('answers 503 with the bus Retry-After on backpressure', async () => {
    const intake = new TelemetryIntake(failingBus(new BusBackpressureError(7)), new MemoryDistinctCounter(), loadConfig({ VIGIL_INGEST_WORKERS: '0' }));
    const answer = await statusOf(new IngestController(intake).ingest('dns', request, principal));
    expect(answer).toEqual({ status: 503, retryAfter: 7, message: 'the event bus is saturated; retry later' });
  });

  it('answers 503 (not 500) with a default Retry-After when the broker is unreachable', async () => {
    const bus = failingBus(new Error('KafkaJSNumberOfRetriesExceeded: connect ECONNREFUSED'));
    // Prepared in an ingest thread this time: the failure is answered the same way.
    const intake = new TelemetryIntake(bus, new MemoryDistinctCounter(), loadConfig({ VIGIL_INGEST_WORKERS: '1' }));
    try {
      const answer = await statusOf(new IngestController(intake).ingest('dns', request, principal));
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toBe(UNAVAILABLE_RETRY_AFTER_SECONDS);
      expect(bus.published).toHaveLength(1);
    } finally {
      await intake.onModuleDestroy();
    }
  });
});
