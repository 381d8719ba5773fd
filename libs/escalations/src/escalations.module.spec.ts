import { LocalBus, type BusBatch, type ConsumedRecord } from '@vigil/bus';
import { ALL_TOPICS, TOPICS } from '@vigil/contracts';
import { metricsRegistry } from '@vigil/platform';
import { makeTempDir, waitUntil } from '@vigil/testing';
import { DEAD_LETTER_HEADERS } from './delivery/delivery-worker';
import { announceWorkspace, startEscalationsApp, type EscalationsApp } from './testing/escalations-app';
import { alertRecord, busRecord, findingRecord } from './testing/records';
import { SyslogReceiver } from './testing/syslog-receiver';
import { WebhookReceiver } from './testing/webhook-receiver';
import { verifyWebhookSignature } from './transports/webhook-signature';

const WORKSPACE = { workspaceId: '6f1d7c2e-0000-4000-8000-000000000001', name: 'acme', createdAt: new Date().toISOString() };
const OTHER = { workspaceId: '6f1d7c2e-0000-4000-8000-000000000002', name: 'other', createdAt: new Date().toISOString() };
const SECRETS = { healthy: 'healthy-hmac-secret-0000000001', stuck: 'stuck-hmac-secret-000000000002', doomed: 'doomed-hmac-secret-00000000003', header: 'Splunk hec-token-secret-0004' };

async function metric(name: string, destination: string): Promise<number> {
  const text = await metricsRegistry.getSingleMetricAsString(name);
  const line = text.split('\n').find((l) => l.startsWith(`${name}{destination="${destination}"}`));
  return line === undefined ? NaN : Number(line.split(' ').pop());
}

/** Every record of the dead-letter topic so far (a broadcast reader). */
async function deadLetters(app: EscalationsApp): Promise<ConsumedRecord[]> {
  const seen: ConsumedRecord[] = [];
  const reader = await app.bus.subscribe({ topic: TOPICS.deadLetter.name }, async (batch: BusBatch) => void seen.push(...batch.records));
  await reader.caughtUp;
  await reader.close();
  return seen;
}

describe('escalations over the real platform (local bus, embedded ClickHouse, HTTP)', () => {
  const temp = makeTempDir('vigil-escalations-');
  let app: EscalationsApp;
  const receivers: { stop(): Promise<void> }[] = [];
  let logged = '';
  const writes = [jest.spyOn(process.stdout, 'write'), jest.spyOn(process.stderr, 'write')];

  beforeAll(async () => {
    for (const spy of writes) {
      spy.mockImplementation(((chunk: string | Uint8Array) => {
        logged += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
        return true;
      }) as never);
    }
    app = await startEscalationsApp(temp.path);
    await announceWorkspace(app.bus, WORKSPACE);
    await announceWorkspace(app.bus, OTHER);
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all(receivers.map((r) => r.stop()));
    for (const spy of writes) spy.mockRestore();
    temp.cleanup();
  });

  async function create(body: Record<string, unknown>): Promise<any> {
    let response = await app.admin('POST', '/admin/v1/escalations', body);
    // The workspace announcement may still be on its way to the directory.
    for (let i = 0; i < 50 && response.status === 400 && /no workspace/.test(response.body.message); i++) {
      await new Promise((r) => setTimeout(r, 50));
      response = await app.admin('POST', '/admin/v1/escalations', body);
    }
    expect(response.status).toBe(201);
    return response.body;
  }

  it('refuses bad requests and requests without the operator token', async () => {
    expect((await app.admin('POST', '/admin/v1/escalations', { workspace: 'acme', webhook: { url: 'http://siem.example/' } })).body.message).toMatch(/plain http/);
    expect((await app.admin('POST', '/admin/v1/escalations', { workspace: 'nobody', webhook: { url: 'https://siem.example/' } })).status).toBe(400);
    expect((await app.admin('GET', '/admin/v1/escalations/4b0c')).status).toBe(404);
    expect((await app.admin('DELETE', '/admin/v1/escalations/4b0c')).status).toBe(404);
    const anonymous = await fetch(`${app.baseUrl}/admin/v1/escalations`);
    expect(anonymous.status).toBe(401);
  });

  it('delivers per destination: filters by workspace and severity, a stuck destination holds back no other, exhausted deliveries are dead-lettered', async () => {
    const healthy = await WebhookReceiver.start();
    const stuck = await WebhookReceiver.start();
    const doomed = await WebhookReceiver.start();
    const collector = await SyslogReceiver.start();
    receivers.push(healthy, stuck, doomed, collector);
    stuck.fallback = { status: 503 };
    doomed.fallback = { status: 500 };
    const healthyDestination = await create({ workspace: 'acme', name: 'healthy', minSeverity: 3, webhook: { url: healthy.url, secret: SECRETS.healthy, headers: { Authorization: SECRETS.header } } });
    const stuckDestination = await create({ workspace: 'acme', name: 'stuck', retry: { maxAttempts: 50, initialBackoffMs: 2_000 }, webhook: { url: stuck.url, secret: SECRETS.stuck } });
    const doomedDestination = await create({ workspace: WORKSPACE.workspaceId, name: 'doomed', retry: { maxAttempts: 2, initialBackoffMs: 10 }, webhook: { url: doomed.url, secret: SECRETS.doomed } });
    const cef = await create({ workspace: 'acme', name: 'cef', format: 'alert', syslog: { host: '127.0.0.1', port: collector.port, transport: 'tcp', encoding: 'cef' } });
    expect(healthyDestination.secret).toBeUndefined();

    const findings = [
      findingRecord(WORKSPACE.workspaceId, 'high-1', { severity: 4 }),
      findingRecord(WORKSPACE.workspaceId, 'low-1', { severity: 2 }),
      findingRecord(OTHER.workspaceId, 'other-1', { severity: 5 }),
      findingRecord(WORKSPACE.workspaceId, 'high-2', { severity: 5 }),
      findingRecord(WORKSPACE.workspaceId, 'high-1', { severity: 4, revision: 2 }),
    ];
    await app.bus.publish(TOPICS.findings.name, findings.map(busRecord));
    await app.bus.publish(TOPICS.alerts.name, [busRecord(alertRecord(WORKSPACE.workspaceId, 'alert-1')), busRecord(alertRecord(OTHER.workspaceId, 'alert-2'))]);

    await waitUntil(() => healthy.requests.length >= 3 && collector.messages.length >= 1, 'the healthy destinations', 15_000);
    expect(healthy.requests.map((r) => r.headers['idempotency-key'])).toEqual(['high-1:1', 'high-2:1', 'high-1:2']);
    for (const request of healthy.requests) {
      const headers = { timestamp: request.headers['x-vigil-timestamp'] as string, signature: request.headers['x-vigil-signature'] as string };
      expect(verifyWebhookSignature(SECRETS.healthy, headers, request.body)).toEqual({ ok: true });
      expect(request.headers.authorization).toBe(SECRETS.header);
    }
    expect(collector.messages.map((m) => /externalId=(\S+)/.exec(m.msg)?.[1])).toEqual(['alert-1']);
    // The stuck destination is still on its first finding.
    expect(stuck.requests.length).toBeGreaterThanOrEqual(1);
    expect(new Set(stuck.requests.map((r) => r.headers['idempotency-key']))).toEqual(new Set(['high-1:1']));

    await waitUntil(() => doomed.requests.length >= 8, 'every attempt at the doomed destination', 15_000);
    let dead: ConsumedRecord[] = [];
    for (let i = 0; i < 50 && dead.length < 4; i++) {
      dead = (await deadLetters(app)).filter((r) => r.headers?.[DEAD_LETTER_HEADERS.destination] === doomedDestination.id);
      if (dead.length < 4) await new Promise((r) => setTimeout(r, 200));
    }
    expect(dead.map((r) => r.headers?.[DEAD_LETTER_HEADERS.idempotencyKey])).toEqual(['high-1:1', 'low-1:1', 'high-2:1', 'high-1:2']);
    expect(dead[0].headers).toMatchObject({ source: TOPICS.findings.name, reason: expect.stringMatching(/after 2 attempt\(s\).*answered 500/), [DEAD_LETTER_HEADERS.attempts]: '2' });
    expect(JSON.parse(dead[0].value.toString())).toEqual(findings[0]);

    expect(await metric('vigil_escalation_sent_total', healthyDestination.id)).toBe(3);
    expect(await metric('vigil_escalation_failed_total', doomedDestination.id)).toBe(4);
    expect(await metric('vigil_escalation_failed_total', stuckDestination.id)).toBe(0);
    expect(await metric('vigil_escalation_lag_seconds', stuckDestination.id)).toBeGreaterThan(0);
    expect(await metric('vigil_escalation_pending_records', stuckDestination.id)).toBeGreaterThan(0);
    expect(await metric('vigil_escalation_lag_seconds', healthyDestination.id)).toBe(0);
    expect(await metric('vigil_escalation_retries_total', stuckDestination.id)).toBeGreaterThanOrEqual(1);

    // Removing a destination stops it: nothing more reaches it.
    expect((await app.admin('DELETE', `/admin/v1/escalations/${stuckDestination.id}`)).status).toBe(200);
    expect((await app.admin('DELETE', `/admin/v1/escalations/${doomedDestination.id}`)).status).toBe(200);
    expect((await app.admin('DELETE', `/admin/v1/escalations/${cef.id}`)).status).toBe(200);
    const stuckSoFar = stuck.requests.length;
    await app.bus.publish(TOPICS.findings.name, [busRecord(findingRecord(WORKSPACE.workspaceId, 'after-remove', { severity: 5 }))]);
    await waitUntil(() => healthy.requests.length >= 4, 'the healthy destination still delivering');
    await new Promise((r) => setTimeout(r, 300));
    expect(stuck.requests.length).toBe(stuckSoFar);
    expect((await app.admin('GET', '/admin/v1/escalations')).body.map((d: { name: string }) => d.name)).toEqual(['healthy']);
  });

  it('tests a destination with a synthetic finding', async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    receiver.requests.length = 0;
    const destination = await create({ workspace: 'acme', name: 'to-test', webhook: { url: receiver.url } });
    expect(typeof destination.secret).toBe('string');
    const outcome = await app.admin('POST', `/admin/v1/escalations/${destination.id}/test`);
    expect(outcome.status).toBe(200);
    expect(outcome.body).toMatchObject({ ok: true, attempts: 1, errors: [] });
    await waitUntil(() => receiver.requests.some((r) => r.headers['idempotency-key'] === outcome.body.idempotencyKey), 'the synthetic finding');
    const request = receiver.requests.find((r) => r.headers['idempotency-key'] === outcome.body.idempotencyKey)!;
    expect(JSON.parse(request.body.toString()).finding_info.title).toMatch(/test/i);
    const headers = { timestamp: request.headers['x-vigil-timestamp'] as string, signature: request.headers['x-vigil-signature'] as string };
    expect(verifyWebhookSignature(destination.secret, headers, request.body)).toEqual({ ok: true });
    // The generated secret is shown once: never again by list or get.
    const listed = JSON.stringify((await app.admin('GET', '/admin/v1/escalations?workspace=acme')).body);
    expect(listed).not.toContain(destination.secret);
    expect(JSON.stringify((await app.admin('GET', `/admin/v1/escalations/${destination.id}`)).body)).not.toContain(destination.secret);
    receiver.fallback = { status: 503, retryAfter: '0' };
    const failing = await app.admin('POST', `/admin/v1/escalations/${destination.id}/test`);
    expect(failing.body).toMatchObject({ ok: false, attempts: 3, errors: [expect.stringMatching(/503/), expect.stringMatching(/503/), expect.stringMatching(/503/)] });
    await app.admin('DELETE', `/admin/v1/escalations/${destination.id}`);
  });

  it('keeps every finding across a restart (at least once; a repeat carries the same idempotency key), and secrets stay out of listings and logs', async () => {
    const receiver = await WebhookReceiver.start();
    receivers.push(receiver);
    const destination = await create({ workspace: 'acme', name: 'durable', webhook: { url: receiver.url, secret: SECRETS.healthy } });
    await app.bus.publish(TOPICS.findings.name, Array.from({ length: 5 }, (_, i) => busRecord(findingRecord(WORKSPACE.workspaceId, `before-${i}`))));
    await waitUntil(() => receiver.requests.filter((r) => String(r.headers['idempotency-key']).startsWith('before-')).length >= 5, 'the findings before the restart');

    // The receiver goes down mid-stream: deliveries are being retried when the service stops.
    receiver.fallback = { status: 503, retryAfter: '1' };
    await app.bus.publish(TOPICS.findings.name, [busRecord(findingRecord(WORKSPACE.workspaceId, 'in-flight'))]);
    await waitUntil(() => receiver.requests.some((r) => r.headers['idempotency-key'] === 'in-flight:1'), 'the in-flight attempt');
    await app.close();

    // While the service is down, more findings arrive on the bus.
    const bus = await LocalBus.open({ dir: app.config.bus.kind === 'local' ? app.config.bus.dir : '', topics: ALL_TOPICS });
    await bus.publish(TOPICS.findings.name, Array.from({ length: 3 }, (_, i) => busRecord(findingRecord(WORKSPACE.workspaceId, `while-down-${i}`))));
    await bus.close();
    receiver.fallback = { status: 200 };

    app = await startEscalationsApp(temp.path);
    const keys = () => receiver.accepted.map((r) => String(r.headers['idempotency-key']));
    await waitUntil(() => ['in-flight:1', 'while-down-0:1', 'while-down-1:1', 'while-down-2:1'].every((k) => keys().includes(k)), 'every finding after the restart', 20_000);
    const delivered = keys().filter((k) => /^(before|in-flight|while-down)/.test(k));
    expect(new Set(delivered)).toEqual(new Set([...Array.from({ length: 5 }, (_, i) => `before-${i}:1`), 'in-flight:1', 'while-down-0:1', 'while-down-1:1', 'while-down-2:1']));
    // The attempt cut short by the stop was made again after it: same finding, same key, same body.
    const inFlight = receiver.requests.filter((r) => r.headers['idempotency-key'] === 'in-flight:1');
    expect(inFlight.length).toBeGreaterThanOrEqual(2);
    expect(new Set(inFlight.map((r) => r.body.toString())).size).toBe(1);
    // The destination came back from the table and the control topic, with its secret (signatures still verify).
    const last = receiver.accepted[receiver.accepted.length - 1];
    expect(verifyWebhookSignature(SECRETS.healthy, { timestamp: last.headers['x-vigil-timestamp'] as string, signature: last.headers['x-vigil-signature'] as string }, last.body)).toEqual({ ok: true });
    const listed = await app.admin('GET', '/admin/v1/escalations');
    expect(listed.body.map((d: { id: string }) => d.id)).toContain(destination.id);

    const everything = JSON.stringify(listed.body) + logged;
    // Text or JSON logs (JSON escapes the quotes).
    expect(logged).toMatch(/escalation \\?"durable\\?"/);
    for (const secret of Object.values(SECRETS)) expect(everything).not.toContain(secret);
  });
});
