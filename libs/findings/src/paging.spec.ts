import { createRng } from '@vigil/testing';
import type { FindingRecord } from '@vigil/contracts';
import { decodeBookmark } from './bookmark';
import { InvalidQueryError } from './errors';
import { FindingsRepository } from './repositories';
import { findingRecord, openTempFindingsStore, servedId, sleep, type TempStore } from './test-fixtures';

const DELAY_MS = 200;
const DAY_MS = 86_400_000;

/** Seeded random numbers so that a failing interleaving of batch sizes and delays can be replayed (PAGING_SEED). */
function random(seed: number): () => number {
  const rng = createRng(seed);
  return () => rng.next();
}

describe('paging findings (real chdb)', () => {
  let temp: TempStore;
  let repo: FindingsRepository;

  beforeAll(async () => {
    temp = await openTempFindingsStore();
    repo = new FindingsRepository(temp.store, { visibilityDelayMs: DELAY_MS });
  });
  afterAll(() => temp?.close());

  /** Follows bookmarks from `bookmark` until nothing more is servable now; returns served ids and the last bookmark. */
  async function drain(workspaceId: string, bookmark?: string, limit = 50, maxAgeSeconds = 3600) {
    const ids: string[] = [];
    for (;;) {
      const page = await repo.page({ workspaceId, bookmark, maxAgeSeconds, limit });
      ids.push(...page.items.map(servedId));
      bookmark = page.bookmark;
      if (!page.more) return { ids, bookmark };
    }
  }

  /**
   * Four writers insert irregular batches (with redeliveries) while a poller follows bookmarks; every record must
   * be served exactly once. `soleWriter`: the poller reads through the writing repository itself, which then
   * serves each insert as soon as it commits (no delay); otherwise through another connection, behind the delay.
   */
  async function raceWriters(soleWriter: boolean): Promise<void> {
    const seed = Number(process.env.PAGING_SEED ?? 20261122);
    const rand = random(seed);
    const ws = soleWriter ? 'ws-race-sole' : 'ws-race';
    const total = 2000;
    const writers = 4;
    const now = Date.now();
    // Event times are shuffled, and one in ten is weeks old (a late record): neither may affect serving.
    const records: FindingRecord[] = Array.from({ length: total }, (_, i) =>
      findingRecord(ws, `f${String(i).padStart(4, '0')}:1`, 1 + (i % 5), rand() < 0.1 ? now - 25 * DAY_MS : now - rand() * 3_600_000),
    );
    const shares: FindingRecord[][] = Array.from({ length: writers }, () => []);
    records.forEach((r) => shares[Math.floor(rand() * writers)].push(r));

    // Writers insert through their own engine connection, so inserts and page queries really run in parallel.
    const writer = soleWriter
      ? new FindingsRepository(temp.store, { visibilityDelayMs: 0, soleWriter: true })
      : new FindingsRepository(await temp.openWriterStore(), { visibilityDelayMs: DELAY_MS });
    const reader = soleWriter ? writer : repo;
    const delayMs = soleWriter ? 0 : DELAY_MS;
    let writersDone = false;
    let doneAt = Infinity;
    let duplicateBatches = 0;
    const write = async (share: FindingRecord[]) => {
      const sent: FindingRecord[][] = [];
      for (let i = 0; i < share.length; ) {
        const batch = share.slice(i, i + 1 + Math.floor(rand() * 20));
        i += batch.length;
        await writer.insert(batch);
        sent.push(batch);
        // At-least-once delivery: now and then an earlier batch arrives again.
        if (rand() < 0.1) {
          duplicateBatches++;
          const again = await writer.insert(sent[Math.floor(rand() * sent.length)]);
          expect(again.inserted).toBe(0);
        }
        await sleep(Math.floor(rand() * 25));
      }
    };

    const seen = new Map<string, number>();
    let pages = 0;
    let fullPages = 0;
    const poll = async () => {
      let bookmark: string | undefined;
      for (;;) {
        const startedAt = Date.now();
        const page = await reader.page({ workspaceId: ws, bookmark, maxAgeSeconds: 3600, limit: 50 });
        pages++;
        expect(page.items.length).toBeLessThanOrEqual(50);
        if (page.items.length === 50) fullPages++;
        expect(page.bookmark).not.toBe('');
        for (const item of page.items) seen.set(servedId(item), (seen.get(servedId(item)) ?? 0) + 1);
        bookmark = page.bookmark;
        if (page.more) continue;
        // Drained once a poll that began after the last write became visible finds nothing more.
        if (writersDone && startedAt > doneAt + delayMs + 50) return;
        // Irregular waits let a backlog build up, so that pages fill and cut through insert batches.
        await sleep(20 + Math.floor(rand() * 250));
      }
    };

    const poller = poll();
    await Promise.all(shares.map(write));
    writersDone = true;
    doneAt = Date.now();
    await poller;

    const repeated = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    const missing = records.map((r) => r.recordId).filter((id) => !seen.has(id));
    expect({ seed, repeated, missing }).toEqual({ seed, repeated: [], missing: [] });
    expect(seen.size).toBe(total);
    expect(duplicateBatches).toBeGreaterThan(0);
    expect(pages).toBeGreaterThanOrEqual(total / 50);
    expect(fullPages).toBeGreaterThan(5);
  }

  it('serves every record exactly once to a poller racing 4 concurrent writers', () => raceWriters(false), 20_000);

  it('serves every record exactly once, with no delay, when the poller reads through the only writer', () => raceWriters(true), 20_000);

  it('as the only writer, serves a record as soon as its insert has committed, and no head bookmark passes an insert in flight', async () => {
    const sole = new FindingsRepository(temp.store, { visibilityDelayMs: 0, soleWriter: true });
    const ws = 'ws-sole-now';
    const head = await sole.page({ workspaceId: ws, maxAgeSeconds: 3600, limit: 10 });
    await sole.insert([findingRecord(ws, 'now1:1')]);
    const after = await sole.page({ workspaceId: ws, bookmark: head.bookmark, maxAgeSeconds: 3600, limit: 10 });
    expect(after.items.map(servedId)).toEqual(['now1:1']);

    // First calls made while a large insert is being written: each one's head bookmark must lie before that
    // insert's rows (they are stamped when it starts and visible only when it commits), or they would be skipped.
    const quiet = 'ws-sole-big';
    // Times before the first insert's: the writer asks the store whether they are stored, so the insert lasts.
    const big = Array.from({ length: 5000 }, (_, i) => findingRecord(quiet, `big${String(i).padStart(4, '0')}:1`, 3, Date.now() - 3_600_000));
    let done = false;
    const writing = sole.insert(big).finally(() => (done = true));
    const heads: string[] = [];
    while (!done) {
      heads.push((await sole.page({ workspaceId: quiet, maxAgeSeconds: 3600, limit: 1000 })).bookmark);
      await sleep(5);
    }
    await writing;
    expect(heads.length).toBeGreaterThan(3);
    for (const bookmark of heads) {
      const served = new Set<string>();
      for (let from = bookmark, more = true; more; ) {
        const page = await sole.page({ workspaceId: quiet, bookmark: from, maxAgeSeconds: 3600, limit: 1000 });
        page.items.forEach((item) => served.add(servedId(item)));
        from = page.bookmark;
        more = page.more;
      }
      expect(big.filter((r) => !served.has(r.recordId))).toEqual([]);
    }
  });

  it('as the only writer, answers polls at the head of a quiet workspace without a query, and still serves every later record once', async () => {
    // The real store, with its page queries counted.
    let pageQueries = 0;
    const client = temp.store.client;
    const counted = {
      ...temp.store,
      client: new Proxy(client, {
        get(target, property) {
          if (property === 'exec') {
            return (...args: Parameters<typeof client.exec>) => {
              pageQueries++;
              return target.exec(...args);
            };
          }
          const value = Reflect.get(target, property) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      }),
    };
    const ws = 'ws-sole-quiet';
    const other = 'ws-sole-busy';
    const sole = new FindingsRepository(counted, { visibilityDelayMs: 0, soleWriter: true });
    await sole.insert(['q1:1', 'q2:1', 'q3:1'].map((id) => findingRecord(ws, id)));
    // An insert's end counts 1 ms late (the clock is read in milliseconds): a page within it cannot learn quiet.
    await sleep(5);

    // A page cut short hands out its last record; the page that reaches the head hands out the head.
    const cut = await sole.page({ workspaceId: ws, maxAgeSeconds: 3600, limit: 2 });
    expect({ ids: cut.items.map(servedId), more: cut.more, at: decodeBookmark(cut.bookmark)?.recordId }).toEqual({ ids: ['q1:1', 'q2:1'], more: true, at: 'q2:1' });
    const rest = await sole.page({ workspaceId: ws, bookmark: cut.bookmark, maxAgeSeconds: 3600, limit: 2 });
    expect({ ids: rest.items.map(servedId), more: rest.more, at: decodeBookmark(rest.bookmark)?.recordId }).toEqual({ ids: ['q3:1'], more: false, at: '' });

    const queriesAtHead = pageQueries;
    await sole.insert([findingRecord(other, 'b1:1')]);
    for (let i = 0; i < 5; i++) {
      expect(await sole.page({ workspaceId: ws, bookmark: rest.bookmark, maxAgeSeconds: 3600, limit: 2 })).toEqual({ items: [], more: false, bookmark: rest.bookmark });
    }
    expect(pageQueries).toBe(queriesAtHead);

    // A record inserted now is served to the next poll, which queries again, and then the head is quiet again.
    await sole.insert([findingRecord(ws, 'q4:1')]);
    await sleep(5);
    const next = await sole.page({ workspaceId: ws, bookmark: rest.bookmark, maxAgeSeconds: 3600, limit: 2 });
    expect(next.items.map(servedId)).toEqual(['q4:1']);
    expect(pageQueries).toBe(queriesAtHead + 1);
    expect((await sole.page({ workspaceId: ws, bookmark: next.bookmark, maxAgeSeconds: 3600, limit: 2 })).items).toEqual([]);
    expect(pageQueries).toBe(queriesAtHead + 1);

    // After a restart nothing is known: the first poll queries, and records of the earlier run are not skipped.
    const restarted = new FindingsRepository(counted, { visibilityDelayMs: 0, soleWriter: true });
    const replayed = await restarted.page({ workspaceId: ws, bookmark: cut.bookmark, maxAgeSeconds: 3600, limit: 10 });
    expect(replayed.items.map(servedId)).toEqual(['q3:1', 'q4:1']);
    const queriesAfterRestart = pageQueries;
    expect(await restarted.page({ workspaceId: ws, bookmark: replayed.bookmark, maxAgeSeconds: 3600, limit: 2 })).toEqual({ items: [], more: false, bookmark: replayed.bookmark });
    expect(pageQueries).toBe(queriesAfterRestart);
  });

  it('gives the same continuation every time an old bookmark is re-used', async () => {
    const ws = 'ws-reuse';
    await repo.insert(Array.from({ length: 25 }, (_, i) => findingRecord(ws, `r${String(i).padStart(2, '0')}:1`)));
    await sleep(DELAY_MS + 50);
    const first = await repo.page({ workspaceId: ws, maxAgeSeconds: 3600, limit: 10 });
    expect(first.more).toBe(true);
    const second = await repo.page({ workspaceId: ws, bookmark: first.bookmark, maxAgeSeconds: 3600, limit: 10 });
    await repo.insert([findingRecord(ws, 'later:1')]);
    await sleep(DELAY_MS + 50);
    const again = await repo.page({ workspaceId: ws, bookmark: first.bookmark, maxAgeSeconds: 3600, limit: 10 });
    expect(again.items.map(servedId)).toEqual(second.items.map(servedId));
    expect(again.bookmark).toBe(second.bookmark);
    // And from there the rest, then the newer record, each once.
    const rest = await drain(ws, second.bookmark);
    expect(rest.ids).toEqual(['r20:1', 'r21:1', 'r22:1', 'r23:1', 'r24:1', 'later:1']);
    expect([...first.items, ...second.items].map(servedId)).toEqual(
      Array.from({ length: 20 }, (_, i) => `r${String(i).padStart(2, '0')}:1`),
    );
  });

  it('returns the sent bookmark, or a head bookmark, when nothing is new, and then only what comes after', async () => {
    const ws = 'ws-head';
    const empty = await repo.page({ workspaceId: ws, maxAgeSeconds: 3600, limit: 50 });
    expect(empty).toMatchObject({ items: [], more: false });
    expect(decodeBookmark(empty.bookmark)).toBeDefined();

    await repo.insert([findingRecord(ws, 'h1:1'), findingRecord(ws, 'h2:1')]);
    // Not yet past the visibility horizon: nothing served, bookmark unchanged.
    const early = await repo.page({ workspaceId: ws, bookmark: empty.bookmark, maxAgeSeconds: 3600, limit: 50 });
    expect(early).toEqual({ items: [], more: false, bookmark: empty.bookmark });
    await sleep(DELAY_MS + 50);
    const next = await repo.page({ workspaceId: ws, bookmark: empty.bookmark, maxAgeSeconds: 3600, limit: 50 });
    expect(next.items.map(servedId)).toEqual(['h1:1', 'h2:1']);
    const idle = await repo.page({ workspaceId: ws, bookmark: next.bookmark, maxAgeSeconds: 3600, limit: 50 });
    expect(idle).toEqual({ items: [], more: false, bookmark: next.bookmark });
  });

  it('answers a bookmark beyond the horizon with nothing and the same bookmark', async () => {
    const ws = 'ws-future';
    await repo.insert([findingRecord(ws, 'f1:1')]);
    await sleep(DELAY_MS + 50);
    for (const t of ['9223372036854775807', String((Date.now() + 60_000) * 1000)]) {
      const bookmark = Buffer.from(JSON.stringify({ v: 1, t, id: 'z' })).toString('base64url');
      expect(await repo.page({ workspaceId: ws, bookmark, maxAgeSeconds: 3600, limit: 5 })).toEqual({
        items: [],
        more: false,
        bookmark,
      });
    }
  });

  it('treats start values and unknown bookmarks as the maxAge look-back', async () => {
    const ws = 'ws-start';
    await repo.insert([findingRecord(ws, 's1:1'), findingRecord(ws, 's2:1')]);
    await sleep(DELAY_MS + 50);
    for (const bookmark of [undefined, '', '0', 'undefined', 'null', 'eyJpZCI6MjA2NTM2fQ']) {
      const page = await repo.page({ workspaceId: ws, bookmark, maxAgeSeconds: 3600, limit: 50 });
      expect(page.items.map(servedId)).toEqual(['s1:1', 's2:1']);
    }
  });

  it('leaves out records inserted before maxAge', async () => {
    const ws = 'ws-age';
    const old = findingRecord(ws, 'old:1');
    const threeDaysAgo = new Date(Date.now() - 3 * DAY_MS).toISOString().replace('T', ' ').replace('Z', '');
    await temp.store.client.insert({
      table: 'findings.findings',
      values: [
        {
          workspace_id: ws,
          record_id: old.recordId,
          severity: 3,
          time: threeDaysAgo,
          inserted_at: threeDaysAgo,
          body: JSON.stringify(old.finding),
        },
      ],
      format: 'JSONEachRow',
    });
    await repo.insert([findingRecord(ws, 'new:1')]);
    await sleep(DELAY_MS + 50);
    expect((await drain(ws, undefined, 50, 2 * 86400)).ids).toEqual(['new:1']);
    expect((await drain(ws, undefined, 50, 4 * 86400)).ids).toEqual(['old:1', 'new:1']);
    // A bookmark older than maxAge does not bring old records back either.
    const start = Buffer.from(JSON.stringify({ v: 1, t: '1', id: 'a' })).toString('base64url');
    expect((await drain(ws, start, 50, 2 * 86400)).ids).toEqual(['new:1']);
  });

  it('filters by minimum severity without skipping what matches', async () => {
    const ws = 'ws-sev';
    await repo.insert([1, 5, 2, 4, 3, 5].map((sev, i) => findingRecord(ws, `v${i}:1`, sev)));
    await sleep(DELAY_MS + 50);
    const page = await repo.page({ workspaceId: ws, maxAgeSeconds: 3600, limit: 2, minSeverity: 4 });
    expect(page.items.map((f) => f.severity_id)).toEqual([5, 4]);
    expect(page.more).toBe(true);
    const rest = await repo.page({ workspaceId: ws, bookmark: page.bookmark, maxAgeSeconds: 3600, limit: 2, minSeverity: 4 });
    expect(rest.items.map(servedId)).toEqual(['v5:1']);
    expect(rest.more).toBe(false);
  });

  it('never mixes workspaces', async () => {
    await repo.insert([findingRecord('ws-a', 'same:1'), findingRecord('ws-b', 'same:1'), findingRecord('ws-b', 'b-only:1')]);
    await sleep(DELAY_MS + 50);
    expect((await drain('ws-a')).ids).toEqual(['same:1']);
    expect((await drain('ws-b')).ids.sort()).toEqual(['b-only:1', 'same:1']);
    expect((await drain('ws-c')).ids).toEqual([]);
  });

  it('stops a page early at the byte cap and serves the rest on the next call', async () => {
    const ws = 'ws-bytes';
    await repo.insert(Array.from({ length: 6 }, (_, i) => findingRecord(ws, `b${i}:1`)));
    await sleep(DELAY_MS + 50);
    const bodyBytes = Buffer.byteLength(JSON.stringify(findingRecord(ws, 'b0:1').finding)) + 1;
    const capped = new FindingsRepository(temp.store, { visibilityDelayMs: DELAY_MS, maxPageBytes: bodyBytes * 2 + 1 });
    const ids: string[] = [];
    let bookmark: string | undefined;
    let calls = 0;
    for (let more = true; more; calls++) {
      const page = await capped.page({ workspaceId: ws, bookmark, maxAgeSeconds: 3600, limit: 50 });
      expect(page.items.length).toBeLessThanOrEqual(2);
      ids.push(...page.items.map(servedId));
      ({ bookmark, more } = page);
    }
    expect(ids).toEqual(['b0:1', 'b1:1', 'b2:1', 'b3:1', 'b4:1', 'b5:1']);
    expect(calls).toBe(3);
    // A single record larger than the cap is still served, alone.
    const tiny = new FindingsRepository(temp.store, { visibilityDelayMs: DELAY_MS, maxPageBytes: 1 });
    const one = await tiny.page({ workspaceId: ws, maxAgeSeconds: 3600, limit: 50 });
    expect(one.items.map(servedId)).toEqual(['b0:1']);
    expect(one.more).toBe(true);
  });

  it('refuses invalid page requests with InvalidQueryError', async () => {
    const ok = { workspaceId: 'w', maxAgeSeconds: 60, limit: 10 };
    await expect(repo.page({ ...ok, limit: 0 })).rejects.toThrow(InvalidQueryError);
    await expect(repo.page({ ...ok, limit: 1001 })).rejects.toThrow(InvalidQueryError);
    await expect(repo.page({ ...ok, maxAgeSeconds: 0 })).rejects.toThrow(InvalidQueryError);
    await expect(repo.page({ ...ok, maxAgeSeconds: 31 * 86400 })).rejects.toThrow(InvalidQueryError);
    await expect(repo.page({ ...ok, minSeverity: 2.5 })).rejects.toThrow(InvalidQueryError);
    await expect(repo.page({ ...ok, workspaceId: '' })).rejects.toThrow(InvalidQueryError);
  });
});
