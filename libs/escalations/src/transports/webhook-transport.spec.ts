import { deliverWithRetries } from '../delivery/deliver';
import type { WebhookTarget } from '../destinations/destination';
import { itemFromRecord } from '../payload/escalation-item';
import { busRecord, destinationFor, findingRecord } from '../testing/records';
import { selfSignedLocalhost, type TlsMaterial } from '../testing/tls-material';
import { WebhookReceiver } from '../testing/webhook-receiver';
import { verifyWebhookSignature } from './webhook-signature';
import { WebhookTransport } from './webhook-transport';

const SECRET = 'webhook-hmac-secret-for-tests-0001';

function webhook(url: string, extra: Partial<WebhookTarget> = {}): WebhookTarget {
  return { kind: 'webhook', url, secret: SECRET, headers: { Authorization: 'Bearer receiver-token' }, allowHttp: false, timeoutMs: 5_000, ...extra };
}

describe('WebhookTransport against a real HTTPS receiver', () => {
  let tls: TlsMaterial;
  const receivers: WebhookReceiver[] = [];
  const item = itemFromRecord('ocsf', busRecord(findingRecord('ws-1', 'finding-42', { revision: 2 })).value);
  const retry = { maxAttempts: 5, initialBackoffMs: 20, maxBackoffMs: 100 };

  beforeAll(async () => {
    tls = await selfSignedLocalhost();
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.stop()));
  });

  it('retries 503 (honouring Retry-After) and a connection reset, then delivers; every attempt is signed with the same idempotency key', async () => {
    const receiver = await WebhookReceiver.start({ tls, script: [{ status: 503, retryAfter: '1' }, 'reset', { status: 202 }] });
    receivers.push(receiver);
    const transport = new WebhookTransport(destinationFor(webhook(receiver.url, { caCert: tls.cert })));
    const retried: string[] = [];
    const outcome = await deliverWithRetries(transport, item, retry, new AbortController().signal, { onRetry: (_a, error) => retried.push(error) });
    await transport.close();

    expect(outcome).toEqual({ ok: true, attempts: 3 });
    expect(retried[0]).toMatch(/answered 503/);
    expect(retried[1]).toMatch(/ECONNRESET|socket hang up/);
    expect(receiver.requests).toHaveLength(3);
    expect(receiver.requests[1].at - receiver.requests[0].at).toBeGreaterThanOrEqual(1_000);
    for (const request of receiver.requests) {
      expect(request.headers['idempotency-key']).toBe('finding-42:2');
      expect(request.headers['content-type']).toMatch(/^application\/json/);
      expect(request.headers.authorization).toBe('Bearer receiver-token');
      expect(request.headers['x-vigil-event']).toBe('finding');
      expect(request.headers['x-vigil-workspace']).toBe('ws-1');
      const check = verifyWebhookSignature(SECRET, { timestamp: request.headers['x-vigil-timestamp'] as string, signature: request.headers['x-vigil-signature'] as string }, request.body);
      expect(check).toEqual({ ok: true });
      expect(JSON.parse(request.body.toString())).toEqual(findingRecord('ws-1', 'finding-42', { revision: 2, time: item.time }).finding);
    }
    // A receiver that checks signatures refuses a body changed in transit.
    const first = receiver.requests[0];
    expect(verifyWebhookSignature(SECRET, { timestamp: first.headers['x-vigil-timestamp'] as string, signature: first.headers['x-vigil-signature'] as string }, Buffer.from('{}')).ok).toBe(false);
  });

  it('trusts only the configured CA: without it the self-signed receiver is refused and never reached', async () => {
    const receiver = await WebhookReceiver.start({ tls });
    receivers.push(receiver);
    const transport = new WebhookTransport(destinationFor(webhook(receiver.url)));
    const outcome = await deliverWithRetries(transport, item, { ...retry, maxAttempts: 2 }, new AbortController().signal);
    await transport.close();
    expect(outcome).toMatchObject({ ok: false, attempts: 2, error: expect.stringMatching(/self.signed|certificate/i) });
    expect(receiver.requests).toHaveLength(0);
  });

  it('gives up at once when the receiver rejects the payload (400), and never puts secrets in errors', async () => {
    const receiver = await WebhookReceiver.start({ tls, path: '/hook?token=query-token-xyz' });
    receiver.fallback = { status: 400 };
    receivers.push(receiver);
    const transport = new WebhookTransport(destinationFor(webhook(receiver.url, { caCert: tls.cert })));
    const outcome = await deliverWithRetries(transport, item, retry, new AbortController().signal);
    await transport.close();
    expect(outcome).toMatchObject({ ok: false, attempts: 1, error: expect.stringMatching(/answered 400/) });
    expect(JSON.stringify(outcome)).not.toMatch(/query-token-xyz|receiver-token|webhook-hmac-secret/);
  });

  it('stops waiting when cancelled', async () => {
    const receiver = await WebhookReceiver.start({ tls });
    receiver.fallback = { status: 503, retryAfter: '60' };
    receivers.push(receiver);
    const transport = new WebhookTransport(destinationFor(webhook(receiver.url, { caCert: tls.cert })));
    const controller = new AbortController();
    const started = Date.now();
    const delivery = deliverWithRetries(transport, item, retry, controller.signal);
    setTimeout(() => controller.abort(), 300);
    await expect(delivery).rejects.toThrow(/cancelled/);
    expect(Date.now() - started).toBeLessThan(5_000);
    await transport.close();
  });
});
