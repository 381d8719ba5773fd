import { deliverWithRetries } from '../delivery/deliver';
import type { SyslogTarget } from '../destinations/destination';
import { itemFromRecord } from '../payload/escalation-item';
import { alertRecord, busRecord, destinationFor, findingRecord } from '../testing/records';
import { SyslogReceiver } from '../testing/syslog-receiver';
import { selfSignedLocalhost } from '../testing/tls-material';
import { waitUntil } from '@vigil/testing';
import { SyslogTransport } from './syslog-transport';

function syslog(port: number, extra: Partial<SyslogTarget> = {}): SyslogTarget {
  return { kind: 'syslog', host: '127.0.0.1', port, transport: 'tcp', encoding: 'json', facility: 13, appName: 'vigil', hostname: 'vigil-test', timeoutMs: 2_000, ...extra };
}

const retry = { maxAttempts: 4, initialBackoffMs: 20, maxBackoffMs: 100 };

describe('SyslogTransport against a real collector', () => {
  const receivers: SyslogReceiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
  });

  it('sends RFC 5424 messages with octet-counted framing over TCP: OCSF JSON, then CEF', async () => {
    const receiver = await SyslogReceiver.start();
    receivers.push(receiver);
    const finding = findingRecord('ws-1', 'finding-9', { severity: 5, time: Date.UTC(2026, 1, 3, 4, 5, 6, 789) });
    const json = new SyslogTransport(destinationFor(syslog(receiver.port)));
    const item = itemFromRecord('ocsf', busRecord(finding).value);
    expect(await deliverWithRetries(json, item, retry, new AbortController().signal)).toEqual({ ok: true, attempts: 1 });
    const cef = new SyslogTransport(destinationFor(syslog(receiver.port, { encoding: 'cef' }), { format: 'alert' }));
    const alert = itemFromRecord('alert', busRecord(alertRecord('ws-1', 'alert-3', 2)).value);
    expect(await deliverWithRetries(cef, alert, retry, new AbortController().signal)).toEqual({ ok: true, attempts: 1 });
    await waitUntil(() => receiver.messages.length === 2, 'two syslog messages');
    await Promise.all([json.close(), cef.close()]);

    expect(receiver.errors).toEqual([]);
    const [first, second] = receiver.messages;
    expect(first).toMatchObject({ facility: 13, severity: 2, version: 1, timestamp: '2026-02-03T04:05:06.789Z', hostname: 'vigil-test', appName: 'vigil', procId: String(process.pid), msgId: 'finding', structuredData: '-' });
    expect(JSON.parse(first.msg)).toEqual(finding.finding);
    expect(second).toMatchObject({ facility: 13, severity: 5, msgId: 'alert' });
    expect(second.msg).toMatch(/^CEF:0\|Vigil\|Vigil\|[^|]+\|multiple_long_hostnames\|[^|]+\|3\|/);
    expect(second.msg).toContain('externalId=alert-3');
    expect(second.msg).toContain('src=10.0.0.7');
  });

  it('re-connects after the collector dropped the connection', async () => {
    const receiver = await SyslogReceiver.start();
    receivers.push(receiver);
    const transport = new SyslogTransport(destinationFor(syslog(receiver.port)));
    const item = (n: number) => itemFromRecord('ocsf', busRecord(findingRecord('ws-1', `f-${n}`)).value);
    await deliverWithRetries(transport, item(1), retry, new AbortController().signal);
    await waitUntil(() => receiver.messages.length === 1, 'first message');
    receiver.dropConnections();
    await new Promise((r) => setTimeout(r, 100));
    const outcome = await deliverWithRetries(transport, item(2), retry, new AbortController().signal);
    expect(outcome.ok).toBe(true);
    await waitUntil(() => receiver.messages.length === 2, 'the message after the reconnect');
    expect(JSON.parse(receiver.messages[1].msg).finding_info.uid).toBe('f-2');
    await transport.close();
  });

  it('speaks TLS with a private CA and presents a client certificate', async () => {
    const [server, client] = await Promise.all([selfSignedLocalhost('collector'), selfSignedLocalhost('vigil-client')]);
    const receiver = await SyslogReceiver.start({ tls: server, requestClientCertificateFrom: client.cert });
    receivers.push(receiver);
    const transport = new SyslogTransport(
      destinationFor(syslog(receiver.port, { transport: 'tls', caCert: server.cert, clientCertificate: { cert: client.cert, key: client.key } })),
    );
    const outcome = await deliverWithRetries(transport, itemFromRecord('ocsf', busRecord(findingRecord('ws-1', 'tls-1')).value), retry, new AbortController().signal);
    expect(outcome).toEqual({ ok: true, attempts: 1 });
    await waitUntil(() => receiver.messages.length === 1, 'a message over TLS');
    expect(receiver.clientNames).toEqual(['vigil-client']);
    await transport.close();
  });

  it('fails (and retries) while nothing listens', async () => {
    const receiver = await SyslogReceiver.start();
    const port = receiver.port;
    await receiver.stop();
    const transport = new SyslogTransport(destinationFor(syslog(port)));
    const outcome = await deliverWithRetries(transport, itemFromRecord('ocsf', busRecord(findingRecord('ws-1', 'x')).value), retry, new AbortController().signal);
    expect(outcome).toMatchObject({ ok: false, attempts: 4, error: expect.stringMatching(/ECONNREFUSED/) });
    await transport.close();
  });
});
