import { createHmac } from 'node:crypto';
import { verifyWebhookSignature, webhookSignature } from './webhook-signature';

describe('webhook signature', () => {
  const body = Buffer.from('{"finding":1}');

  it('is v1=hex(HMAC-SHA256(secret, "<timestamp>.<body>"))', () => {
    const expected = createHmac('sha256', 'k'.repeat(32)).update('1700000000.{"finding":1}').digest('hex');
    expect(webhookSignature('k'.repeat(32), '1700000000', body)).toBe(`v1=${expected}`);
  });

  it('verifies, and refuses a changed body, another secret, or a stale timestamp (replay)', () => {
    const secret = 's'.repeat(32);
    const signature = webhookSignature(secret, '1700000000', body);
    expect(verifyWebhookSignature(secret, { timestamp: '1700000000', signature }, body, 1700000100)).toEqual({ ok: true });
    expect(verifyWebhookSignature(secret, { timestamp: '1700000000', signature }, Buffer.from('{"finding":2}'), 1700000100).ok).toBe(false);
    expect(verifyWebhookSignature('x'.repeat(32), { timestamp: '1700000000', signature }, body, 1700000100).ok).toBe(false);
    expect(verifyWebhookSignature(secret, { timestamp: '1700000000', signature }, body, 1700000000 + 301)).toEqual({ ok: false, reason: expect.stringMatching(/replay/) });
    expect(verifyWebhookSignature(secret, { signature }, body).ok).toBe(false);
  });
});
