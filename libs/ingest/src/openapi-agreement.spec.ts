import { openApiDocument, REJECTION_REASON_PATTERN, TELEMETRY_TYPES, type TelemetryType } from '@vigil/contracts';
import { MAX_EVENT_DEPTH, MAX_EVENT_FIELDS, MAX_EVENT_STRING_LENGTH } from './event-bounds';
import { parseTelemetryBatch } from './parse-batch';
import { EVENT_SCHEMAS } from './schemas';
import { normalizeEvent } from './validate';

/** What the OpenAPI document says about uploads, checked against what the ingest code does. */

const NOW = new Date('2026-01-01T00:00:00.000Z');
const VALID_REQUIRED: Record<string, unknown> = { query: 'a.example', url: 'x.test/' };

function reasonOf(type: TelemetryType, raw: unknown): string {
  const result = normalizeEvent(type, raw, NOW);
  return result.ok ? 'accepted' : result.reason;
}

/** Every rejection reason the server can produce, each produced for real by an input that earns it. */
function producedReasons(): Set<string> {
  const reasons = new Set<string>();
  for (const type of TELEMETRY_TYPES) {
    const schema = EVENT_SCHEMAS[type];
    const required = Object.fromEntries(schema.required.map((field) => [field, VALID_REQUIRED[field]]));
    for (const field of Object.keys(schema.properties)) reasons.add(reasonOf(type, { ...required, [field]: { wrong: 'type' } }));
    for (const field of schema.required) reasons.add(reasonOf(type, { ...required, [field]: '' }));
    reasons.add(reasonOf(type, 'not an object'));
    reasons.add(reasonOf(type, { ...required, ts: '1999-01-01T00:00:00Z' }));
    reasons.add(reasonOf(type, { ...required, x: JSON.parse('['.repeat(MAX_EVENT_DEPTH) + ']'.repeat(MAX_EVENT_DEPTH)) }));
    reasons.add(reasonOf(type, { ...required, x: Array(MAX_EVENT_FIELDS).fill(1) }));
    reasons.add(reasonOf(type, { ...required, x: 'x'.repeat(MAX_EVENT_STRING_LENGTH + 1) }));
    for (const reason of Object.keys(parseTelemetryBatch(type, Buffer.from('{"broken"\n{"a":' + '['.repeat(100) + ']'.repeat(100) + '}{}'), NOW).rejected)) {
      reasons.add(reason);
    }
  }
  reasons.delete('accepted');
  return reasons;
}

describe('the OpenAPI document and the ingest path agree', () => {
  it('the documented pattern of `rejected` keys matches every reason the server produces', () => {
    const reasons = producedReasons();
    expect([...reasons].sort()).toEqual(
      expect.arrayContaining([
        'invalid_json', 'not_an_object', 'too_deep', 'too_many_fields', 'string_too_long', 'ts_out_of_range',
        'invalid_srcIP', 'invalid_destPort', 'invalid_validFrom', 'invalid_userAgent', 'invalid_termination', 'missing_query', 'missing_url',
      ]),
    );
    const pattern = new RegExp(REJECTION_REASON_PATTERN);
    expect([...reasons].filter((reason) => !pattern.test(reason))).toEqual([]);
    const served = (openApiDocument.components.schemas.eventsResponseBody as any).properties.rejected.propertyNames.pattern;
    expect(served).toBe(REJECTION_REASON_PATTERN);
  });

  it('the pattern refuses what the server never produces', () => {
    const pattern = new RegExp(REJECTION_REASON_PATTERN);
    for (const key of ['', 'invalid_', 'missing_', 'Invalid_ts', 'invalid-ts', 'invalid_src IP', 'too_big', 'invalid_1']) {
      expect({ key, matches: pattern.test(key) }).toEqual({ key, matches: false });
    }
  });

  it('the documented per-event bounds are the enforced ones', () => {
    const body = openApiDocument.components.requestBodies.dnsEvents.description ?? '';
    const rejected = (openApiDocument.components.schemas.eventsResponseBody as any).properties.rejected.description as string;
    for (const text of [body, rejected]) {
      expect(text).toContain(`${MAX_EVENT_DEPTH} levels`);
      expect(text).toContain(`${MAX_EVENT_FIELDS} values`);
      expect(text).toContain(`${MAX_EVENT_STRING_LENGTH} characters`);
      expect(text).toContain('ten years');
    }
  });
});
