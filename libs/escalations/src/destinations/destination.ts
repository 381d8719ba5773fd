/**
 * An escalation destination: where a workspace's findings (or legacy alerts) are pushed, and how. Held in full,
 * secrets included, only by the escalations table, the `ctl.escalations.v1` control topic and the memory of the
 * replicas that deliver; everything shown to operators goes through {@link destinationView}.
 */

/** `ocsf`: OCSF 1.2.0 findings from `tlm.findings.v1`; `alert`: legacy alerts from `tlm.alerts.v1`. */
export type EscalationFormat = 'ocsf' | 'alert';
export const ESCALATION_FORMATS: readonly EscalationFormat[] = ['ocsf', 'alert'];

export interface RetrySettings {
  /** Attempts per delivery, the first included; after the last one the delivery is dead-lettered. */
  maxAttempts: number;
  /** Back-off before the second attempt; doubles per attempt (with jitter) up to maxBackoffMs. */
  initialBackoffMs: number;
  maxBackoffMs: number;
}

/** PEM client certificate and key for mutual TLS (the key is a secret). */
export interface ClientCertificate {
  cert: string;
  key: string;
}

export interface WebhookTarget {
  kind: 'webhook';
  url: string;
  /** HMAC-SHA256 key of the X-Vigil-Signature header (secret). */
  secret: string;
  /** Extra request headers, e.g. a receiver's own token (values are secrets). */
  headers: Record<string, string>;
  /** PEM certificate(s) trusted instead of the system roots (a private CA or a self-signed receiver). */
  caCert?: string;
  /** Plain HTTP to a host that is not loopback (otherwise refused). */
  allowHttp: boolean;
  /** Per attempt: connection, request and response. */
  timeoutMs: number;
}

export type SyslogEncoding = 'json' | 'cef';

export interface SyslogTarget {
  kind: 'syslog';
  host: string;
  port: number;
  transport: 'tcp' | 'tls';
  /** MSG part: the finding or alert as JSON, or one CEF line. */
  encoding: SyslogEncoding;
  /** RFC 5424 facility, 0–23 (default 16, local0). */
  facility: number;
  /** RFC 5424 APP-NAME. */
  appName: string;
  /** RFC 5424 HOSTNAME (default: this machine's host name). */
  hostname?: string;
  caCert?: string;
  clientCertificate?: ClientCertificate;
  timeoutMs: number;
}

export type KafkaSaslMechanism = 'plain' | 'scram-sha-256' | 'scram-sha-512';

export interface KafkaTarget {
  kind: 'kafka';
  brokers: string[];
  topic: string;
  tls: boolean;
  caCert?: string;
  clientCertificate?: ClientCertificate;
  sasl?: { mechanism: KafkaSaslMechanism; username: string; password: string };
  timeoutMs: number;
}

export type EscalationTarget = WebhookTarget | SyslogTarget | KafkaTarget;
export type TargetKind = EscalationTarget['kind'];

export interface EscalationDestination {
  /** UUID; also names the destination's consumer group `escalation.<id>`. */
  id: string;
  workspaceId: string;
  name: string;
  format: EscalationFormat;
  /** Deliver only findings/alerts of at least this severity (1–5). */
  minSeverity: number;
  /** ISO date-time. Records appended to the source topic before this are not delivered. */
  createdAt: string;
  retry: RetrySettings;
  target: EscalationTarget;
}

/** The consumer group of a destination on its source topic. */
export function deliveryGroup(destinationId: string): string {
  return `escalation.${destinationId}`;
}
