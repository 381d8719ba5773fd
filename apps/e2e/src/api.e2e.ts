import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { api, assertValidOcsfFinding, eventually, gzipNdjson, runCli, startVigil, toNdjson, type VigilProcess } from '@vigil/testing';
import { tunnelQueries } from './telemetry';

let vigil: VigilProcess;
const keys: { inactive: string; expiring: string; revoked: string } = { inactive: '', expiring: '', revoked: '' };

function keyFromCliOutput(stdout: string): string {
  const match = /API key \(shown once, store it now\): (vgl_\w+)/.exec(stdout);
  if (!match) throw new Error(`no key in CLI output: ${stdout}`);
  return match[1];
}

async function createKey(args: string[]): Promise<string> {
  const result = await runCli(['keys', 'create', ...args], { VIGIL_DATA_DIR: vigil.dataDir, VIGIL_PORT: new URL(vigil.baseUrl).port });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return keyFromCliOutput(result.stdout);
}

/** Waits until every service's key cache has the key (the admin API publishes on the bus). */
async function untilKnown(key: string): Promise<void> {
  await eventually(async () => ((await api(vigil, 'GET', '/v1/account/status', { key })).status === 200 ? true : undefined));
}

beforeAll(async () => {
  vigil = await startVigil({ env: { VIGIL_VISIBILITY_DELAY_MS: '200' } });
  keys.inactive = await createKey(['--inactive', '--workspace', 'pending']);
  keys.expiring = await createKey(['--expires', '2s', '--workspace', 'short-lived']);
  keys.revoked = await createKey(['--workspace', 'other']);
  await Promise.all([untilKnown(keys.inactive), untilKnown(keys.expiring), untilKnown(keys.revoked)]);
  const prefix = keys.revoked.slice(0, 12);
  const revoke = await runCli(['keys', 'revoke', prefix], { VIGIL_DATA_DIR: vigil.dataDir, VIGIL_PORT: new URL(vigil.baseUrl).port });
  expect(revoke.code).toBe(0);
  expect(revoke.stdout).toContain('revoked');
});

afterAll(async () => {
  await vigil?.stop();
});

describe('operations endpoints', () => {
  it('serves liveness, readiness, metrics and the OpenAPI document without a key', async () => {
    expect((await api(vigil, 'GET', '/healthz', { key: null })).status).toBe(200);
    expect((await api(vigil, 'GET', '/readyz', { key: null })).status).toBe(200);
    const metrics = await api(vigil, 'GET', '/metrics', { key: null });
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('vigil_http_requests_total');
    const openapi = await api(vigil, 'GET', '/openapi.json', { key: null });
    expect(openapi.body.openapi).toBe('3.1.0');
    expect(Object.keys(openapi.body.paths)).toEqual(expect.arrayContaining(['/v1/findings', '/v1/alerts', '/v1/account/status']));
  });
});

describe('authentication and key states', () => {
  it('answers 401 with a JSON message for a missing, unknown or revoked key', async () => {
    for (const key of [null, 'vgl_unknownunknownunknownunknown00', keys.revoked]) {
      const res = await api(vigil, 'GET', '/v1/findings', { key });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/json');
      expect(typeof res.body.message).toBe('string');
    }
  });

  it('ignores the Basic password', async () => {
    const res = await api(vigil, 'GET', '/v1/account/status', { key: null, headers: { authorization: 'Basic ' + Buffer.from(`${vigil.key}:-`).toString('base64') } });
    expect(res.status).toBe(200);
    expect(res.body.registered).toBe(true);
  });

  it('refuses an expired key with 403 on data endpoints but still answers account status', async () => {
    await new Promise((r) => setTimeout(r, 2100));
    const findings = await api(vigil, 'GET', '/v1/findings', { key: keys.expiring });
    expect(findings.status).toBe(403);
    expect(findings.body.message).toMatch(/expired/);
    const events = await api(vigil, 'POST', '/v1/events/dns', { key: keys.expiring, body: toNdjson([{ query: 'a.com' }]) });
    expect(events.status).toBe(403);
    const status = await api(vigil, 'GET', '/v1/account/status', { key: keys.expiring });
    expect(status.status).toBe(200);
    expect(status.body.expired).toBe(true);
    expect(typeof status.body.expirationDate).toBe('string');
    expect(status.body.messages.some((m: { level: number }) => m.level === 3)).toBe(true);
  });

  it('accepts telemetry from a key that is not activated but withholds its results', async () => {
    const status = await api(vigil, 'GET', '/v1/account/status', { key: keys.inactive, headers: { 'content-encoding': 'gzip' } });
    expect(status.status).toBe(200);
    expect(status.body.registered).toBe(false);
    expect(status.body.messages).toEqual(expect.arrayContaining([expect.objectContaining({ level: 2 })]));
    const posted = await api(vigil, 'POST', '/v1/events/dns', { key: keys.inactive, body: toNdjson(tunnelQueries('10.9.9.9', 'inactive-tunnel.com', 30)) });
    expect(posted.status).toBe(200);
    expect(posted.body.accepted).toBe(30);
    await new Promise((r) => setTimeout(r, 1500));
    const findings = await api(vigil, 'GET', '/v1/findings?schema=ocsf', { key: keys.inactive });
    expect(findings.status).toBe(200);
    expect(findings.body.records).toEqual([]);
    expect(findings.body.follow).not.toBe('');
    const alerts = await api(vigil, 'GET', '/v1/alerts', { key: keys.inactive });
    expect(alerts.body).toEqual({ follow: expect.any(String), more: false, alerts: [], threats: {} });
    expect(alerts.body.follow.length).toBeGreaterThan(0);
  });
});

describe('POST /v1/events/{type}', () => {
  it('accepts newline-delimited, concatenated, gzip and deflate bodies', async () => {
    const events = [
      { ts: '2018-09-03T11:39:47.123456789+02:00', srcIp: '10.0.0.1', query: 'www.example.com', qtype: 'A' },
      { ts: '2026-01-01T00:00:00Z', srcIP: '10.0.0.2', query: 'example.org.' },
    ];
    const plain = await api(vigil, 'POST', '/v1/events/dns', { body: toNdjson(events) });
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({ received: 2, accepted: 2, rejected: {} });
    const concatenated = await api(vigil, 'POST', '/v1/events/dns', { body: events.map((e) => JSON.stringify(e)).join('') });
    expect(concatenated.body.accepted).toBe(2);
    const gz = await api(vigil, 'POST', '/v1/events/dns', { body: gzipNdjson(events), headers: { 'content-encoding': 'gzip' } });
    expect(gz.body.accepted).toBe(2);
    for (const body of [deflateSync(toNdjson(events)), deflateRawSync(toNdjson(events))]) {
      const res = await api(vigil, 'POST', '/v1/events/dns', { body, headers: { 'content-encoding': 'deflate' } });
      expect(res.status).toBe(200);
      expect(res.body.accepted).toBe(2);
    }
  });

  it('accepts every event type with the zero values real clients send', async () => {
    const bodies: Record<string, object> = {
      ip: { ts: '2026-01-01T00:00:00Z', srcIP: '10.0.0.3', destIP: '1.1.1.1', destPort: 443, proto: 'tcp', bytesIn: 0, action: '' },
      tls: { ts: '2026-01-01T00:00:00Z', srcIP: '10.0.0.3', destIP: '1.1.1.1', destPort: 443, ja3: '724dedf93fb5a3636a0f1ee8fcec8801', validFrom: '0001-01-01T00:00:00Z' },
      http: { ts: '2026-01-01T00:00:00Z', srcIP: '10.0.0.3', url: 'example.com/path', status: 0, method: 'GET' },
      lease: { ts: '2026-01-01T00:00:00Z', srcIP: '10.0.0.3', srcMac: '00:11:22:33:44:55', srcHost: 'laptop', type: 'ack', duration: 3600.5 },
    };
    for (const [type, event] of Object.entries(bodies)) {
      const res = await api(vigil, 'POST', `/v1/events/${type}`, { body: toNdjson([event]) });
      expect({ type, status: res.status, accepted: res.body.accepted }).toEqual({ type, status: 200, accepted: 1 });
    }
  });

  it('counts rejected events by reason and keeps the valid ones', async () => {
    const res = await api(vigil, 'POST', '/v1/events/dns', {
      body: toNdjson([{ query: 'ok.example.com', srcIP: '10.0.0.4' }, { srcIP: '10.0.0.4' }, { query: 'x.com', srcIP: 'not-an-ip' }]),
    });
    expect(res.status).toBe(200);
    expect(res.body.received).toBe(3);
    expect(res.body.accepted).toBe(1);
    expect(Object.values(res.body.rejected as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(2);
  });

  it('answers 400 for a body that is not JSON, 404 for an unknown type, 405 for a wrong method, 415 for an unknown encoding', async () => {
    const bad = await api(vigil, 'POST', '/v1/events/dns', { body: 'this is not json' });
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe('string');
    const unknownType = await api(vigil, 'POST', '/v1/events/smtp', { body: toNdjson([{}]) });
    expect(unknownType.status).toBe(404);
    const wrongMethod = await api(vigil, 'GET', '/v1/events/dns');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toContain('POST');
    expect(typeof wrongMethod.body.message).toBe('string');
    const encoding = await api(vigil, 'POST', '/v1/events/dns', { body: toNdjson([{ query: 'a.com' }]), headers: { 'content-encoding': 'br' } });
    expect(encoding.status).toBe(415);
    expect(typeof encoding.body.message).toBe('string');
    const nowhere = await api(vigil, 'GET', '/v1/nowhere');
    expect(nowhere.status).toBe(404);
    expect(typeof nowhere.body.message).toBe('string');
  });

  it('answers 400 for a corrupt gzip or deflate body, with what is wrong', async () => {
    const whole = gzipNdjson([{ srcIP: '10.0.0.9', query: 'corrupt.example.com' }]);
    for (const [body, coding] of [[whole.subarray(0, whole.length - 6), 'gzip'], [Buffer.from('not deflate at all'), 'deflate']] as const) {
      const res = await api(vigil, 'POST', '/v1/events/dns', { body, headers: { 'content-encoding': coding } });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(`not valid ${coding} data`);
    }
  });

  it('binds an Idempotency-Key to the decoded batch: a retry compressed anew is replayed, not refused', async () => {
    const events = toNdjson([{ srcIP: '10.0.0.8', query: 'once.example.com' }, { srcIP: '10.0.0.8', query: 'twice.example.com' }]);
    const headers = (coding: string) => ({ 'content-encoding': coding, 'idempotency-key': 'e2e-recompressed-1' });
    const first = await api(vigil, 'POST', '/v1/events/dns', { body: gzipSync(events, { level: 1 }), headers: headers('gzip') });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    for (const [body, coding] of [[gzipSync(events, { level: 9 }), 'gzip'], [deflateRawSync(events), 'deflate']] as const) {
      const retry = await api(vigil, 'POST', '/v1/events/dns', { body, headers: headers(coding) });
      expect(retry.status).toBe(200);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(retry.body).toEqual(first.body);
    }
  });

  it('refuses a decompression bomb with 413 before inflating it, and keeps serving', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    expect(bomb.length).toBeLessThan(200_000);
    const started = Date.now();
    const res = await api(vigil, 'POST', '/v1/events/dns', { body: bomb, headers: { 'content-encoding': 'gzip' } });
    expect(res.status).toBe(413);
    expect(res.body.message).toMatch(/too large/i);
    expect(Date.now() - started).toBeLessThan(10_000);
    const plainTooLarge = await api(vigil, 'POST', '/v1/events/dns', { body: Buffer.alloc(10 * 1024 * 1024 + 1, 0x20) });
    expect(plainTooLarge.status).toBe(413);
    expect((await api(vigil, 'GET', '/v1/account/status')).status).toBe(200);
  });
});

describe('findings and alerts end to end', () => {
  beforeAll(async () => {
    const tunnel = tunnelQueries('10.1.1.5', 'tunnel-example.com', 40);
    const oast = [{ ts: new Date().toISOString(), srcIP: '10.1.1.6', srcHost: 'build-7', query: 'c9abcdefghijklmnopq.oast.fun', qtype: 'A' }];
    const res = await api(vigil, 'POST', '/v1/events/dns', { body: gzipNdjson([...tunnel, ...oast]), headers: { 'content-encoding': 'gzip' } });
    expect(res.body.accepted).toBe(41);
  });

  it('produces valid OCSF Detection Findings for the DNS tunnel and the OAST lookup', async () => {
    const records = await eventually(async () => {
      const res = await api(vigil, 'GET', '/v1/findings?schema=ocsf&maxAge=3600s');
      const found = res.body.records as any[];
      const detections = new Set(found.flatMap((f) => f.enrichments.flatMap((e: any) => e.data.aggregation.key.detections.map((d: any) => d.id))));
      return detections.has('dns_tunnel') && detections.has('oast_domain') ? found : undefined;
    });
    for (const finding of records) {
      assertValidOcsfFinding(finding);
      expect(finding.class_uid).toBe(2004);
      expect(finding.time).toBeLessThan(1e11);
      expect(Number.isInteger(finding.time)).toBe(true);
    }
    const tunnel = records.find((f) => f.enrichments[0].data.aggregation.key.detections[0].id === 'dns_tunnel' && f.enrichments[0].data.aggregation.key.detections[0].key === 'tunnel-example.com');
    expect(records.some((f) => f.enrichments[0].data.aggregation.key.detections[0].id === 'imposter_domain')).toBe(false);
    expect(records.some((f) => f.enrichments[0].data.aggregation.key.detections[0].key === 'inactive-tunnel.com')).toBe(false);
    const aggregation = tunnel.enrichments[0].data.aggregation;
    expect(aggregation.key).toMatchObject({ srcIP: '10.1.1.5', workspaceID: expect.any(String) });
    expect(aggregation.key.detections[0]).toMatchObject({ key: 'tunnel-example.com', threat: 'multiple_long_hostnames' });
    expect(aggregation.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(aggregation.batchIDs.length).toBeGreaterThan(0);
    expect(tunnel.finding_info.desc).toContain('tunnel-example.com');
  });

  it('measures the way to a finding by stage in /metrics: telemetry appended → scored and published, finding appended → stored', async () => {
    const text = (await api(vigil, 'GET', '/metrics', { key: null })).text;
    const count = (series: string) => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
    expect(count('vigil_scoring_delay_seconds_count')).toBeGreaterThan(0);
    expect(count('vigil_results_store_delay_seconds_count{kind="findings"}')).toBeGreaterThan(0);
    // Seconds, not milliseconds: on an idle test server each stage takes well under a minute.
    expect(count('vigil_scoring_delay_seconds_sum') / count('vigil_scoring_delay_seconds_count')).toBeLessThan(60);
  });

  it('pages by re-usable bookmarks that never come back empty', async () => {
    // One record per finding revision (metadata.uid is `<finding uid>:<revision>`): a finding updated after a
    // page was served comes back as its next revision, never as a record already served.
    const uidsOf = (records: any[]): string[] => records.map((f) => f.metadata.uid);
    const first = await api(vigil, 'GET', '/v1/findings?schema=ocsf');
    expect(first.status).toBe(200);
    expect(first.body.more).toBe(false);
    expect(first.headers.get('x-stream-follow')).toBe(first.body.follow);
    expect(first.headers.get('x-stream-more')).toBe('false');
    for (const finding of first.body.records) expect(finding.metadata.uid).toMatch(new RegExp(`^${finding.finding_info.uid}:\\d+$`));
    // Findings of the earlier tests' events may still be landing (new findings, or new revisions of listed ones).
    // They come after the bookmark, each record once, and the page that finds nothing new hands the same bookmark back.
    const listed = uidsOf(first.body.records);
    let follow: string = first.body.follow;
    for (;;) {
      const next = await api(vigil, 'GET', `/v1/findings?schema=ocsf&follow=${encodeURIComponent(follow)}`);
      expect(next.status).toBe(200);
      if (next.body.records.length === 0) {
        expect(next.body.follow).toBe(follow);
        break;
      }
      for (const uid of uidsOf(next.body.records)) expect(listed).not.toContain(uid);
      listed.push(...uidsOf(next.body.records));
      follow = next.body.follow;
    }
    for (const start of ['', '0', 'undefined', 'garbage!!']) {
      const res = await api(vigil, 'GET', `/v1/findings?schema=ocsf&follow=${start}`);
      expect(res.status).toBe(200);
      expect(uidsOf(res.body.records).slice(0, listed.length)).toEqual(listed);
    }
  });

  it('serves the legacy format=ocsf list under findings and NDJSON on request', async () => {
    const legacy = await api(vigil, 'GET', '/v1/findings?format=ocsf');
    expect(Array.isArray(legacy.body.findings)).toBe(true);
    expect(legacy.body.findings.length).toBeGreaterThan(0);
    expect(legacy.body.records).toBeUndefined();
    const stream = await api(vigil, 'GET', '/v1/findings?schema=ocsf', { headers: { accept: 'application/x-ndjson' } });
    expect(stream.headers.get('content-type')).toContain('application/x-ndjson');
    const streamed = stream.text.trim().split('\n').map((line) => JSON.parse(line));
    // A finding may land between the two requests; it comes after the ones already listed.
    const legacyUids = legacy.body.findings.map((f: any) => f.finding_info.uid);
    expect(streamed.slice(0, legacyUids.length).map((f) => f.finding_info.uid)).toEqual(legacyUids);
    streamed.forEach((finding) => assertValidOcsfFinding(finding));
    expect(stream.headers.get('x-stream-follow')).toBeTruthy();
    expect(stream.headers.get('x-stream-more')).toBe('false');
  });

  it('validates maxAge, schema and minSeverity', async () => {
    for (const url of ['/v1/findings?maxAge=31d', '/v1/findings?maxAge=10x', '/v1/findings?schema=csv', '/v1/alerts?maxAge=1d', '/v1/alerts?maxAge=721h', '/v1/alerts?minSeverity=9']) {
      const res = await api(vigil, 'GET', url);
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect(typeof res.body.message).toBe('string');
    }
    expect((await api(vigil, 'GET', '/v1/findings?maxAge=30d')).status).toBe(200);
    expect((await api(vigil, 'GET', '/v1/alerts?maxAge=720h')).status).toBe(200);
  });

  it('returns alerts with all four keys and every threat they mention', async () => {
    const res = await eventually(async () => {
      const page = await api(vigil, 'GET', '/v1/alerts?follow=0');
      return page.body.alerts.length > 0 ? page : undefined;
    });
    expect(Object.keys(res.body).sort()).toEqual(['alerts', 'follow', 'more', 'threats']);
    for (const alert of res.body.alerts) {
      expect(['dns', 'ip', 'http', 'tls']).toContain(alert.eventType);
      expect(typeof alert.event.ts).toBe('string');
      expect(alert.id).toMatch(/^[0-9a-f-]{36}$/);
      for (const threat of alert.threats) {
        expect(res.body.threats[threat]).toEqual(expect.objectContaining({ title: expect.any(String), severity: expect.any(Number) }));
      }
    }
    const all = await api(vigil, 'GET', '/v1/alerts?follow=0&threats=all&minSeverity=1');
    expect(Object.keys(all.body.threats).length).toBeGreaterThan(Object.keys(res.body.threats).length);
    const severe = await api(vigil, 'GET', '/v1/alerts?minSeverity=5');
    expect(severe.body.alerts.every((a: any) => a.detections.some((d: any) => d.severity >= 5))).toBe(true);
  });
});

describe('account status and inventory', () => {
  it('counts distinct endpoints seen today', async () => {
    const res = await api(vigil, 'GET', '/v1/account/status?p=splunk');
    expect(res.status).toBe(200);
    expect(res.body.endpointsSeenToday).toBeGreaterThanOrEqual(5);
    expect(res.body.today).toMatch(/\.\d{3}Z$/);
    expect(res.body.registered).toBe(true);
    expect(res.body.expired).toBe(false);
  });

  it('serves the threat and flag dictionaries', async () => {
    const threats = await api(vigil, 'GET', '/v1/ae/inventory/threats');
    expect(threats.body.threats.multiple_long_hostnames).toEqual(expect.objectContaining({ severity: 4 }));
    expect(threats.body.threats.c2_communication.severity).toBe(5);
    const flags = await api(vigil, 'GET', '/v1/ae/inventory/flags');
    expect(flags.body.flags.oast).toEqual(expect.objectContaining({ title: expect.any(String), type: expect.any(String) }));
  });

  it('compresses responses when the client accepts it', async () => {
    const res = await fetch(vigil.baseUrl + '/v1/ae/inventory/threats', {
      headers: { authorization: 'Basic ' + Buffer.from(vigil.key + ':').toString('base64'), 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(Object.keys(((await res.json()) as { threats: object }).threats).length).toBeGreaterThan(10);
  });
});
