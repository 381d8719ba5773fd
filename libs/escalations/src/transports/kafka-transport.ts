import { Kafka, logLevel, type Producer, type SASLOptions } from 'kafkajs';
import type { EscalationDestination, KafkaTarget } from '../destinations/destination';
import type { EscalationItem } from '../payload/escalation-item';
import { DeliveryError, describeCause, type EscalationTransport } from './transport';

/**
 * Produces each item to a topic of an external Kafka cluster (a SIEM pipeline), waiting for all in-sync
 * replicas (acks=-1). Key: the finding uid (a finding's versions stay in order on one partition); headers carry
 * the idempotency key, the workspace and the item kind. The topic must exist: Vigil creates nothing there.
 */
export class KafkaTransport implements EscalationTransport {
  private readonly target: KafkaTarget;
  private producer: Producer | undefined;
  private connecting: Promise<Producer> | undefined;

  constructor(
    private readonly destination: EscalationDestination,
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    if (destination.target.kind !== 'kafka') throw new TypeError('KafkaTransport needs a kafka destination');
    this.target = destination.target;
  }

  private get where(): string {
    return `kafka ${this.target.brokers.join(',')}/${this.target.topic}`;
  }

  async send(item: EscalationItem, signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw new DeliveryError(`${this.where}: cancelled`, true);
    const producer = await this.connect();
    try {
      await producer.send({
        topic: this.target.topic,
        acks: -1,
        timeout: this.target.timeoutMs,
        messages: [
          {
            key: item.orderingKey,
            value: item.json,
            headers: { 'idempotency-key': item.idempotencyKey, 'vigil-workspace': item.workspaceId, 'vigil-event': item.source },
          },
        ],
      });
    } catch (error) {
      // A fresh producer next time: kafkajs' own state after a failed send is not always usable.
      await this.reset();
      throw new DeliveryError(`${this.where}: ${describeCause(error)}`, true);
    }
  }

  async close(): Promise<void> {
    await this.reset();
  }

  private connect(): Promise<Producer> {
    if (this.producer) return Promise.resolve(this.producer);
    this.connecting ??= (async () => {
      const producer = this.createProducer();
      try {
        await producer.connect();
      } catch (error) {
        await producer.disconnect().catch(() => undefined);
        throw new DeliveryError(`${this.where}: cannot connect: ${describeCause(error)}`, true);
      }
      this.producer = producer;
      return producer;
    })().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async reset(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    await producer?.disconnect().catch(() => undefined);
  }

  private createProducer(): Producer {
    const { brokers, tls, caCert, clientCertificate, sasl, timeoutMs } = this.target;
    const ssl = tls ? { ...(caCert ? { ca: [caCert] } : {}), ...(clientCertificate ? { cert: clientCertificate.cert, key: clientCertificate.key } : {}) } : undefined;
    const kafka = new Kafka({
      clientId: `vigil-escalation-${this.destination.id.slice(0, 8)}`,
      brokers,
      ssl: ssl && Object.keys(ssl).length === 0 ? true : ssl,
      sasl: sasl ? ({ mechanism: sasl.mechanism, username: sasl.username, password: sasl.password } as SASLOptions) : undefined,
      connectionTimeout: Math.min(timeoutMs, 10_000),
      requestTimeout: timeoutMs,
      // Vigil's own retry policy (back-off, dead letters) governs; kafkajs retries only briefly underneath it.
      retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 2_000 },
      logLevel: logLevel.ERROR,
      logCreator: () => (entry) => this.warn(`${this.where}: ${entry.log.message}`),
    });
    return kafka.producer({ allowAutoTopicCreation: false, idempotent: false });
  }
}
