import { sqlInteger, sqlString, sqlStringArray, type ServiceStore } from '@vigil/store';
import { decodeBookmark, encodeBookmark, headBookmark, type Bookmark } from './bookmark';
import { InvalidQueryError, InvalidRecordError } from './errors';
import { MAX_AGE_LIMIT_SECONDS } from './max-age';
import type { RecordTable, StoredRecord } from './record-tables';
import { RecentlyStoredKeys } from './recently-stored-keys';
import { RowBinaryReader } from './row-binary';

export interface PagingOptions {
  /**
   * How long a stored record waits before it is served. inserted_at is taken when an insert starts and the rows
   * become visible when it commits; a record is served only once the visibility horizon (now − delay) has passed
   * its inserted_at, so an insert that commits within the delay can never land behind a bookmark already issued.
   */
  visibilityDelayMs?: number;
  /**
   * This repository is the only writer of its table (the embedded store: one process owns the data directory),
   * so it knows every insert in flight: the horizon then stops short of the oldest insert still committing
   * instead of trailing the clock by a fixed delay, and a record is served as soon as its insert has committed
   * (plus `visibilityDelayMs`, which may then be 0). Both clocks are this machine's.
   */
  soleWriter?: boolean;
  /** Stop a page early once its items would serialize to more than this many bytes. */
  maxPageBytes?: number;
  /**
   * How long an insert waits for others to join it (default 0). Inserts run one at a time, and every call that
   * arrives while one waits or runs goes into the next: one existence check and one insert for all of them.
   */
  insertLingerMs?: number;
}

export interface PageRequest {
  workspaceId: string;
  /** The client's `follow` value, as sent. */
  bookmark?: string;
  /** Records inserted longer ago than this are not served. */
  maxAgeSeconds: number;
  /** At most this many items (1 to MAX_PAGE_LIMIT). */
  limit: number;
  /** Serve only records with severity ≥ this. */
  minSeverity?: number;
}

export interface Page<TItem> {
  items: TItem[];
  /** True when more records are already servable: call again at once. */
  more: boolean;
  /** Never empty; pass it as `follow` on the next call. */
  bookmark: string;
}

/** A page whose items are the stored JSON texts, as UTF-8 bytes. */
export interface RawPage {
  bodies: Buffer[];
  more: boolean;
  bookmark: string;
}

export interface RejectedRecord {
  record: unknown;
  reason: string;
}

export interface InsertResult {
  inserted: number;
  /** Records already stored (or repeated in the batch) and therefore skipped. */
  duplicates: number;
  /** Records that cannot be stored; retrying them would fail the same way. */
  rejected: RejectedRecord[];
}

export const DEFAULT_VISIBILITY_DELAY_MS = 1000;
export const DEFAULT_MAX_PAGE_BYTES = 8_000_000;
export const MAX_PAGE_LIMIT = 1000;
/**
 * Keys a sole writer remembers per table (about 100 bytes each): at the sustained bench's 20 records a second
 * per table, the last quarter of an hour. Older re-deliveries are checked in the store.
 */
const REMEMBERED_KEYS = 20_000;
/** Ids per existence check. */
const ID_CHECK_CHUNK = 500;
/**
 * UTF-8 bytes of the ids in one existence check. Escaping at most doubles them, which keeps the query text under
 * the engine's 256 KiB query size limit however long the ids are.
 */
const ID_CHECK_BYTES = 96 * 1024;
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** 2299-12-31 23:59:59.999999 UTC, the end of DateTime64's range, in epoch microseconds. */
const MAX_DATETIME64_US = 10_413_791_999_999_999n;

/** `YYYY-MM-DD hh:mm:ss.sss` in UTC, the DateTime64(3, 'UTC') text form. */
function toDateTime64Text(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 23).replace('T', ' ');
}

function localNowUs(): bigint {
  return BigInt(Date.now()) * 1000n;
}

/** Where the existence check starting at `start` ends: at most ID_CHECK_CHUNK ids and ID_CHECK_BYTES (at least one). */
function idCheckChunkEnd(records: readonly StoredRecord[], start: number): number {
  let end = start;
  let bytes = 0;
  while (end < records.length && end - start < ID_CHECK_CHUNK) {
    bytes += Buffer.byteLength(records[end].recordId) + Buffer.byteLength(records[end].workspaceId);
    if (end > start && bytes > ID_CHECK_BYTES) break;
    end++;
  }
  return end;
}

/** A call to insert() waiting for the insert it joined. */
interface PendingInsert<TRecord> {
  records: TRecord[];
  resolve(result: InsertResult): void;
  reject(error: unknown): void;
}

/** A record not stored yet, serialized, with the index of the call it came from. */
interface FreshRow {
  stored: StoredRecord;
  body: string;
  call: number;
}

function pairKey(workspaceId: string, recordId: string): string {
  return `${workspaceId}\u0000${recordId}`;
}

function assertPageRequest(request: PageRequest): void {
  if (typeof request.workspaceId !== 'string' || request.workspaceId === '') {
    throw new InvalidQueryError('workspaceId is required');
  }
  if (!Number.isInteger(request.limit) || request.limit < 1 || request.limit > MAX_PAGE_LIMIT) {
    throw new InvalidQueryError(`limit must be a whole number from 1 to ${MAX_PAGE_LIMIT}, got ${request.limit}`);
  }
  const maxAge = request.maxAgeSeconds;
  if (typeof maxAge !== 'number' || !(maxAge > 0) || maxAge > MAX_AGE_LIMIT_SECONDS) {
    throw new InvalidQueryError(`maxAgeSeconds must be above 0 and at most ${MAX_AGE_LIMIT_SECONDS}, got ${maxAge}`);
  }
  const min = request.minSeverity;
  if (min !== undefined && (!Number.isInteger(min) || min < 0 || min > 255)) {
    throw new InvalidQueryError(`minSeverity must be a whole number from 0 to 255, got ${min}`);
  }
}

/**
 * Stores one kind of record (findings or alerts) and pages through a workspace's records in insertion order.
 * Inserts are idempotent under at-least-once delivery; pages follow an opaque, re-usable bookmark.
 */
export class RecordRepository<TRecord, TItem> {
  private readonly table: string;
  private readonly visibilityDelayUs: bigint;
  private readonly maxPageBytes: number;
  /** Inserts run one at a time so that two deliveries of one record cannot both pass the existence check. */
  private insertTail: Promise<unknown> = Promise.resolve();
  /** Calls gathered for the next insert, until it starts. */
  private gathering?: PendingInsert<TRecord>[];
  private readonly insertLingerMs: number;
  private readonly soleWriter: boolean;
  /** Sole writer: the local time (µs) just before the insert now in flight began; its rows are stamped later. */
  private insertStartedUs: bigint | undefined;
  /**
   * Sole writer: per workspace, a time (epoch µs) after which no committed record of it is stored, once a page
   * has shown it. A poll whose bookmark lies past it can only get an empty page, and gets it without a query:
   * most pollers wait at the head of a workspace where nothing is new, and each query costs the engine
   * milliseconds of CPU that the pages with records then wait for.
   */
  private readonly quietAfterUs = new Map<string, bigint>();
  /** Sole writer: per workspace, when the latest insert holding its records committed (local µs). */
  private readonly insertedUntilUs = new Map<string, bigint>();
  /** Sole writer: the newest inserted_at in the table when first asked (rows of earlier runs lie at or before it). */
  private storedUntilUs?: Promise<bigint>;
  /** Sole writer: the keys of its own recent inserts, loaded before the first one. */
  private recentKeys?: Promise<RecentlyStoredKeys>;

  constructor(
    private readonly store: ServiceStore,
    private readonly spec: RecordTable<TRecord>,
    options: PagingOptions = {},
  ) {
    if (!TABLE_NAME.test(spec.name)) throw new TypeError(`invalid table name ${JSON.stringify(spec.name)}`);
    const delayMs = options.visibilityDelayMs ?? DEFAULT_VISIBILITY_DELAY_MS;
    if (!Number.isInteger(delayMs) || delayMs < 0) {
      throw new TypeError(`visibilityDelayMs must be a whole number ≥ 0, got ${delayMs}`);
    }
    const maxBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
    if (!Number.isInteger(maxBytes) || maxBytes < 1) throw new TypeError(`maxPageBytes must be ≥ 1, got ${maxBytes}`);
    this.table = `${store.database}.${spec.name}`;
    this.visibilityDelayUs = BigInt(delayMs) * 1000n;
    this.maxPageBytes = maxBytes;
    this.soleWriter = options.soleWriter ?? false;
    const linger = options.insertLingerMs ?? 0;
    if (!Number.isInteger(linger) || linger < 0) throw new TypeError(`insertLingerMs must be a whole number ≥ 0, got ${linger}`);
    this.insertLingerMs = linger;
  }

  /** Stores the records not stored yet. Invalid records are returned in `rejected`, never thrown. */
  insert(records: TRecord[]): Promise<InsertResult> {
    if (!Array.isArray(records)) return Promise.reject(new TypeError('insert expects an array of records'));
    return new Promise((resolve, reject) => {
      if (this.gathering === undefined) {
        const calls: PendingInsert<TRecord>[] = (this.gathering = []);
        const linger = this.insertLingerMs > 0 ? new Promise((r) => setTimeout(r, this.insertLingerMs)) : undefined;
        // insertCalls answers its callers and never rejects, so the next insert can chain on it directly.
        this.insertTail = Promise.all([this.insertTail, linger]).then(() => {
          this.gathering = undefined;
          return this.insertCalls(calls);
        });
      }
      this.gathering.push({ records, resolve, reject });
    });
  }

  /** One insert for every gathered call; each call is answered for its own records. */
  private async insertCalls(calls: PendingInsert<TRecord>[]): Promise<void> {
    try {
      const results = await this.insertNow(calls.map((c) => c.records));
      calls.forEach((call, i) => call.resolve(results[i]));
    } catch (error) {
      for (const call of calls) call.reject(error);
    }
  }

  async page(request: PageRequest): Promise<Page<TItem>> {
    const raw = await this.pageRaw(request);
    return { items: raw.bodies.map((body) => JSON.parse(body.toString('utf8')) as TItem), more: raw.more, bookmark: raw.bookmark };
  }

  /**
   * The page with each item as the JSON text it was stored as (UTF-8 bytes); an HTTP answer splices them into
   * its body as they are, which serves exactly what {@link page} would after JSON.stringify of its items.
   */
  async pageRaw(request: PageRequest): Promise<RawPage> {
    assertPageRequest(request);
    const sent = decodeBookmark(request.bookmark);
    if (sent !== undefined && this.isQuietAfter(request.workspaceId, BigInt(sent.insertedAtUs))) {
      return { bodies: [], more: false, bookmark: request.bookmark as string };
    }
    const after: Bookmark = sent ?? { insertedAtUs: '0', recordId: '' };
    // The horizon and the maxAge floor follow the server's clock, not ours: inserted_at comes from it. With a
    // bookmark the page query reads that clock itself (one round trip, what a poller at the head pays); a first
    // call reads it first, because its bookmark must be the horizon the page was read at even when it is empty.
    // A sole writer knows the horizon itself (its own clock and inserts): no clock query at all. knownNowUs: the
    // clock reading this page uses when it is known before the query (then the horizon is worked out here too).
    const knownNowUs = this.soleWriter ? localNowUs() : sent ? undefined : await this.serverNowUs();
    const serverNow = knownNowUs === undefined ? '(SELECT now64(6))' : `fromUnixTimestamp64Micro(${sqlInteger(knownNowUs)}, 'UTC')`;
    const horizonUs = knownNowUs === undefined ? undefined : this.horizonUs(knownNowUs);
    const horizon =
      horizonUs === undefined
        ? `server_now - toIntervalMicrosecond(${sqlInteger(this.visibilityDelayUs)})`
        : `fromUnixTimestamp64Micro(${sqlInteger(horizonUs)}, 'UTC')`;
    // A bookmark past the horizon gets an empty page; clamped, it stays within DateTime64's range.
    const afterUs = sqlInteger(BigInt(after.insertedAtUs) > MAX_DATETIME64_US ? MAX_DATETIME64_US : BigInt(after.insertedAtUs));
    const maxAgeUs = sqlInteger(BigInt(Math.round(request.maxAgeSeconds * 1e6)));

    // Literals, not query parameters: the embedded engine runs parameterized queries one at a time process-wide,
    // and pages of many pollers must run side by side. RowBinary: bodies come back as stored, with no escaping to undo.
    const result = await this.store.client.exec({
      query: `WITH ${serverNow} AS server_now
        SELECT toUnixTimestamp64Micro(inserted_at) AS at_us, record_id, body
        FROM ${this.table}
        WHERE workspace_id = ${sqlString(request.workspaceId)}
          AND inserted_at <= ${horizon}
          AND inserted_at >= server_now - toIntervalMicrosecond(${maxAgeUs})
          AND inserted_at >= fromUnixTimestamp64Micro(${afterUs}, 'UTC')
          AND (inserted_at > fromUnixTimestamp64Micro(${afterUs}, 'UTC') OR record_id > ${sqlString(after.recordId)})
          AND severity >= ${sqlInteger(request.minSeverity ?? 0)}
        ORDER BY inserted_at, record_id
        LIMIT ${sqlInteger(request.limit + 1)}
        FORMAT RowBinary`,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of result.stream) chunks.push(chunk as Buffer);
    const reader = new RowBinaryReader(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));

    const bodies: Buffer[] = [];
    let bytes = 0;
    let last: { atUs: string; recordId: string } | undefined;
    let more = false;
    while (!reader.done) {
      const atUs = reader.int64();
      const recordId = reader.string();
      const body = reader.bytes();
      // Always serve at least one record, even an oversized one, or the client could never move past it.
      if (bodies.length === request.limit || (bodies.length > 0 && bytes + body.length + 1 > this.maxPageBytes)) {
        more = true;
        break;
      }
      bodies.push(body);
      bytes += body.length + 1;
      last = { atUs, recordId };
    }

    const readToHorizon = !more && this.soleWriter && horizonUs !== undefined;
    if (readToHorizon) await this.learnQuiet(request.workspaceId, horizonUs as bigint);
    let bookmark: string;
    // A page that served records up to the horizon hands out the head (past every record up to the horizon,
    // served or filtered out) instead of its last record, so that the next poll of a quiet workspace needs no
    // query. A page with nothing new hands back the bookmark it was sent.
    if (last && readToHorizon) bookmark = encodeBookmark(headBookmark(horizonUs as bigint));
    else if (last) bookmark = encodeBookmark({ insertedAtUs: last.atUs, recordId: last.recordId });
    else if (sent) bookmark = request.bookmark as string;
    else bookmark = encodeBookmark(headBookmark(horizonUs as bigint));
    return { bodies, more, bookmark };
  }

  /** Sole writer: whether no committed record of the workspace is stored after `atUs`, as far as is known. */
  private isQuietAfter(workspaceId: string, atUs: bigint): boolean {
    const quietAfter = this.quietAfterUs.get(workspaceId);
    return quietAfter !== undefined && atUs > quietAfter;
  }

  /**
   * Sole writer, after a page read a workspace's records up to `horizonUs` and found no more: records of it
   * stored after the horizon can only come from inserts of this repository that have committed since, or from
   * an earlier run. None may be in flight now, or its rows would be missed.
   */
  private async learnQuiet(workspaceId: string, horizonUs: bigint): Promise<void> {
    let storedUntil: bigint;
    try {
      storedUntil = await (this.storedUntilUs ??= this.newestStoredUs());
    } catch {
      // Asked again next time; meanwhile polls keep querying.
      this.storedUntilUs = undefined;
      return;
    }
    if (this.insertStartedUs !== undefined) return;
    let quietAfter = horizonUs > storedUntil ? horizonUs : storedUntil;
    const insertedUntil = this.insertedUntilUs.get(workspaceId);
    if (insertedUntil !== undefined && insertedUntil > quietAfter) quietAfter = insertedUntil;
    this.quietAfterUs.set(workspaceId, quietAfter);
  }

  private async newestStoredUs(): Promise<bigint> {
    const result = await this.store.client.query({
      query: `SELECT toString(toUnixTimestamp64Micro(max(inserted_at))) AS at_us FROM ${this.table}`,
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ at_us: string }>();
    return BigInt(row?.at_us ?? '0');
  }

  /** Sole writer, once an insert has ended: its workspaces may have records up to now. */
  private noteInserted(workspaceIds: Iterable<string>): void {
    // 1 ms above: the local clock is read in whole milliseconds, and a row may be stamped later in the same one.
    const endUs = localNowUs() + 1000n;
    for (const workspaceId of workspaceIds) {
      this.insertedUntilUs.set(workspaceId, endUs);
      if (this.quietAfterUs.has(workspaceId)) this.quietAfterUs.set(workspaceId, endUs);
    }
  }

  /** The newest insertion time servable at `nowUs`: behind the delay, and (sole writer) before any insert in flight. */
  private horizonUs(nowUs: bigint): bigint {
    const trailing = nowUs - this.visibilityDelayUs;
    if (this.insertStartedUs === undefined) return trailing;
    // 1 ms below the start: the local clock is read in whole milliseconds.
    const beforeInFlight = this.insertStartedUs - 1000n;
    return beforeInFlight < trailing ? beforeInFlight : trailing;
  }

  private async serverNowUs(): Promise<bigint> {
    // The server's clock, not ours: inserted_at comes from it.
    const result = await this.store.client.query({
      query: 'SELECT toString(toUnixTimestamp64Micro(now64(6))) AS now_us',
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ now_us: string }>();
    return BigInt(row.now_us);
  }

  /** Stores the records of several calls (`batches[i]` from call i) and answers each call for its own. */
  private async insertNow(batches: TRecord[][]): Promise<InsertResult[]> {
    const results: InsertResult[] = batches.map(() => ({ inserted: 0, duplicates: 0, rejected: [] }));
    const fresh = new Map<string, FreshRow>();
    batches.forEach((records, call) => {
      for (const record of records) {
        let stored: StoredRecord;
        let body: string | undefined;
        try {
          stored = this.spec.describe(record);
          body = JSON.stringify(stored.body);
        } catch (error) {
          const reason = error instanceof InvalidRecordError ? error.message : `not serializable: ${String(error)}`;
          results[call].rejected.push({ record, reason });
          continue;
        }
        const key = pairKey(stored.workspaceId, stored.recordId);
        if (fresh.has(key)) results[call].duplicates++;
        else fresh.set(key, { stored, body, call });
      }
    });

    const existing = await this.storedAmong([...fresh.values()].map((f) => f.stored));
    for (const key of existing) {
      const row = fresh.get(key);
      if (row === undefined) continue;
      results[row.call].duplicates++;
      fresh.delete(key);
    }
    if (fresh.size > 0) {
      const remembered = await this.recentKeys?.catch(() => undefined);
      if (this.soleWriter) this.insertStartedUs = localNowUs();
      try {
        await this.insertRows(fresh);
        for (const [key, { stored }] of fresh) remembered?.add(key, stored.time);
      } catch (error) {
        for (const { stored } of fresh.values()) remembered?.uncover(stored.time);
        throw error;
      } finally {
        // Also after a failure: part of the rows may have been stored.
        if (this.soleWriter) this.noteInserted(new Set([...fresh.values()].map((f) => f.stored.workspaceId)));
        this.insertStartedUs = undefined;
      }
    }
    for (const { call } of fresh.values()) results[call].inserted++;
    return results;
  }

  private async insertRows(fresh: Map<string, FreshRow>): Promise<void> {
    await this.store.client.insert({
      table: this.table,
      columns: ['workspace_id', 'record_id', 'severity', 'time', 'body', ...this.spec.extraColumns],
      values: [...fresh.values()].map(({ stored, body }) => ({
        workspace_id: stored.workspaceId,
        record_id: stored.recordId,
        severity: stored.severity,
        time: toDateTime64Text(stored.time),
        body,
        ...stored.extra,
      })),
      format: 'JSONEachRow',
    });
  }

  /**
   * Keys (workspace, record id) among `records` that are already stored. A sole writer answers from what it
   * remembers of its own inserts wherever that is exact (recently-stored-keys.ts) and asks the store the rest.
   */
  private async storedAmong(records: StoredRecord[]): Promise<Set<string>> {
    if (!this.soleWriter) return this.findExisting(records);
    let remembered: RecentlyStoredKeys;
    try {
      remembered = await (this.recentKeys ??= this.loadRecentKeys());
    } catch {
      this.recentKeys = undefined;
      return this.findExisting(records);
    }
    const found = new Set<string>();
    const unknown: StoredRecord[] = [];
    for (const record of records) {
      const key = pairKey(record.workspaceId, record.recordId);
      if (!remembered.covers(record.time)) unknown.push(record);
      else if (remembered.has(key)) found.add(key);
    }
    if (unknown.length > 0) for (const key of await this.findExisting(unknown)) found.add(key);
    return found;
  }

  private async loadRecentKeys(): Promise<RecentlyStoredKeys> {
    const result = await this.store.client.query({
      query: `SELECT toString(toUnixTimestamp64Milli(max(time))) AS newest_ms FROM ${this.table}`,
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ newest_ms: string }>();
    return new RecentlyStoredKeys(Number(row?.newest_ms ?? '0'), REMEMBERED_KEYS);
  }

  /** Keys (workspace, record id) among `records` that are already stored: the primary key narrows each check to the workspaces' rows. */
  private async findExisting(records: StoredRecord[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < records.length; ) {
      const end = idCheckChunkEnd(records, start);
      const chunk = records.slice(start, end);
      start = end;
      const result = await this.store.client.query({
        query: `SELECT DISTINCT workspace_id, record_id FROM ${this.table}
          WHERE workspace_id IN ${sqlStringArray([...new Set(chunk.map((r) => r.workspaceId))])}
            AND record_id IN ${sqlStringArray(chunk.map((r) => r.recordId))}`,
        format: 'JSONEachRow',
      });
      for (const row of await result.json<{ workspace_id: string; record_id: string }>()) {
        found.add(pairKey(row.workspace_id, row.record_id));
      }
    }
    return found;
  }
}
