import { api, benignDnsEvents, gzipNdjson, startVigil, type VigilProcess } from '@vigil/testing';

/**
 * Admission control in the all-in-one: while the events accepted but not yet scored would take scoring longer
 * than VIGIL_SCORING_BACKLOG_MS, a telemetry body waits (up to VIGIL_SCORING_ADMISSION_WAIT_MS) for scoring to
 * make room, and is refused with 429 and Retry-After, before its body is read, only if it is still waiting then.
 * Nothing accepted is lost. (A backlog limit of 1 ms makes the 20,000-event floor the limit, so a second large
 * body posted at once finds scoring behind.)
 */
const body = gzipNdjson(benignDnsEvents(40_000, { hosts: 2_000, seed: 11 }));

async function metric(vigil: VigilProcess, name: string): Promise<number> {
  const text = (await api(vigil, 'GET', '/metrics', { key: null, headers: { accept: 'text/plain' } })).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.slice(name.length + 1));
}

/** A Vigil of its own for the enclosing describe block, with a backlog limit of 1 ms and the given wait. */
function vigilWaiting(admissionWaitMs: number): () => VigilProcess {
  let vigil: VigilProcess;
  beforeAll(async () => {
    vigil = await startVigil({
      env: { VIGIL_RATE_LIMIT: '100000/60s', VIGIL_SCORING_BACKLOG_MS: '1', VIGIL_SCORING_ADMISSION_WAIT_MS: String(admissionWaitMs) },
    });
  });
  afterAll(async () => {
    await vigil?.stop();
  });
  return () => vigil;
}

async function scoredReaches(vigil: VigilProcess, events: number): Promise<number> {
  const deadline = Date.now() + 60_000;
  while ((await metric(vigil, 'vigil_events_scored_total')) < events && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
  return metric(vigil, 'vigil_events_scored_total');
}

describe('without waiting (VIGIL_SCORING_ADMISSION_WAIT_MS=0)', () => {
  const vigilProcess = vigilWaiting(0);

  it('answers 429 with Retry-After while scoring is behind, then accepts again once it has caught up', async () => {
    const vigil = vigilProcess();
    const post = () => api(vigil, 'POST', '/v1/events/dns', { body, headers: { 'content-encoding': 'gzip' } });

    const first = await post();
    expect(first.status).toBe(200);
    expect(first.body.accepted).toBe(40_000);
    const second = await post();
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('1');
    expect(second.body.message).toMatch(/Scoring is \d+ events behind/);
    expect(await metric(vigil, 'vigil_ingest_shed_total')).toBeGreaterThanOrEqual(1);

    // Scoring drains the first body; then the same body is accepted.
    const deadline = Date.now() + 60_000;
    let again = await post();
    while (again.status === 429 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      again = await post();
    }
    expect(again.status).toBe(200);
    expect(await scoredReaches(vigil, 80_000)).toBe(80_000);
  }, 180_000);
});

describe('waiting for room (the default)', () => {
  const vigilProcess = vigilWaiting(60_000);

  it('holds bodies that find scoring behind and lets them in, one by one, as scoring makes room: no 429', async () => {
    const vigil = vigilProcess();
    const post = () => api(vigil, 'POST', '/v1/events/dns', { body, headers: { 'content-encoding': 'gzip' } });
    const first = await post();
    expect(first.status).toBe(200);
    // Three more at once: each finds more than the 20,000-event limit waiting to be scored.
    const rest = await Promise.all([post(), post(), post()]);
    expect(rest.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(rest.map((r) => r.body.accepted)).toEqual([40_000, 40_000, 40_000]);
    expect(await metric(vigil, 'vigil_ingest_shed_total')).toBe(0);
    expect(await metric(vigil, 'vigil_ingest_admission_waited_total')).toBeGreaterThanOrEqual(2);
    expect(await metric(vigil, 'vigil_ingest_admission_waiting')).toBe(0);
    expect(await scoredReaches(vigil, 160_000)).toBe(160_000);
  }, 180_000);
});
