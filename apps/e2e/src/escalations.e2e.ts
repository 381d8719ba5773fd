import * as fs from 'node:fs';
import * as path from 'node:path';
import { verifyWebhookSignature } from '@vigil/escalations';
import { api, eventually, makeTempDir, runCli, startVigil, toNdjson, type VigilProcess } from '@vigil/testing';
import { SyslogReceiver } from '../../../libs/escalations/src/testing/syslog-receiver';
import { selfSignedLocalhost } from '../../../libs/escalations/src/testing/tls-material';
import { WebhookReceiver } from '../../../libs/escalations/src/testing/webhook-receiver';
import { tunnelQueries } from './telemetry';

const SECRET = 'e2e-webhook-signing-secret-000001';

describe('escalations and telemetry search on a real all-in-one', () => {
  const files = makeTempDir('vigil-e2e-escalations-');
  let vigil: VigilProcess;
  let webhook: WebhookReceiver;
  let syslog: SyslogReceiver;
  let webhookId: string;
  const cli = (...args: string[]) => runCli(args, { VIGIL_DATA_DIR: vigil.dataDir, VIGIL_PORT: new URL(vigil.baseUrl).port });
  // The data directory lives in `files` (removed after the tests): a test starts the server again on it.
  const start = () => startVigil({ dataDir: path.join(files.path, 'data'), env: { VIGIL_VISIBILITY_DELAY_MS: '200', VIGIL_LOG_LEVEL: 'log' } });

  beforeAll(async () => {
    const tls = await selfSignedLocalhost();
    fs.writeFileSync(path.join(files.path, 'ca.pem'), tls.cert);
    fs.writeFileSync(path.join(files.path, 'secret'), SECRET + '\n');
    // The receiver fails the first attempts: 503 with Retry-After, then a connection reset.
    webhook = await WebhookReceiver.start({ tls, script: [{ status: 503, retryAfter: '1' }, 'reset'] });
    syslog = await SyslogReceiver.start();
    vigil = await start();
  });

  afterAll(async () => {
    await vigil?.stop();
    await Promise.all([webhook?.stop(), syslog?.stop()]);
    files.cleanup();
  });

  it('adds destinations with the CLI; listings show fingerprints, never the secret', async () => {
    const added = await cli('escalations', 'add', '--workspace', 'default', '--name', 'siem-webhook', '--webhook', webhook.url, '--ca-file', path.join(files.path, 'ca.pem'), '--secret-file', path.join(files.path, 'secret'), '--initial-backoff-ms', '200', '--json');
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    webhookId = JSON.parse(added.stdout).id;
    const cef = await cli('escalations', 'add', '--workspace', 'default', '--name', 'siem-syslog', '--syslog', `127.0.0.1:${syslog.port}`, '--transport', 'tcp', '--encoding', 'cef', '--min-severity', '2');
    expect(cef.code).toBe(0);
    expect(cef.stdout).toMatch(/escalation \S+ added: syslog 127\.0\.0\.1:\d+/);
    const bad = await cli('escalations', 'add', '--workspace', 'default', '--webhook', 'http://siem.example/hook');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/plain http/);

    const listed = await cli('escalations', 'list');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(webhookId);
    expect(listed.stdout).toMatch(/siem-webhook\tdefault\twebhook\tocsf\t1\thttps:\/\/127\.0\.0\.1:\d+\/hooks\/vigil\tsecret=sha256:[0-9a-f]{16}/);
    expect(listed.stdout + (await cli('escalations', 'list', '--json')).stdout).not.toContain(SECRET);
  });

  it('tests a destination: the synthetic finding gets through the failing first attempts', async () => {
    const tested = await cli('escalations', 'test', webhookId);
    expect(tested.code).toBe(0);
    expect(tested.stdout).toMatch(/delivered: test finding vigil-test-\S+ accepted after 3 attempt\(s\)/);
    expect(tested.stdout).toMatch(/attempt 1: .*answered 503/);
    expect(webhook.requests.map((r) => r.answer)).toEqual([{ status: 503, retryAfter: '1' }, 'reset', { status: 200 }]);
    expect(new Set(webhook.requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);
    expect(webhook.requests[1].at - webhook.requests[0].at).toBeGreaterThanOrEqual(1000);
    expect((await cli('escalations', 'test', '00000000-0000-4000-8000-000000000000')).code).toBe(2);
  });

  it('escalates the finding of telemetry sent through the API exactly as GET /v1/findings serves it, to the webhook and as CEF over syslog', async () => {
    const sent = await api(vigil, 'POST', '/v1/events/dns', { body: toNdjson(tunnelQueries('10.7.7.7', 'escalate-tunnel.net', 40)) });
    expect(sent.status).toBe(200);
    const served = await eventually(async () => {
      const page = await api(vigil, 'GET', '/v1/findings?schema=ocsf');
      return (page.body.records as any[]).find((f) => f.device?.ip === '10.7.7.7');
    }, 60_000);
    const delivery = await eventually(async () => webhook.accepted.find((r) => r.headers['idempotency-key'] === served.metadata.uid), 30_000);
    expect(JSON.parse(delivery.body.toString())).toEqual(served);
    const headers = { timestamp: delivery.headers['x-vigil-timestamp'] as string, signature: delivery.headers['x-vigil-signature'] as string };
    expect(verifyWebhookSignature(SECRET, headers, delivery.body)).toEqual({ ok: true });
    expect(delivery.headers['x-vigil-event']).toBe('finding');

    const line = await eventually(async () => syslog.messages.find((m) => m.msg.includes(`externalId=${served.metadata.uid}`)), 30_000);
    expect(line).toMatchObject({ version: 1, appName: 'vigil', msgId: 'finding', structuredData: '-' });
    expect(line.msg).toMatch(/^CEF:0\|Vigil\|Vigil\|[^|]+\|[^|]+\|[^|]+\|\d+\|/);
    expect(line.msg).toContain('src=10.7.7.7');
  });

  it('finds the events of one host sent through the API with vigil telemetry search', async () => {
    const queries = tunnelQueries('10.8.8.8', 'search-tunnel.net', 25).map((e) => e.query);
    expect((await api(vigil, 'POST', '/v1/events/dns', { body: toNdjson(tunnelQueries('10.8.8.8', 'search-tunnel.net', 25)) })).status).toBe(200);
    const lines = await eventually(async () => {
      const result = await cli('telemetry', 'search', '--workspace', 'default', '--host', '10.8.8.8', '--since', '1h', '--type', 'dns');
      const events = result.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l));
      return result.code === 0 && events.length === 25 ? events : undefined;
    }, 30_000, 500);
    expect(lines.every((l) => l.type === 'dns' && l.event.srcIP === '10.8.8.8')).toBe(true);
    expect(lines.map((l) => l.event.query).sort()).toEqual([...queries].sort());
    const limited = await cli('telemetry', 'search', '--workspace', 'default', '--host', '10.8.8.8', '--limit', '5');
    expect(limited.stdout.split('\n').filter(Boolean)).toHaveLength(5);
    expect(limited.stderr).toMatch(/stopped at --limit 5/);
    const tooWide = await cli('telemetry', 'search', '--workspace', 'default', '--since', '3d');
    expect(tooWide.code).toBe(2);
    expect(tooWide.stderr).toMatch(/24 hours/);
  });

  it('keeps its destinations and delivers again after a restart; secrets never reach the logs', async () => {
    await vigil.stop();
    const before = vigil.output();
    vigil = await start();
    expect((await cli('escalations', 'list')).stdout).toContain(webhookId);
    expect((await api(vigil, 'POST', '/v1/events/dns', { body: toNdjson(tunnelQueries('10.9.9.9', 'after-restart-tunnel.net', 40)) })).status).toBe(200);
    const served = await eventually(async () => {
      const page = await api(vigil, 'GET', '/v1/findings?schema=ocsf');
      return (page.body.records as any[]).find((f) => f.device?.ip === '10.9.9.9');
    }, 60_000);
    await eventually(async () => webhook.accepted.find((r) => r.headers['idempotency-key'] === served.metadata.uid), 30_000);
    expect(before + vigil.output()).not.toContain(SECRET);
    expect(before).toMatch(/escalation "siem-webhook"/);
  });
});
