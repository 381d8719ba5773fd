import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { TELEMETRY_TYPES, type TelemetryEventByType, type TelemetryType } from '@vigil/contracts';
import { normalizeProtocol, normalizeQtype, normalizeQueryName } from './dns-names';
import { isIpAddress } from './ip-address';
import { EVENT_SCHEMAS, type EventSchema, type FieldSchema } from './schemas';
import { isJsonObject } from './split';
import { INVALID_TIME, normalizeTimestamp, ZERO_TIME } from './timestamps';

/**
 * Turns one client-sent JSON value into a telemetry event of `@vigil/contracts`, or says why not.
 *
 * 1. Field names are matched case-insensitively onto the spec's spelling (`srcIp`, `SRCIP` → `srcIP`; the
 *    exact spelling wins when both are present; `referer` → `referrer`); unknown fields are dropped.
 * 2. Values are coerced where clients are known to differ: digit strings for integers, numeric strings for
 *    numbers, numbers for strings, `"true"`/`1` for booleans; IPs trimmed, IPv6 lower-cased.
 * 3. Zero values (`null`, `""`, `0`, `false`, blank strings, Go's zero time) mean "absent", not an error —
 *    except traffic counters (`bytesIn`, `packetsIn`, ...), where 0 is a measurement: a flow that got nothing
 *    back is how unanswered connections (scans) are recognised.
 * 4. The result is checked against the type's JSON Schema (./schemas, compiled once here by ajv).
 * 5. Field finishing: `ts` to UTC ISO with milliseconds (receive time when absent), DNS query lower-cased
 *    without its trailing dot, qtype upper-cased or named from its number, proto lower-cased or named from
 *    its number, HTTP method upper-cased, TLS validity dates to UTC ISO. The URL is kept as sent.
 *
 * Rejection reasons are short, stable snake_case strings (clients see them in a `rejected` map):
 * `not_an_object`, `missing_<field>`, `invalid_<field>` (e.g. `invalid_ts`, `invalid_srcIP`, `invalid_query`).
 */

export type RejectionReason = 'not_an_object' | 'invalid_json' | `invalid_${string}` | `missing_${string}`;
export type NormalizeResult<T extends TelemetryType = TelemetryType> =
  | { ok: true; event: TelemetryEventByType[T] }
  | { ok: false; reason: RejectionReason };
export type EventNormalizer<T extends TelemetryType = TelemetryType> = (raw: unknown) => NormalizeResult<T>;

/** Normalises one event; `now` stands in for a missing or zero `ts`. The input is left unchanged. */
export function normalizeEvent<T extends TelemetryType>(type: T, raw: unknown, now: Date): NormalizeResult<T> {
  return normalizeWith(RULES[type], raw, now.toISOString(), false) as NormalizeResult<T>;
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
  const nowIso = now.toISOString();
  const mayReuseInput = options.mayReuseInput === true;
  return (raw) => normalizeWith(rules, raw, nowIso, mayReuseInput) as NormalizeResult<T>;
}

type Coercion = 'text' | 'ip' | 'integer' | 'counter' | 'number' | 'boolean' | 'timestamp';

/** Integer fields whose 0 is a value, not a zero value. */
const COUNTER_FIELDS: ReadonlySet<string> = new Set(['bytesIn', 'bytesOut', 'packetsIn', 'packetsOut']);

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
}

type Finish = (event: Record<string, unknown>) => RejectionReason | undefined;

const FIELD_ALIASES: Readonly<Record<string, string>> = { referer: 'referrer' };

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

function coercionOf(schema: FieldSchema): Coercion {
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

function buildRules(schema: EventSchema, finish: Finish): EventRules {
  const fields = new Map<string, FieldRule>();
  for (const [name, fieldSchema] of Object.entries(schema.properties)) {
    const coercion = COUNTER_FIELDS.has(name) && fieldSchema.type === 'integer' ? 'counter' : coercionOf(fieldSchema);
    const rule: FieldRule = { name, coercion };
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
  return { validate, fields, finish };
}

const RULES = Object.fromEntries(TELEMETRY_TYPES.map((type) => [type, buildRules(EVENT_SCHEMAS[type], FINISH[type])])) as Record<
  TelemetryType,
  EventRules
>;

const NOT_AN_OBJECT: NormalizeResult = { ok: false, reason: 'not_an_object' };
const INVALID_TS: NormalizeResult = { ok: false, reason: 'invalid_ts' };

function normalizeWith(rules: EventRules, raw: unknown, nowIso: string, mayReuseInput: boolean): NormalizeResult {
  if (!isJsonObject(raw)) return NOT_AN_OBJECT;
  const event = mayReuseInput && isCanonical(rules, raw) ? raw : canonicalCopy(rules, raw);
  if (!rules.validate(event)) return { ok: false, reason: reasonOf(rules.validate.errors![0]) };

  if (event.ts === undefined) {
    event.ts = nowIso;
  } else {
    const ts = normalizeTimestamp(event.ts as string | number);
    if (ts === INVALID_TIME) return INVALID_TS;
    event.ts = ts === ZERO_TIME ? nowIso : ts;
  }
  const rejection = rules.finish(event);
  if (rejection !== undefined) return { ok: false, reason: rejection };
  return { ok: true, event: event as unknown as TelemetryEventByType[TelemetryType] };
}

/** Field names made canonical, values coerced, zero values and unknown fields left out. */
function canonicalCopy(rules: EventRules, raw: Record<string, unknown>): Record<string, unknown> {
  const event: Record<string, unknown> = {};
  for (const key in raw) {
    const rule = rules.fields.get(key) ?? rules.fields.get(key.toLowerCase());
    if (rule === undefined) continue;
    const value = coerce(raw[key], rule.coercion);
    if (value === undefined) continue;
    if (key !== rule.name && event[rule.name] !== undefined) continue; // the exact spelling wins
    event[rule.name] = value;
  }
  return event;
}

/** True when canonicalCopy would copy `raw` unchanged: every key exact, every value already final. */
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
      return typeof value === 'string' && !isBlank(value);
    case 'ip':
      return typeof value === 'string' && value !== '' && !hasOuterSpace(value) && (!value.includes(':') || !HAS_UPPER_CASE.test(value));
    case 'timestamp':
      return (typeof value === 'string' && !isBlank(value)) || (typeof value === 'number' && value !== 0);
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
      if (typeof value === 'number') return String(value);
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
