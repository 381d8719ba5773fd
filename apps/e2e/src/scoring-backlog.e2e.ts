import { api, benignDnsEvents, gzipNdjson, startVigil, type VigilProcess } from '@vigil/testing';

/**
 * Admission control in the all-in-one: while the events accepted but not yet scored would take scoring longer
 * than VIGIL_SCORING_BACKLOG_MS, telemetry is refused with 429 and Retry-After before its body is read, and
 * accepted again once scoring has caught up. Nothing accepted is lost. (A backlog limit of 1 ms makes the
 * 20,000-event floor the limit, so a second large body posted at once finds scoring behind.)
 */
let vigil: VigilProcess;

beforeAll(async () => {
  vigil = await startVigil({ env: { VIGIL_RATE_LIMIT: '100000/60s', VIGIL_SCORING_BACKLOG_MS: '1' } });
});

afterAll(async () => {
  await vigil?.stop();
});

async function metric(name: string): Promise<number> {
  const text = (await api(vigil, 'GET', '/metrics', { key: null, headers: { accept: 'text/plain' } })).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.slice(name.length + 1));
}

it('answers 429 with Retry-After while scoring is behind, then accepts again once it has caught up', async () => {
  const body = gzipNdjson(benignDnsEvents(40_000, { hosts: 2_000, seed: 11 }));
  const post = () => api(vigil, 'POST', '/v1/events/dns', { body, headers: { 'content-encoding': 'gzip' } });

  const first = await post();
  expect(first.status).toBe(200);
  expect(first.body.accepted).toBe(40_000);
  const second = await post();
  expect(second.status).toBe(429);
  expect(second.headers.get('retry-after')).toBe('1');
  expect(second.body.message).toMatch(/Scoring is \d+ events behind/);
  expect(await metric('vigil_ingest_shed_total')).toBeGreaterThanOrEqual(1);

  // Scoring drains the first body; then the same body is accepted.
  const deadline = Date.now() + 60_000;
  let again = await post();
  while (again.status === 429 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 250));
    again = await post();
  }
  expect(again.status).toBe(200);
  const scoredDeadline = Date.now() + 60_000;
  while ((await metric('vigil_events_scored_total')) < 80_000 && Date.now() < scoredDeadline) await new Promise((r) => setTimeout(r, 250));
  expect(await metric('vigil_events_scored_total')).toBe(80_000);
}, 180_000);
