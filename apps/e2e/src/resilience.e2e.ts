import * as fs from 'node:fs';
import * as https from 'node:https';
import { api, eventually, runCli, startVigil, tempDataDir, toNdjson } from '@vigil/testing';
import { tunnelQueries } from './telemetry';

/** Data directories that servers start on more than once (startVigil removes only its own); removed at the end. */
const dataDirs: string[] = [];
function ownDataDir(): string {
  const dir = tempDataDir();
  dataDirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe('rate limiting', () => {
  it('answers 429 with Retry-After and a JSON message past the per-key limit', async () => {
    const vigil = await startVigil({ env: { VIGIL_RATE_LIMIT: '5/60s' } });
    try {
      const statuses: number[] = [];
      let limited;
      for (let i = 0; i < 7; i++) {
        const res = await api(vigil, 'GET', '/v1/ae/inventory/flags');
        statuses.push(res.status);
        if (res.status === 429) limited = res;
      }
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses[5]).toBe(429);
      expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(limited!.body.message).toMatch(/rate limit/i);
    } finally {
      await vigil.stop();
    }
  });
});

describe('durability', () => {
  it('keeps events answered 200 through a kill -9 before scoring, and scores them after the restart', async () => {
    const dataDir = ownDataDir();
    const gatewayOnly = await startVigil({ dataDir, env: { VIGIL_SERVICES: 'account,rules,ingest-gateway' } });
    const res = await api(gatewayOnly, 'POST', '/v1/events/dns', { body: toNdjson(tunnelQueries('10.7.7.7', 'durable-tunnel.net', 40)) });
    expect(res.status).toBe(200);
    expect(res.body.accepted).toBe(40);
    await gatewayOnly.stop('SIGKILL');

    const full = await startVigil({ dataDir, env: { VIGIL_VISIBILITY_DELAY_MS: '200' } });
    try {
      const finding = await eventually(async () => {
        const page = await api(full, 'GET', '/v1/findings?schema=ocsf');
        return (page.body.records as any[]).find((f) => f.enrichments[0].data.aggregation.key.detections[0].key === 'durable-tunnel.net');
      }, 30_000);
      expect(finding.count).toBeGreaterThan(0);
      expect(finding.device.ip).toBe('10.7.7.7');
    } finally {
      await full.stop();
    }
  });
});

describe('graceful shutdown', () => {
  it('lets bodies in flight at SIGTERM finish: none is answered 500, and every one answered 200 is scored after the restart', async () => {
    const dataDir = ownDataDir();
    const vigil = await startVigil({ dataDir });
    // Two senders post without pause, as sensors do, until an answer is not 200; each body holds a tunnel of its own
    // among 20,000 ordinary lookups, so that bodies are in flight for a while.
    const bodyFor = (domain: string, sender: number) =>
      toNdjson([
        ...tunnelQueries(`10.8.${sender}.1`, domain, 40),
        ...Array.from({ length: 20_000 }, (_, n) => ({ srcIP: `10.9.${sender}.${(n % 200) + 1}`, query: `site${n % 500}.example.com`, qtype: 'A' })),
      ]);
    type Answer = { domain: string; status: number; retryAfter: string | null; at: number };
    const answers: Answer[] = [];
    const send = async (sender: number) => {
      for (let k = 0; ; k++) {
        const domain = `drain-${sender}-${k}.net`;
        let answer: Answer;
        try {
          const res = await api(vigil, 'POST', '/v1/events/dns', { body: bodyFor(domain, sender) });
          answer = { domain, status: res.status, retryAfter: res.headers.get('retry-after'), at: Date.now() };
        } catch {
          // Connection refused or reset once the server has closed: nothing was answered 200; the sender retries.
          answer = { domain, status: 0, retryAfter: null, at: Date.now() };
        }
        answers.push(answer);
        if (answer.status !== 200) return;
      }
    };
    const senders = [send(0), send(1)];
    await eventually(async () => (answers.length >= 4 ? true : undefined), 30_000, 20);
    const signalledAt = Date.now();
    vigil.child.kill('SIGTERM');
    await Promise.all(senders);
    await vigil.stop();

    expect(answers.filter((a) => ![200, 503, 0].includes(a.status))).toEqual([]);
    for (const refused of answers.filter((a) => a.status === 503)) expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    // Bodies were being taken in when the signal came, and they were finished, not cut off.
    expect(answers.filter((a) => a.status === 200 && a.at > signalledAt).length).toBeGreaterThan(0);
    expect(vigil.child.signalCode).toBe('SIGTERM');

    const accepted = answers.filter((a) => a.status === 200).map((a) => a.domain);
    const full = await startVigil({ dataDir, env: { VIGIL_VISIBILITY_DELAY_MS: '200' } });
    try {
      await eventually(async () => {
        const page = await api(full, 'GET', '/v1/findings?schema=ocsf');
        const found = new Set((page.body.records as any[]).map((f) => f.enrichments[0].data.aggregation.key.detections[0].key));
        return accepted.every((domain) => found.has(domain)) ? true : undefined;
      }, 60_000);
    } finally {
      await full.stop();
    }
  });
});

describe('key management CLI without a running server', () => {
  it('creates, lists and revokes keys on the data directory, and a restarted server honours them', async () => {
    const dataDir = ownDataDir();
    const env = { VIGIL_DATA_DIR: dataDir, VIGIL_PORT: '1' };
    const created = await runCli(['keys', 'create', '--workspace', 'acme', '--expires', '30d'], env);
    expect(created.code).toBe(0);
    const key = /(vgl_\w+)/.exec(created.stdout)![1];
    const listed = await runCli(['keys', 'list'], env);
    expect(listed.stdout).toContain(key.slice(0, 12));
    expect(listed.stdout).toContain('acme');
    expect(listed.stdout).not.toContain(key);
    const bad = await runCli(['keys', 'create', '--expires', 'soon'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--expires');

    const vigil = await startVigil({ dataDir });
    try {
      const status = await api({ baseUrl: vigil.baseUrl, key }, 'GET', '/v1/account/status');
      expect(status.status).toBe(200);
      expect(status.body.expirationDate).toBeDefined();
    } finally {
      await vigil.stop();
    }
    const revoked = await runCli(['keys', 'revoke', key.slice(0, 12)], env);
    expect(revoked.code).toBe(0);
    const again = await startVigil({ dataDir });
    try {
      expect((await api({ baseUrl: again.baseUrl, key }, 'GET', '/v1/account/status')).status).toBe(401);
    } finally {
      await again.stop();
    }
  });
});

describe('configuration', () => {
  it('fails fast with a message naming the invalid variable', async () => {
    await expect(startVigil({ env: { VIGIL_PORT: 'eighty' } })).rejects.toThrow(/VIGIL_PORT/);
  });

  it('serves HTTPS with a generated self-signed certificate', async () => {
    const vigil = await startVigil({ env: { VIGIL_TLS_SELF_SIGNED: '1' } });
    try {
      const body = await eventually(
        () =>
          new Promise<string | undefined>((resolve) => {
            https
              .get(vigil.baseUrl + '/healthz', { rejectUnauthorized: false }, (res) => {
                let text = '';
                res.on('data', (c) => (text += c));
                res.on('end', () => resolve(text));
              })
              .on('error', () => resolve(undefined));
          }),
      );
      expect(JSON.parse(body)).toEqual({ status: 'ok' });
    } finally {
      await vigil.stop();
    }
  });
});
