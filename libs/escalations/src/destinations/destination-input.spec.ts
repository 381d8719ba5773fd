import { selfSignedLocalhost, type TlsMaterial } from '../testing/tls-material';
import { destinationFor } from '../testing/records';
import { parseDestinationInput } from './destination-input';
import { destinationView } from './destination-view';
import { fingerprint } from './fingerprint';

describe('destination input', () => {
  let tls: TlsMaterial;
  let other: TlsMaterial;
  beforeAll(async () => {
    [tls, other] = await Promise.all([selfSignedLocalhost('a'), selfSignedLocalhost('b')]);
  });

  it('reads a webhook with defaults', () => {
    const input = parseDestinationInput({ workspace: 'acme', webhook: { url: 'https://siem.example/hook', secret: 's'.repeat(20) } });
    expect(input).toMatchObject({ workspace: 'acme', format: 'ocsf', minSeverity: 1, retry: { maxAttempts: 8, initialBackoffMs: 1000, maxBackoffMs: 60_000 } });
    expect(input.target).toMatchObject({ kind: 'webhook', url: 'https://siem.example/hook', allowHttp: false, headers: {}, timeoutMs: 10_000 });
  });

  it.each([
    [{ workspace: 'a' }, /exactly one of webhook, syslog, kafka/],
    [{ workspace: 'a', webhook: { url: 'https://x/' }, syslog: { host: 'h', port: 1 } }, /exactly one/],
    [{ webhook: { url: 'https://x/' } }, /workspace is required/],
    [{ workspace: 'a', webhook: { url: 'http://siem.example/hook' } }, /plain http .* not loopback/],
    [{ workspace: 'a', webhook: { url: 'https://user:pw@siem.example/hook' } }, /credentials/],
    [{ workspace: 'a', webhook: { url: 'ftp://siem.example/' } }, /https/],
    [{ workspace: 'a', webhook: { url: 'https://x/', secret: 'short' } }, /webhook.secret must be at least 16/],
    [{ workspace: 'a', webhook: { url: 'https://x/', headers: { 'X-Vigil-Signature': 'v' } } }, /must not set X-Vigil-Signature/],
    [{ workspace: 'a', webhook: { url: 'https://x/', headers: { Authorization: 'a\r\nb' } } }, /one-line/],
    [{ workspace: 'a', webhook: { url: 'https://x/', caCert: 'not a pem' } }, /PEM certificate/],
    [{ workspace: 'a', webhook: { url: 'https://x/', colour: 'red' } }, /webhook has unknown field\(s\): colour/],
    [{ workspace: 'a', minSeverity: 6, webhook: { url: 'https://x/' } }, /minSeverity must be a whole number from 1 to 5/],
    [{ workspace: 'a', format: 'xml', webhook: { url: 'https://x/' } }, /format must be one of ocsf, alert/],
    [{ workspace: 'a', retry: { initialBackoffMs: 5000, maxBackoffMs: 100 }, webhook: { url: 'https://x/' } }, /retry.maxBackoffMs must be a whole number from 5000/],
    [{ workspace: 'a', syslog: { host: 'bad host', port: 514 } }, /syslog.host/],
    [{ workspace: 'a', syslog: { host: 'h' } }, /syslog.port is required/],
    [{ workspace: 'a', syslog: { host: 'h', port: 514, transport: 'udp' } }, /transport must be one of tcp, tls/],
    [{ workspace: 'a', kafka: { brokers: [], topic: 't' } }, /brokers must be a list/],
    [{ workspace: 'a', kafka: { brokers: ['h:9092'], topic: 'bad topic' } }, /kafka.topic must be a Kafka topic name/],
  ])('refuses %j', (body, message) => {
    expect(() => parseDestinationInput(body)).toThrow(message);
  });

  it('accepts plain http to loopback, or with allowHttp', () => {
    expect(parseDestinationInput({ workspace: 'a', webhook: { url: 'http://127.0.0.1:9000/h' } }).target).toMatchObject({ url: 'http://127.0.0.1:9000/h' });
    expect(parseDestinationInput({ workspace: 'a', webhook: { url: 'http://siem.lan/h', allowHttp: true } }).target).toMatchObject({ allowHttp: true });
  });

  it('checks that a TLS client certificate and key belong together, and need TLS', () => {
    const ok = parseDestinationInput({ workspace: 'a', syslog: { host: '127.0.0.1', port: 6514, caCert: tls.cert, clientCert: tls.cert, clientKey: tls.key } });
    expect(ok.target).toMatchObject({ kind: 'syslog', transport: 'tls', clientCertificate: { cert: tls.cert, key: tls.key } });
    expect(() => parseDestinationInput({ workspace: 'a', syslog: { host: 'h', port: 1, clientCert: tls.cert, clientKey: other.key } })).toThrow(/clientKey does not match/);
    expect(() => parseDestinationInput({ workspace: 'a', syslog: { host: 'h', port: 1, clientCert: tls.cert } })).toThrow(/go together/);
    expect(() => parseDestinationInput({ workspace: 'a', syslog: { host: 'h', port: 1, transport: 'tcp', caCert: tls.cert } })).toThrow(/must be tls/);
    expect(() => parseDestinationInput({ workspace: 'a', kafka: { brokers: ['h:1'], topic: 't', caCert: tls.cert } })).toThrow(/tls must be true/);
  });

  it('never shows secrets in a view: fingerprints instead, and the URL without its query', () => {
    const secret = 'top-secret-hmac-key-0001';
    const views = [
      destinationView(destinationFor({ kind: 'webhook', url: 'https://siem.example/hook?token=query-secret-1', secret, headers: { Authorization: 'Splunk header-secret-1' }, allowHttp: false, timeoutMs: 1000 })),
      destinationView(destinationFor({ kind: 'syslog', host: 'h', port: 1, transport: 'tls', encoding: 'cef', facility: 16, appName: 'vigil', clientCertificate: { cert: tls.cert, key: tls.key }, timeoutMs: 1000 })),
      destinationView(destinationFor({ kind: 'kafka', brokers: ['h:1'], topic: 't', tls: true, sasl: { mechanism: 'plain', username: 'u', password: 'sasl-secret-1' }, timeoutMs: 1000 })),
    ];
    const text = JSON.stringify(views);
    for (const leaked of [secret, 'query-secret-1', 'header-secret-1', 'sasl-secret-1', tls.key.split('\n')[1]]) expect(text).not.toContain(leaked);
    expect(views[0]).toMatchObject({ target: 'https://siem.example/hook', settings: { secret: fingerprint(secret), headers: { Authorization: fingerprint('Splunk header-secret-1') } } });
    expect(views[1].settings.clientKey).toBe(fingerprint(tls.key));
    expect(views[2].settings.sasl).toEqual({ mechanism: 'plain', username: 'u', password: fingerprint('sasl-secret-1') });
  });
});
