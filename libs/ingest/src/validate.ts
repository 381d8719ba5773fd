import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { TELEMETRY_TYPES, type TelemetryEventByType, type TelemetryType } from '@vigil/contracts';
import { normalizeProtocol, normalizeQtype, normalizeQueryName } from './dns-names';
import { boundViolation, MAX_EVENT_FIELDS, MAX_EVENT_STRING_LENGTH, newBoundsTally, tallyMember, type BoundsTally, type EventBoundReason } from './event-bounds';
import { isIpAddress } from './ip-address';
import { EVENT_SCHEMAS, type EventSchema, type FieldSchema } from './schemas';
import { isJsonObject } from './split';
import { eventTimeWindow, INVALID_TIME, isWithinEventTimeWindow, normalizeTimestamp, ZERO_TIME, type EventTimeWindow } from './timestamps';

/**
 * Turns one client-sent JSON value into a telemetry event of `@vigil/contracts`, or says why not.
 *
 * 1. The value must be an object within the per-event bounds (./event-bounds: depth, fields, string length),
 *    unknown fields included.
 * 2. Field names are matched case-insensitively onto the spec's spelling (`srcIp`, `SRCIP` → `srcIP`; the
 *    exact spelling wins when both are present; `referer` → `referrer`); unknown fields are dropped.
 * 3. Values are coerced only where clients are known to differ: digit strings for integers, numeric strings
 *    for numbers, `"true"`/`"false"`/`1` for booleans; IPs trimmed, IPv6 lower-cased. A string field takes only
 *    a string — a number there is `invalid_<field>` — except `qtype` and `proto`, whose IANA numbers (`16`,
 *    `6`) are values of their own.
 * 4. Zero values (`null`, `""`, `0`, `false`, blank strings, Go's zero time) mean "absent", not an error —
 *    except traffic counters (`bytesIn`, `packetsIn`, ...), where 0 is a measurement: a flow that got nothing
 *    back is how unanswered connections (scans) are recognised.
 * 5. The result is checked against the type's JSON Schema (./schemas, compiled once here by ajv).
 * 6. Field finishing: `ts` to UTC ISO with milliseconds (receive time when absent or zero), at most ten years
 *    before or after the receive time (./timestamps; else `ts_out_of_range`); DNS query lower-cased without its
 *    trailing dot, qtype upper-cased or named from its number, proto lower-cased or named from its number, HTTP
 *    method upper-cased, TLS validity dates to UTC ISO (any date: they are certificate data, and Go's zero time
 *    means absent). The URL is kept as sent.
 *
 * Rejection reasons are short, stable strings (clients see them in a `rejected` map): `not_an_object`,
 * `too_deep`, `too_many_fields`, `string_too_long`, `ts_out_of_range`, `missing_<field>` and `invalid_<field>`
 * with the field spelt as the API spells it (`invalid_ts`, `invalid_srcIP`, `missing_query`); the splitter adds
 * `invalid_json`. The OpenAPI document's pattern for these keys is checked against them in openapi-agreement.spec.ts.
 */

export type RejectionReason =
  | 'not_an_object'
  | 'invalid_json'
  | 'ts_out_of_range'
  | EventBoundReason
  | `invalid_${string}`
  | `missing_${string}`;
export type NormalizeResult<T extends TelemetryType = TelemetryType> =
  | { ok: true; event: TelemetryEventByType[T]; asSent?: AsSent }
  | { ok: false; reason: RejectionReason };

/**
 * What a normalised event is of the JSON value it was made from, when the normaliser reused that value
 * (`mayReuseInput`) and can tell: `same`, the value unchanged; `ts-added`, the value with `ts` (the receipt
 * time) added as its last member. Undefined: changed or copied some other way. A caller holding the value's JSON
 * text can then take the text for the event's JSON instead of serializing the event again.
 */
export type AsSent = 'same' | 'ts-added';
export type EventNormalizer<T extends TelemetryType = TelemetryType> = (raw: unknown) => NormalizeResult<T>;

/** Normalises one event; `now` stands in for a missing or zero `ts`. The input is left unchanged. */
export function normalizeEvent<T extends TelemetryType>(type: T, raw: unknown, now: Date): NormalizeResult<T> {
  return normalizeWith(RULES[type], raw, receiptOf(now), false) as NormalizeResult<T>;
}

export interface EventNormalizerOptions {
  /**
   * The raw values are the caller's own to change (freshly parsed, like the splitter's): an input that is
   * already canonical (exact field names, final value types, no zero values) then becomes the event itself,
   * finished in place, which saves a copy per event on the hot path.
   */
  mayReuseInput?: boolean;
}

/** The same as {@link normalizeEvent} for a whole batch of one type received at `now`. */
export function createEventNormalizer<T extends TelemetryType>(
  type: T,
  now: Date,
  options: EventNormalizerOptions = {},
): EventNormalizer<T> {
  const rules = RULES[type];
  const receipt = receiptOf(now);
  const mayReuseInput = options.mayReuseInput === true;
  return (raw) => normalizeWith(rules, raw, receipt, mayReuseInput) as NormalizeResult<T>;
}

/** When a batch was received: `nowIso` stands in for a missing `ts`, `window` bounds the ones sent. */
interface Receipt {
  readonly nowIso: string;
  readonly window: EventTimeWindow;
}

function receiptOf(now: Date): Receipt {
  return { nowIso: now.toISOString(), window: eventTimeWindow(now) };
}

/** `numbered-text`: a string field whose values are also sent as IANA numbers (kept as digits, named when finished). */
type Coercion = 'text' | 'numbered-text' | 'ip' | 'integer' | 'counter' | 'number' | 'boolean' | 'timestamp';

/** Integer fields whose 0 is a value, not a zero value. */
const COUNTER_FIELDS: ReadonlySet<string> = new Set(['bytesIn', 'bytesOut', 'packetsIn', 'packetsOut']);
/** String fields that clients also fill with a number: DNS qtype (`16` is TXT) and IP proto (`6` is tcp). */
const NUMBERED_TEXT_FIELDS: ReadonlySet<string> = new Set(['qtype', 'proto']);

interface FieldRule {
  readonly name: string;
  readonly coercion: Coercion;
}

interface EventRules {
  readonly validate: ValidateFunction;
  /** Canonical, lower-cased and alias spellings → rule. */
  readonly fields: ReadonlyMap<string, FieldRule>;
  /** Type-specific finishing after schema validation, in place; returns a rejection reason or undefined. */
  readonly finish: Finish;
  /** The fields `finish` may change. */
  readonly finishedFields: readonly string[];
}

type Finish = (event: Record<string, unknown>) => RejectionReason | undefined;

const FIELD_ALIASES: Readonly<Record<string, string>> = { referer: 'referrer' };

/** Every field each FINISH below may rewrite (parse-batch.spec has a case for each: an event they change is not taken as sent). */
const FINISHED_FIELDS: Readonly<Record<TelemetryType, readonly string[]>> = {
  dns: ['query', 'qtype'],
  ip: ['proto'],
  http: ['method'],
  tls: ['validFrom', 'validTo'],
  lease: [],
};

// Named property access (not a loop over field names) keeps these on V8's fast path: they run per event.
const FINISH: Readonly<Record<TelemetryType, Finish>> = {
  dns(event) {
    if (event.query !== undefined) {
      const query = normalizeQueryName(event.query as string);
      if (query === undefined) return 'invalid_query';
      if (query !== event.query) event.query = query;
    }
    if (event.qtype !== undefined) event.qtype = normalizeQtype(event.qtype as string);
    return undefined;
  },
  ip(event) {
    if (event.proto !== undefined) event.proto = normalizeProtocol(event.proto as string);
    return undefined;
  },
  http(event) {
    if (event.method !== undefined) event.method = normalizeMethod(event.method as string);
    return undefined;
  },
  tls(event) {
    return finishValidityDate(event, 'validFrom') ?? finishValidityDate(event, 'validTo');
  },
  lease() {
    return undefined;
  },
};

/** TLS validity dates: UTC ISO like `ts`, but Go's zero time means "absent" rather than "now". */
function finishValidityDate(event: Record<string, unknown>, field: 'validFrom' | 'validTo'): RejectionReason | undefined {
  const value = event[field];
  if (value === undefined) return undefined;
  const date = normalizeTimestamp(value as string | number);
  if (date === INVALID_TIME) return `invalid_${field}`;
  if (date === ZERO_TIME) delete event[field];
  else event[field] = date;
  return undefined;
}

function normalizeMethod(method: string): string {
  return HTTP_METHODS.has(method) ? method : method.trim().toUpperCase();
}

const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH', 'CONNECT', 'TRACE']);

const ajv = new Ajv2020({ allErrors: false, allowUnionTypes: true, strict: true });
ajv.addFormat('ip', { type: 'string', validate: isIpAddress });

function coercionOf(name: string, schema: FieldSchema): Coercion {
  if (COUNTER_FIELDS.has(name) && schema.type === 'integer') return 'counter';
  if (NUMBERED_TEXT_FIELDS.has(name) && schema.type === 'string') return 'numbered-text';
  if (Array.isArray(schema.type)) return 'timestamp';
  if (schema.format === 'ip') return 'ip';
  switch (schema.type) {
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return 'text';
  }
}

function buildRules(schema: EventSchema, finish: Finish, finishedFields: readonly string[]): EventRules {
  if (finishedFields.length > 2) throw new Error('finishNoting compares at most two finished fields');
  const fields = new Map<string, FieldRule>();
  for (const [name, fieldSchema] of Object.entries(schema.properties)) {
    const rule: FieldRule = { name, coercion: coercionOf(name, fieldSchema) };
    fields.set(name, rule);
    fields.set(name.toLowerCase(), rule);
  }
  for (const [alias, target] of Object.entries(FIELD_ALIASES)) {
    const rule = fields.get(target);
    if (rule !== undefined) fields.set(alias, rule);
  }
  // Canonicalisation leaves only the schema's own fields, so `additionalProperties: false` (kept in the
  // published schema) need not be checked again per event: it is the costliest part of the generated code.
  const validate = ajv.compile({ ...schema, $id: schema.$id.replace(/\.json$/, '.runtime.json'), additionalProperties: true });
  return { validate, fields, finish, finishedFields };
}

const RULES = Object.fromEntries(TELEMETRY_TYPES.map((type) => [type, buildRules(EVENT_SCHEMAS[type], FINISH[type], FINISHED_FIELDS[type])])) as Record<
  TelemetryType,
  EventRules
>;

const rejection = (reason: RejectionReason): NormalizeResult => Object.freeze({ ok: false, reason }) as NormalizeResult;
const NOT_AN_OBJECT = rejection('not_an_object');
const INVALID_TS = rejection('invalid_ts');
const TS_OUT_OF_RANGE = rejection('ts_out_of_range');
const BOUND_REJECTIONS: Readonly<Record<EventBoundReason, NormalizeResult>> = {
  too_deep: rejection('too_deep'),
  too_many_fields: rejection('too_many_fields'),
  string_too_long: rejection('string_too_long'),
};

function normalizeWith(rules: EventRules, raw: unknown, receipt: Receipt, mayReuseInput: boolean): NormalizeResult {
  if (!isJsonObject(raw)) return NOT_AN_OBJECT;
  let event: Record<string, unknown>;
  let asSent: AsSent | undefined;
  if (mayReuseInput && isCanonical(rules, raw)) {
    event = raw; // within the bounds: known fields only, flat, strings checked by isFinalValue
    asSent = 'same';
  } else {
    const bounds = newBoundsTally();
    event = canonicalCopy(rules, raw, bounds);
    const bound = boundViolation(bounds);
    if (bound !== undefined) return BOUND_REJECTIONS[bound];
  }
  if (!rules.validate(event)) return { ok: false, reason: reasonOf(rules.validate.errors![0]) };

  if (event.ts === undefined) {
    event.ts = receipt.nowIso;
    if (asSent !== undefined) asSent = 'ts-added';
  } else {
    const ts = normalizeTimestamp(event.ts as string | number);
    if (ts === INVALID_TIME) return INVALID_TS;
    if (ts === ZERO_TIME) {
      event.ts = receipt.nowIso;
      asSent = undefined;
    } else if (!isWithinEventTimeWindow(event.ts as string | number, ts, receipt.window)) {
      return TS_OUT_OF_RANGE;
    } else if (ts !== event.ts) {
      event.ts = ts;
      asSent = undefined;
    }
  }
  const rejection = asSent === undefined ? rules.finish(event) : finishNoting(rules, event);
  if (rejection === CHANGED) asSent = undefined;
  else if (rejection !== undefined) return { ok: false, reason: rejection };
  return { ok: true, event: event as unknown as TelemetryEventByType[TelemetryType], asSent };
}

/** Stands for "finished without rejection, but changed a field". */
const CHANGED = Symbol('changed');

/** rules.finish, telling whether it changed one of the fields it may rewrite. */
function finishNoting(rules: EventRules, event: Record<string, unknown>): RejectionReason | typeof CHANGED | undefined {
  const fields = rules.finishedFields;
  const first = fields.length > 0 ? event[fields[0]] : undefined;
  const second = fields.length > 1 ? event[fields[1]] : undefined;
  const rejection = rules.finish(event);
  if (rejection !== undefined) return rejection;
  if (fields.length > 0 && event[fields[0]] !== first) return CHANGED;
  if (fields.length > 1 && event[fields[1]] !== second) return CHANGED;
  return undefined;
}

/**
 * Field names made canonical, values coerced, zero values and unknown fields left out; every member of `raw`
 * is tallied into `bounds` on the way (the copy is only used when they hold).
 */
function canonicalCopy(rules: EventRules, raw: Record<string, unknown>, bounds: BoundsTally): Record<string, unknown> {
  const event: Record<string, unknown> = {};
  for (const key in raw) {
    tallyMember(bounds, key, raw[key]);
    if (bounds.tooDeep || bounds.longString || bounds.fields > MAX_EVENT_FIELDS) continue; // rejected anyway: tally only
    const rule = rules.fields.get(key) ?? rules.fields.get(key.toLowerCase());
    if (rule === undefined) continue;
    const value = coerce(raw[key], rule.coercion);
    if (value === undefined) continue;
    if (key !== rule.name && event[rule.name] !== undefined) continue; // the exact spelling wins
    event[rule.name] = value;
  }
  return event;
}

/**
 * True when canonicalCopy would copy `raw` unchanged: every key exact, every value already final. Such an
 * event is within the per-event bounds: it is flat, has only the type's known fields (far fewer than
 * MAX_EVENT_FIELDS), and final strings are no longer than MAX_EVENT_STRING_LENGTH.
 */
function isCanonical(rules: EventRules, raw: Record<string, unknown>): boolean {
  for (const key in raw) {
    const rule = rules.fields.get(key);
    if (rule === undefined || rule.name !== key || !isFinalValue(raw[key], rule.coercion)) return false;
  }
  return true;
}

function isFinalValue(value: unknown, coercion: Coercion): boolean {
  switch (coercion) {
    case 'text':
    case 'numbered-text':
      return typeof value === 'string' && value.length <= MAX_EVENT_STRING_LENGTH && !isBlank(value);
    case 'ip':
      return (
        typeof value === 'string' &&
        value !== '' &&
        value.length <= MAX_EVENT_STRING_LENGTH &&
        !hasOuterSpace(value) &&
        (!value.includes(':') || !HAS_UPPER_CASE.test(value))
      );
    case 'timestamp':
      return (typeof value === 'string' && value.length <= MAX_EVENT_STRING_LENGTH && !isBlank(value)) || (typeof value === 'number' && value !== 0);
    case 'integer':
    case 'number':
      return typeof value === 'number' && value !== 0;
    case 'counter':
      return typeof value === 'number';
    case 'boolean':
      return value === true;
  }
}

const HAS_UPPER_CASE = /[A-Z]/;

function reasonOf(error: ErrorObject): RejectionReason {
  if (error.keyword === 'required') return `missing_${(error.params as { missingProperty: string }).missingProperty}`;
  const field = error.instancePath.split('/')[1];
  return field ? `invalid_${field}` : 'not_an_object';
}

const INTEGER_STRING = /^\s*\d+\s*$/;
const NUMBER_STRING = /^\s*-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\s*$/;

/** Coerces a raw value for its field; `undefined` means absent (a zero value). Others go to the schema as is. */
function coerce(value: unknown, coercion: Coercion): unknown {
  if (coercion === 'counter') return coerceCounter(value);
  if (value === null || value === undefined || value === '' || value === 0 || value === false) return undefined;
  switch (coercion) {
    case 'text':
      return typeof value === 'string' && isBlank(value) ? undefined : value;
    case 'numbered-text':
      if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? String(value) : value;
      return typeof value === 'string' && isBlank(value) ? undefined : value;
    case 'ip': {
      if (typeof value !== 'string') return value;
      const ip = value.trim();
      if (ip === '') return undefined;
      return ip.includes(':') ? ip.toLowerCase() : ip;
    }
    case 'timestamp':
      return typeof value === 'string' && isBlank(value) ? undefined : value;
    case 'integer':
      return typeof value === 'string' && INTEGER_STRING.test(value) ? nonZero(Number(value)) : value;
    case 'number':
      return typeof value === 'string' && NUMBER_STRING.test(value) ? nonZero(Number(value)) : value;
    case 'boolean':
      return toBoolean(value);
  }
}

function coerceCounter(value: unknown): unknown {
  if (value === null || value === undefined || value === '' || value === false) return undefined;
  if (typeof value === 'string') return INTEGER_STRING.test(value) ? Number(value) : isBlank(value) ? undefined : value;
  return value;
}

function nonZero(n: number): number | undefined {
  return n === 0 ? undefined : n;
}

function hasOuterSpace(value: string): boolean {
  return value.charCodeAt(0) <= 32 || value.charCodeAt(value.length - 1) <= 32;
}

function isBlank(value: string): boolean {
  return value === '' || (hasOuterSpace(value) && value.trim() === '');
}

function toBoolean(value: unknown): unknown {
  if (value === true || value === 1) return true;
  if (typeof value !== 'string') return value;
  switch (value.trim().toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
    case '':
      return undefined;
    default:
      return value;
  }
}
