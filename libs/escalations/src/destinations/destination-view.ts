import type { EscalationDestination, EscalationFormat, RetrySettings } from './destination';
import { fingerprint } from './fingerprint';

/** A destination as the operator API and the CLI show it: every secret replaced by its fingerprint. */
export interface DestinationView {
  id: string;
  workspaceId: string;
  name: string;
  format: EscalationFormat;
  minSeverity: number;
  createdAt: string;
  retry: RetrySettings;
  kind: 'webhook' | 'syslog' | 'kafka';
  /** Where it delivers: the URL (without its query, which may carry a token), `host:port`, or `brokers/topic`. */
  target: string;
  /** Kind-specific settings; secrets and certificates only as fingerprints. */
  settings: Record<string, unknown>;
}

const optionalFingerprint = (value: string | undefined) => (value === undefined ? undefined : fingerprint(value));

export function destinationView(destination: EscalationDestination): DestinationView {
  const { id, workspaceId, name, format, minSeverity, createdAt, retry, target } = destination;
  const common = { id, workspaceId, name, format, minSeverity, createdAt, retry: { ...retry } };
  switch (target.kind) {
    case 'webhook': {
      const url = new URL(target.url);
      return {
        ...common,
        kind: 'webhook',
        target: `${url.origin}${url.pathname}`,
        settings: {
          urlQuery: url.search === '' ? undefined : fingerprint(url.search),
          secret: fingerprint(target.secret),
          headers: Object.fromEntries(Object.entries(target.headers).map(([header, value]) => [header, fingerprint(value)])),
          caCert: optionalFingerprint(target.caCert),
          allowHttp: target.allowHttp,
          timeoutMs: target.timeoutMs,
        },
      };
    }
    case 'syslog':
      return {
        ...common,
        kind: 'syslog',
        target: `${target.host}:${target.port}`,
        settings: {
          transport: target.transport,
          encoding: target.encoding,
          facility: target.facility,
          appName: target.appName,
          hostname: target.hostname,
          caCert: optionalFingerprint(target.caCert),
          clientCert: optionalFingerprint(target.clientCertificate?.cert),
          clientKey: optionalFingerprint(target.clientCertificate?.key),
          timeoutMs: target.timeoutMs,
        },
      };
    case 'kafka':
      return {
        ...common,
        kind: 'kafka',
        target: `${target.brokers.join(',')}/${target.topic}`,
        settings: {
          tls: target.tls,
          caCert: optionalFingerprint(target.caCert),
          clientCert: optionalFingerprint(target.clientCertificate?.cert),
          clientKey: optionalFingerprint(target.clientCertificate?.key),
          sasl: target.sasl ? { mechanism: target.sasl.mechanism, username: target.sasl.username, password: fingerprint(target.sasl.password) } : undefined,
          timeoutMs: target.timeoutMs,
        },
      };
  }
}
