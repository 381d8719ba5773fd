import type { EscalationDestination } from '../destinations/destination';
import { KafkaTransport } from './kafka-transport';
import { SyslogTransport } from './syslog-transport';
import type { EscalationTransport } from './transport';
import { WebhookTransport } from './webhook-transport';

export type TransportFactory = (destination: EscalationDestination) => EscalationTransport;

export function createTransport(destination: EscalationDestination, warn: (message: string) => void = () => undefined): EscalationTransport {
  switch (destination.target.kind) {
    case 'webhook':
      return new WebhookTransport(destination);
    case 'syslog':
      return new SyslogTransport(destination);
    case 'kafka':
      return new KafkaTransport(destination, warn);
  }
}
