import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { BUS, type Bus } from '@vigil/bus';
import { TOPICS } from '@vigil/contracts';
import type { EscalationDestination, RetrySettings } from '../destinations/destination';
import { DestinationRegistry } from '../destinations/destination-registry.service';
import { ESCALATIONS_OPTIONS, type EscalationsOptions } from '../escalations-options';
import { syntheticItem } from '../payload/synthetic';
import { createTransport, type TransportFactory } from '../transports/create-transport';
import { DeliveryCancelledError, deliverWithRetries } from './deliver';
import { DeliverySupervisor } from './delivery-supervisor';
import { DeliveryWorker, type DeliveryTopics } from './delivery-worker';

/** The answer of `POST /admin/v1/escalations/:id/test`. */
export interface TestOutcome {
  ok: boolean;
  attempts: number;
  /** Why each failed attempt failed, in order. */
  errors: string[];
  idempotencyKey: string;
  ms: number;
}

/** A test gives up after this long, whatever Retry-After a receiver asks for. */
const TEST_DEADLINE_MS = 45_000;

/** Runs the delivery of every active destination in this replica, and test deliveries on request. */
@Injectable()
export class DeliveryService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Escalations');
  private readonly supervisor: DeliverySupervisor;
  private readonly transports: TransportFactory;

  constructor(
    @Inject(BUS) bus: Bus,
    private readonly registry: DestinationRegistry,
    @Optional() @Inject(ESCALATIONS_OPTIONS) options: EscalationsOptions = {},
  ) {
    const log = { log: (m: string) => this.logger.log(m), warn: (m: string) => this.logger.warn(m) };
    const topics: DeliveryTopics = { findings: TOPICS.findings.name, alerts: TOPICS.alerts.name, deadLetter: TOPICS.deadLetter.name, ...options.topics };
    this.transports = options.createTransport ?? ((destination) => createTransport(destination, log.warn));
    this.supervisor = new DeliverySupervisor(
      (destination) => new DeliveryWorker(destination, { bus, topics, transport: this.transports(destination), log, commitIntervalMs: options.commitIntervalMs }),
      log,
    );
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.registry.ready;
    this.registry.onChange(() => void this.supervisor.reconcile(this.registry.active()));
    // Not awaited: joining Kafka consumer groups must not hold up start-up.
    void this.supervisor.reconcile(this.registry.active());
  }

  async onModuleDestroy(): Promise<void> {
    await this.supervisor.stopAll();
  }

  /** Destination ids this replica delivers. */
  get running(): string[] {
    return this.supervisor.running;
  }

  /** Sends a synthetic finding (or alert) to a destination with a short retry budget and reports how it went. */
  async test(id: string): Promise<TestOutcome> {
    const destination = this.registry.get(id);
    const item = syntheticItem(destination);
    const transport = this.transports(destination);
    const errors: string[] = [];
    const started = Date.now();
    const finish = (ok: boolean, attempts: number): TestOutcome => ({ ok, attempts, errors, idempotencyKey: item.idempotencyKey, ms: Date.now() - started });
    try {
      const outcome = await deliverWithRetries(transport, item, testRetry(destination), AbortSignal.timeout(TEST_DEADLINE_MS), {
        onRetry: (_attempt, error) => errors.push(error),
      });
      if (!outcome.ok) errors.push(outcome.error);
      this.logger.log(`escalation "${destination.name}" (${id}) test: ${outcome.ok ? 'delivered' : 'failed'} after ${outcome.attempts} attempt(s)`);
      return finish(outcome.ok, outcome.attempts);
    } catch (error) {
      if (!(error instanceof DeliveryCancelledError)) throw error;
      errors.push(`gave up after ${TEST_DEADLINE_MS / 1000} s`);
      return finish(false, errors.length);
    } finally {
      await transport.close();
    }
  }
}

function testRetry(destination: EscalationDestination): RetrySettings {
  const { maxAttempts, initialBackoffMs, maxBackoffMs } = destination.retry;
  return { maxAttempts: Math.min(maxAttempts, 3), initialBackoffMs: Math.min(initialBackoffMs, 1_000), maxBackoffMs: Math.min(maxBackoffMs, 5_000) };
}
