/**
 * The `follow` bookmark: an opaque position in a workspace's stored records, ordered by (inserted_at, record_id).
 * Position (t, id) means "every record up to and including (t, id) has been served". Encoded as base64url of
 * `{"v":1,"t":"<inserted_at in epoch microseconds>","id":"<record_id>"}`; microseconds travel as a decimal
 * string because they exceed the integers a JSON number keeps exactly.
 */
export interface Bookmark {
  /** inserted_at of the last served record, epoch microseconds as a decimal string. */
  insertedAtUs: string;
  /** record_id of the last served record; '' means no record at `insertedAtUs` was served yet. */
  recordId: string;
}

export const BOOKMARK_VERSION = 1;
const MAX_ENCODED_LENGTH = 4096;
const MAX_RECORD_ID_LENGTH = 1024;
const INT64_MAX = (1n << 63n) - 1n;
const MICROS = /^(0|[1-9]\d{0,18})$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

function isValidMicros(value: unknown): value is string {
  return typeof value === 'string' && MICROS.test(value) && BigInt(value) <= INT64_MAX;
}

function isValidRecordId(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_RECORD_ID_LENGTH;
}

export function encodeBookmark(bookmark: Bookmark): string {
  if (!isValidMicros(bookmark.insertedAtUs)) {
    throw new TypeError(`bookmark insertedAtUs must be a decimal int64, got ${JSON.stringify(bookmark.insertedAtUs)}`);
  }
  if (!isValidRecordId(bookmark.recordId)) throw new TypeError('bookmark recordId must be a string of ≤ 1024 chars');
  const json = JSON.stringify({ v: BOOKMARK_VERSION, t: bookmark.insertedAtUs, id: bookmark.recordId });
  return Buffer.from(json, 'utf8').toString('base64url');
}

/**
 * The position a client's `follow` value names, or undefined for "start from the maxAge look-back": no value,
 * ``, `0`, `undefined`, `null`, and anything that is not a bookmark this service issued (never an error).
 */
export function decodeBookmark(value: unknown): Bookmark | undefined {
  if (typeof value !== 'string' || value.length > MAX_ENCODED_LENGTH || !BASE64URL.test(value)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { v, t, id } = parsed as Record<string, unknown>;
  if (v !== BOOKMARK_VERSION || !isValidMicros(t) || !isValidRecordId(id)) return undefined;
  return { insertedAtUs: t, recordId: id };
}

/** The position just past every record inserted at or before `horizonUs`. */
export function headBookmark(horizonUs: bigint): Bookmark {
  // Record ids are never empty, so (t + 1, '') comes after every record at t and before every record after it.
  return { insertedAtUs: (horizonUs + 1n).toString(), recordId: '' };
}
